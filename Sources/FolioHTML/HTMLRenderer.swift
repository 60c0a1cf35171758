import Foundation
import FolioCharts
import FolioGraphics
import FolioModel

/// Writes a document as a self-contained HTML5 page or an embeddable fragment:
/// inline CSS, charts as inline SVG, images as data URIs, no scripts.
public struct HTMLRenderer {
    public var theme: Theme
    /// Folder that relative image paths start from.
    public var baseDirectory: URL?
    /// The measurer charts are laid out with; the PDF uses the same one.
    public let measurer: TextMeasurer
    /// Width charts are laid out at, in points; SVG scales it to the page.
    public var chartWidth: Double

    public init(measurer: TextMeasurer, theme: Theme = .standard, baseDirectory: URL? = nil, chartWidth: Double = 481.9) {
        self.measurer = measurer
        self.theme = theme
        self.baseDirectory = baseDirectory
        self.chartWidth = chartWidth
    }

    /// A complete HTML document.
    public func page(_ document: Document) throws -> String {
        let root = try rootElement(document, embedsStyle: false)
        let meta = document.metadata
        var head = "<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        head += "<title>\(HTMLEscaping.escape(document.title))</title>\n"
        head += "<meta name=\"generator\" content=\"Folio\">\n"
        if let author = meta.author { head += "<meta name=\"author\" content=\"\(HTMLEscaping.escape(author))\">\n" }
        if let subject = meta.subject { head += "<meta name=\"description\" content=\"\(HTMLEscaping.escape(subject))\">\n" }
        if !meta.keywords.isEmpty {
            head += "<meta name=\"keywords\" content=\"\(HTMLEscaping.escape(meta.keywords.joined(separator: ", ")))\">\n"
        }
        head += "<style>\nbody{margin:0;background:#fff}\n\(HTMLStyle.css(theme: theme))\n</style>\n"
        return "<!DOCTYPE html>\n<html lang=\"\(HTMLEscaping.escape(meta.language))\">\n<head>\n\(head)</head>\n<body>\n"
            + root
            + "</body>\n</html>\n"
    }

    /// One `<div class="folio">` element with its own scoped styles, to embed in another page.
    public func fragment(_ document: Document) throws -> String {
        try rootElement(document, embedsStyle: true)
    }

    private func rootElement(_ document: Document, embedsStyle: Bool) throws -> String {
        try document.validate()
        var ids = IDGenerator(prefix: IDGenerator.prefix(for: document))
        var html = "<div class=\"folio\" id=\"\(ids.prefix)\" lang=\"\(HTMLEscaping.escape(document.metadata.language))\">\n"
        if embedsStyle { html += "<style>\(HTMLStyle.css(theme: theme))</style>\n" }
        if let header = document.header, !header.isEmpty {
            html += "<header class=\"folio-page-header\">\(HTMLEscaping.escape(header))</header>\n"
        }
        html += "<h1>\(HTMLEscaping.escape(document.title))</h1>\n"
        let charts = ChartRenderer(measurer: measurer, theme: theme)
        for (index, block) in document.elements.enumerated() {
            html += try self.html(for: block, path: "elements[\(index)]", charts: charts, ids: &ids)
            html += "\n"
        }
        return html + "</div>\n"
    }

