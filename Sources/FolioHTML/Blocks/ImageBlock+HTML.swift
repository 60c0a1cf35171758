import FolioGraphics
import FolioModel

extension ImageBlock: HTMLBlock {
    /// A figure with the prepared image as a data URI, its alt text and its caption.
    func html(in writer: inout HTMLBodyWriter, path: String) throws -> HTML {
        let data = try writer.prepared.image(at: path)
        let width = width?.points ?? Double(data.pixelWidth) * 0.75
        let height = width * Double(data.pixelHeight) / Double(data.pixelWidth)
        var html: HTML = "<figure class=\"folio-image\"><img src=\"\(dataURI: data)\" alt=\"\(alt)\""
        html += " width=\"\(width.clampedInt())\" height=\"\(height.clampedInt())\">"
        if let caption { html += "<figcaption>\(caption)</figcaption>" }
        return html + "</figure>"
    }
}
