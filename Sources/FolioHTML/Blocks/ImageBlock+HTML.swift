import FolioGraphics
import FolioModel

extension ImageBlock: HTMLBlock {
    /// A figure with the prepared image as a data URI, its alt text and its caption.
    func html(in writer: inout HTMLBodyWriter, path: String) throws -> HTML {
        let data = try writer.prepared.image(at: path)
        // CSS pixels are 3/4 of a point: a `width: 3cm` image is 3 cm wide in print, as in the PDF.
        let width = Swift.min(width?.points ?? Double(data.pixelWidth) * 0.75, InputLimits.length) / 0.75
        let height = width * Double(data.pixelHeight) / Double(data.pixelWidth)
        var html: HTML = "<figure class=\"folio-image\"><img src=\"\(dataURI: data)\" alt=\"\(alt)\""
        html += " width=\"\(width.clampedInt())\" height=\"\(height.clampedInt())\">"
        if let caption { html += "<figcaption>\(caption)</figcaption>" }
        return html + "</figure>"
    }
}
