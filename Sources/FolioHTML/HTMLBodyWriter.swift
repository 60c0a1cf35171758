import Foundation
import FolioCharts
import FolioGraphics
import FolioModel

/// Writes the blocks of a report as HTML, every document string escaped once here,
/// and collects the tints whose classes the stylesheet must define.
struct HTMLBodyWriter {
    let renderer: HTMLRenderer
    var ids: IDGenerator
    private(set) var tints: [Color] = []
    /// Column widths in percent that the stylesheet must define classes for.
    private(set) var columnPercents: [Int] = []
    /// Flex-grow shares of side-by-side columns that the stylesheet must define classes for.
    private(set) var columnShares: [Int] = []

    init(renderer: HTMLRenderer, ids: IDGenerator) {
        self.renderer = renderer
        self.ids = ids
    }

    private var theme: Theme { renderer.theme }

    mutating func body(_ document: Document) throws -> String {
        var html = ""
        let header = document.header ?? ""
        if !header.isEmpty || theme.logo != nil {
            html += "<header class=\"folio-page-header\">"
            if let logo = theme.logo { html += "<img src=\"\(logo.dataURI)\" alt=\"\">" }
            html += "<span>\(HTMLEscaping.escape(header))</span></header>\n"
        }
        html += "<h1>\(HTMLEscaping.escape(document.title))</h1>\n"
        let charts = ChartRenderer(measurer: renderer.measurer, theme: theme)
        for (index, block) in document.elements.enumerated() {
            html += try self.html(for: block, path: "elements[\(index)]", charts: charts)
            html += "\n"
        }
        return html
    }

    private mutating func tintClass(_ tint: Color) -> String {
        if !tints.contains(tint) { tints.append(tint) }
        return HTMLStyle.className(tint)
    }

    private mutating func html(for block: Block, path: String, charts: ChartRenderer, chartWidth: Double? = nil) throws -> String {
        switch block {
        case .columns(let columns):
            let gap = 14.0
            let usable = (chartWidth ?? renderer.chartWidth) - gap * Double(columns.items.count - 1)
            var html = "<div class=\"folio-columns\">"
            for (index, (item, fraction)) in zip(columns.items, columns.fractions).enumerated() {
                let share = max(1, Int((fraction * 100).rounded()))
                if !columnShares.contains(share) { columnShares.append(share) }
                html += "<div class=\"folio-column folio-share-\(share)\">"
                html += try self.html(for: item, path: "\(path).items[\(index)]", charts: charts, chartWidth: usable * fraction)
                html += "</div>"
            }
            return html + "</div>"
        case .section(let section):
            return "<div class=\"folio-page-break\"></div><h2 class=\"folio-section-title\"\(anchorAttribute(section.id))>"
                + "\(HTMLEscaping.escape(section.title))</h2>"
        case .subtitle(let subtitle):
            return "<h2\(anchorAttribute(subtitle.id))>\(HTMLEscaping.escape(subtitle.text))</h2>"
        case .paragraph(let paragraph):
            let alignment = paragraph.align == .left ? "" : " class=\"folio-\(paragraph.align.rawValue)\""
            return "<p\(alignment)>\(inline(paragraph.text))</p>"
        case .image(let image):
            let data = try ImageLoader.load(image, path: path, baseDirectory: renderer.baseDirectory)
            let width = image.width?.points ?? Double(data.pixelWidth) * 0.75
            let height = width * Double(data.pixelHeight) / Double(data.pixelWidth)
            var html = "<figure class=\"folio-image\"><img src=\"\(data.dataURI)\" alt=\"\(HTMLEscaping.escape(image.alt))\""
            html += " width=\"\(Int(width.rounded()))\" height=\"\(Int(height.rounded()))\">"
            if let caption = image.caption { html += "<figcaption>\(HTMLEscaping.escape(caption))</figcaption>" }
            return html + "</figure>"
        case .table(let table):
            return tableHTML(table)
        case .chart(let chart):
            let drawing = charts.drawing(for: chart, width: chartWidth ?? renderer.chartWidth)
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
            var html = "<aside class=\"folio-message folio-message-\(message.kind.rawValue) \(tintClass(message.effectiveTint))\" role=\"note\">"
            html += "<p class=\"folio-message-title\"><strong>"
            if let label = message.kind.label { html += "\(label): " }
            html += "\(HTMLEscaping.escape(message.title))</strong></p>"
            if !message.text.runs.isEmpty { html += "<p>\(inline(message.text))</p>" }
            return html + "</aside>"
        case .widgets(let widgets):
            var html = "<ul class=\"folio-widgets\">"
            for (index, item) in widgets.items.enumerated() {
                html += "<li class=\"folio-widget \(tintClass(item.tint ?? theme.seriesColor(index + 1)))\">"
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
                if link.hasPrefix("#") {
                    piece = "<a href=\"#\(anchorID(String(link.dropFirst())))\">\(piece)</a>"
                } else {
                    piece = "<a href=\"\(HTMLEscaping.escape(link))\" rel=\"noopener noreferrer\">\(piece)</a>"
                }
            }
            html += piece
        }
        return html
    }

    /// The element id of an author's anchor, under this report's prefix so reports on one page never collide.
    func anchorID(_ anchor: String) -> String {
        ids.prefix + "-" + String(anchor.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" ? Character($0) : "_" })
    }

    private func anchorAttribute(_ anchor: String?) -> String {
        anchor.map { " id=\"\(anchorID($0))\"" } ?? ""
    }

    private mutating func tableHTML(_ table: Table) -> String {
        func cellClass(_ column: Int) -> String {
            switch table.alignment(ofColumn: column) {
            case .left: return ""
            case .center: return " class=\"folio-center\""
            case .right: return " class=\"folio-right\""
            }
        }
        let columns = table.columnCount
        let spans = table.spanLookup
        func cellAttributes(_ slot: Table.Slot) -> String {
            cellClass(slot.column) + (slot.span > 1 ? " colspan=\"\(slot.span)\"" : "")
        }
        var html = "<div class=\"folio-table-wrap\"><table\(table.zebra ? " class=\"folio-zebra\"" : "")>"
        if let caption = table.caption { html += "<caption>\(HTMLEscaping.escape(caption))</caption>" }
        if let widths = table.widths, !widths.isEmpty {
            html += "<colgroup>"
            for column in 0..<columns {
                let width = column < widths.count ? widths[column] : .auto
                let percent: Int?
                switch width {
                case .auto: percent = nil
                case .percent(let value): percent = Int(value.rounded())
                case .fixed(let length): percent = Int((length.points / renderer.chartWidth * 100).rounded())
                }
                if let percent {
                    let clamped = min(max(percent, 1), 100)
                    if !columnPercents.contains(clamped) { columnPercents.append(clamped) }
                    html += "<col class=\"folio-col-\(clamped)\">"
                } else {
                    html += "<col>"
                }
            }
            html += "</colgroup>"
        }
        if let header = table.header {
            html += "<thead><tr>"
            for slot in Table.slots(header, row: -1, columns: columns, lookup: spans) {
                html += "<th scope=\"col\"\(cellAttributes(slot))>\(HTMLEscaping.escape(slot.text))</th>"
            }
            html += "</tr></thead>"
        }
        html += "<tbody>"
        for (index, row) in table.rows.enumerated() {
            html += "<tr>"
            for slot in Table.slots(row, row: index, columns: columns, lookup: spans) {
                html += "<td\(cellAttributes(slot))>\(HTMLEscaping.escape(slot.text))</td>"
            }
            html += "</tr>"
        }
        return html + "</tbody></table></div>"
    }
}
