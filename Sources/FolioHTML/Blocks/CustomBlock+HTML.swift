import FolioGraphics
import FolioModel

extension CustomBlock: HTMLBlock {
    /// A custom element: its own markup (names from fixed lists, everything else escaped), with
    /// its drawing as inline SVG where it asks, or just the drawing.
    func html(in writer: inout HTMLBodyWriter, path: String) throws -> HTML {
        let theme = writer.theme
        let drawing = ElementRecorder.drawing(
            of: element, width: ScreenChart.wideWidth, measurer: writer.charts.charts.measurer, theme: theme)
        let label = element.alternativeText
        var svg: HTML = ""
        if drawing.size.height > 0 {
            svg = SVGCanvas.svg(drawing, id: writer.ids.next("custom"), title: label ?? "", fontFamily: theme.fontFamily)
        }
        guard let markup = element.html() else {
            return "<figure class=\"folio-custom\"\(label == nil ? " aria-hidden=\"true\"" : "")>\(svg)</figure>"
        }
        return "<div class=\"folio-custom\">\(CustomBlock.html(markup, drawing: svg, depth: 0))</div>"
    }

    /// `markup` written through `HTML`: tag and attribute names from `ElementMarkup`'s fixed lists, texts
    /// and values escaped, at most 64 levels deep.
    private static func html(_ markup: ElementMarkup, drawing: HTML, depth: Int) -> HTML {
        guard depth < 64 else { return "" }
        switch markup {
        case .text(let text): return "\(text)"
        case .drawing: return drawing
        case .element(let tag, let attributes, let children):
            var html: HTML = "<\(tag.rawValue)"
            for (name, value) in attributes.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                html += " \(name.rawValue)=\"\(value)\""
            }
            html += ">"
            if tag == .br || tag == .hr { return html }
            for child in children { html += CustomBlock.html(child, drawing: drawing, depth: depth + 1) }
            return html + "</\(tag.rawValue)>"
        }
    }
}