    private func html(for block: Block, path: String, charts: ChartRenderer, ids: inout IDGenerator) throws -> String {
        switch block {
        case .subtitle(let subtitle):
            return "<h2>\(HTMLEscaping.escape(subtitle.text))</h2>"
        case .paragraph(let paragraph):
            return "<p>\(inline(paragraph.text))</p>"
        case .image(let image):
            let data = try ImageLoader.load(image, path: path, baseDirectory: baseDirectory)
            let width = image.width?.points ?? Double(data.pixelWidth) * 0.75
            let height = width * Double(data.pixelHeight) / Double(data.pixelWidth)
            var html = "<figure class=\"folio-image\"><img src=\"\(data.dataURI)\" alt=\"\(HTMLEscaping.escape(image.alt))\""
            html += " width=\"\(Int(width.rounded()))\" height=\"\(Int(height.rounded()))\">"
            if let caption = image.caption { html += "<figcaption>\(HTMLEscaping.escape(caption))</figcaption>" }
            return html + "</figure>"
        case .table(let table):
            return tableHTML(table)
        case .chart(let chart):
            let drawing = charts.drawing(for: chart, width: chartWidth)
            let id = ids.next("chart")
            var html = "<figure class=\"folio-chart\">"
            if let title = chart.title { html += "<div class=\"folio-figure-title\">\(HTMLEscaping.escape(title))</div>" }
            html += SVGCanvas.svg(drawing, id: id, title: chart.title ?? "Chart", fontFamily: theme.fontFamily)
            if chart.dataTable {
                let data = ChartDataTable(chart)
                html += "<details class=\"folio-chart-data\"><summary>Data</summary>"
                html += tableHTML(Table(header: data.header, rows: data.rows, zebra: true))
                html += "</details>"
            }
            if let caption = chart.caption { html += "<figcaption>\(HTMLEscaping.escape(caption))</figcaption>" }
            return html + "</figure>"
        case .message(let message):
            let tint = message.effectiveTint
            var html = "<aside class=\"folio-message folio-message-\(message.kind.rawValue)\" role=\"note\""
            html += " style=\"--folio-tint:\(tint.hex);--folio-tint-bg:\(tint.lightened(0.9).hex)\">"
            html += "<p class=\"folio-message-title\"><strong>"
            if let label = message.kind.label { html += "\(label): " }
            html += "\(HTMLEscaping.escape(message.title))</strong></p>"
            if !message.text.runs.isEmpty { html += "<p>\(inline(message.text))</p>" }
            return html + "</aside>"
        case .widgets(let widgets):
            var html = "<ul class=\"folio-widgets\">"
            for (index, item) in widgets.items.enumerated() {
                let tint = item.tint ?? theme.seriesColor(index + 1)
                html += "<li class=\"folio-widget\" style=\"--folio-tint:\(tint.hex)\">"
                html += "<p class=\"folio-widget-title\">\(HTMLEscaping.escape(item.title))</p>"
                html += "<p class=\"folio-widget-value\">\(HTMLEscaping.escape(item.value))</p>"
                if let detail = item.detail { html += "<p class=\"folio-widget-detail\">\(HTMLEscaping.escape(detail))</p>" }
                html += "</li>"
            }
            return html + "</ul>"
        case .pageBreak:
            return "<div class=\"folio-page-break\"></div>"
        }
    }

    /// Inline runs as `<strong>`, `<em>`, `<a>` and `<br>`; every character escaped.
    func inline(_ text: RichText) -> String {
        var html = ""
        for run in text.runs {
            var piece = HTMLEscaping.escape(run.text).replacingOccurrences(of: "\n", with: "<br>")
            if run.italic { piece = "<em>\(piece)</em>" }
            if run.bold { piece = "<strong>\(piece)</strong>" }
            if let link = run.link, RichText.isAllowedLink(link) {
                piece = "<a href=\"\(HTMLEscaping.escape(link))\" rel=\"noopener noreferrer\">\(piece)</a>"
            }
            html += piece
        }
        return html
    }

    private func tableHTML(_ table: Table) -> String {
        func cellClass(_ column: Int) -> String {
            switch table.alignment(ofColumn: column) {
            case .left: return ""
            case .center: return " class=\"folio-center\""
            case .right: return " class=\"folio-right\""
            }
        }
        var html = "<div class=\"folio-table-wrap\"><table\(table.zebra ? " class=\"folio-zebra\"" : "")>"
        if let caption = table.caption { html += "<caption>\(HTMLEscaping.escape(caption))</caption>" }
        if let header = table.header {
            html += "<thead><tr>"
            for (c, cell) in table.paddedRow(header).enumerated() {
                html += "<th scope=\"col\"\(cellClass(c))>\(HTMLEscaping.escape(cell))</th>"
            }
            html += "</tr></thead>"
        }
        html += "<tbody>"
        for row in table.rows {
            html += "<tr>"
            for (c, cell) in table.paddedRow(row).enumerated() {
                html += "<td\(cellClass(c))>\(HTMLEscaping.escape(cell))</td>"
            }
            html += "</tr>"
        }
        return html + "</tbody></table></div>"
    }
}
