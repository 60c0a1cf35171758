import FolioCharts
import FolioGraphics
import FolioModel

extension Widgets: HTMLBlock {
    /// A list of tiles, each with its tint, title, value and detail.
    func html(in writer: inout HTMLBodyWriter, path: String) throws -> HTML {
        var html: HTML = "<ul class=\"folio-widgets\">"
        for (index, item) in items.enumerated() {
            let tint = writer.style.tintClass(item.tint ?? writer.theme.seriesColor(index + 1))
            html += "<li class=\"folio-widget \(tint)\">"
            html += "<p class=\"folio-widget-title\">\(item.title)</p>"
            html += "<p class=\"folio-widget-value\">\(item.value)</p>"
            if let detail = item.detail { html += "<p class=\"folio-widget-detail\">\(detail)</p>" }
            if let values = item.sparkline {
                let words = Sparkline.words(values, numbers: NumberFormat(writer.strings))
                html +=
                    "<p class=\"folio-widget-detail\">\(writer.sparklineSVG(values, color: item.tint ?? writer.theme.seriesColor(index + 1)))\(words)</p>"
            }
            html += "</li>"
        }
        return html + "</ul>"
    }
}
