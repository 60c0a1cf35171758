import FolioGraphics
import FolioModel
import Foundation

extension SVGBlock: HTMLBlock {
    /// A figure with the sanitised picture inline, its ids unique in the page, labelled by its alt.
    func html(in writer: inout HTMLBodyWriter, path: String) throws -> HTML {
        let picture = try writer.prepared.picture(at: path)
        let width = Swift.min(width?.points ?? picture.size.width, InputLimits.length) / 0.75
        let height = width * picture.size.height / picture.size.width
        let label = alt.trimmingCharacters(in: .whitespacesAndNewlines)
        var html: HTML = "<figure class=\"folio-image folio-svg\">"
        html +=
            "\(svg: picture, idPrefix: writer.ids.next("svg"), width: width, height: height, fontFamily: writer.theme.fontFamily, label: label.isEmpty ? nil : label)"
        if let caption { html += "<figcaption>\(caption)</figcaption>" }
        return html + "</figure>"
    }
}
