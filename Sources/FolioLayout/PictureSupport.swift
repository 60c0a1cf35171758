import FolioGraphics

/// What the backend can draw of pictures, asked while laying out so a picture it cannot draw is
/// an error naming its block, not a gap on the page: the PDF decodes images with Cairo and
/// libjpeg, and draws SVG with librsvg when it is installed.
package protocol PictureSupport: AnyObject {
    /// Whether `image` decodes (a corrupt one is an error).
    func decodes(_ image: ImageData) -> Bool
    /// Whether SVG pictures can be drawn at all.
    var drawsSVG: Bool { get }
}
