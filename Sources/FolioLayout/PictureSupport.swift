import FolioGraphics

/// What the backend can draw of pictures, asked while laying out so a picture it cannot draw is
/// an error naming its block, not a gap on the page: the PDF decodes images with Cairo and
/// libjpeg, and draws SVG with librsvg when it is installed.
package protocol PictureSupport: AnyObject {
    /// Whether `image` decodes (a corrupt one is an error), or cannot for want of memory.
    func decoding(_ image: ImageData) -> PictureDecoding
    /// Whether SVG pictures can be drawn at all.
    var drawsSVG: Bool { get }
}

/// Whether a picture decodes.
package enum PictureDecoding {
    /// It decodes.
    case decoded
    /// Its bytes are not a picture the backend reads.
    case corrupt
    /// Its pixels need more memory than the process may use (a render worker's limit).
    case outOfMemory
}
