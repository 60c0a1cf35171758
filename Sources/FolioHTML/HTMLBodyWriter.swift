import FolioCharts
import FolioGraphics
import FolioModel
import Foundation

/// Writes the blocks of a report as HTML, every document string escaped once here,
/// and collects the tints whose classes the stylesheet must define.
struct HTMLBodyWriter {
    let renderer: HTMLRenderer
    /// The validated document's images, read before writing.
    let prepared: PreparedDocument
    /// The document's built-in words and number format.
    let strings: BuiltInStrings
    var ids: IDGenerator
    private(set) var tints: [Color] = []
    /// Column widths in percent that the stylesheet must define classes for.
    private(set) var columnPercents: [Int] = []
    /// Flex-grow shares of side-by-side columns that the stylesheet must define classes for.
    private(set) var columnShares: [Int] = []

    init(renderer: HTMLRenderer, prepared: PreparedDocument, strings: BuiltInStrings, ids: IDGenerator) {
        self.renderer = renderer
        self.prepared = prepared
        self.strings = strings
        self.ids = ids
    }

    private var theme: Theme { renderer.theme }

    mutating func body(_ document: Document) throws -> HTML {
        var html = HTML()
        // The header's texts in their places; HTML has no pages, so a text with a page number is left
        // out. Texts are cut as in the PDF (InputLimits.runningTextScalars).
        let header = (document.header ?? .none).cutToRunningLength().line
        let values = document.runningValues(nil, date: document.runningDate(strings: strings))
        let places = RunningLine.Slot.allCases.compactMap { slot -> (RunningLine.Slot, String)? in
            guard let text = header[slot], !text.isEmpty,
                text.placeholderNames.allSatisfy({ !RunningLine.pagePlaceholders.contains($0) })
            else { return nil }
            return (slot, text.fillingPlaceholders(values))
        }
        if !places.isEmpty || theme.logo != nil {
            html += "<header class=\"folio-page-header\">"
            if let logo = theme.logo { html += "<img src=\"\(dataURI: logo)\" alt=\"\">" }
            for (slot, text) in places { html += "<span class=\"folio-header-\(slot.rawValue)\">\(text)</span>" }
            html += "</header>\n"
        }
        if !document.title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { html += "<h1>\(document.title)</h1>\n" }
        let charts = ScreenChart(measurer: renderer.measurer, theme: theme, strings: strings)
        for (index, block) in document.elements.enumerated() {
            try RenderDeadline.check(at: "writing elements[\(index)] as HTML")
            html += try self.html(for: block, path: "elements[\(index)]", charts: charts)
            html += "\n"
        }
        return html
    }

    /// A custom element: its own markup (names from fixed lists, everything else escaped), with
    /// its drawing as inline SVG where it asks, or just the drawing.
    private mutating func customHTML(_ element: any CustomElement, charts: ScreenChart) -> HTML {
        let drawing = ElementRecorder.drawing(
            of: element, width: ScreenChart.wideWidth, measurer: charts.charts.measurer, theme: theme)
        let label = element.alternativeText
        var svg: HTML = ""
        if drawing.size.height > 0 {
            svg = SVGCanvas.svg(drawing, id: ids.next("custom"), title: label ?? "", fontFamily: theme.fontFamily)
        }
        guard let markup = element.html() else {
            return "<figure class=\"folio-custom\"\(label == nil ? " aria-hidden=\"true\"" : "")>\(svg)</figure>"
        }
        return "<div class=\"folio-custom\">\(HTMLBodyWriter.html(markup, drawing: svg, depth: 0))</div>"
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
            for child in children { html += HTMLBodyWriter.html(child, drawing: drawing, depth: depth + 1) }
            return html + "</\(tag.rawValue)>"
        }
    }

    private mutating func tintClass(_ tint: Color) -> String {
        if !tints.contains(tint) { tints.append(tint) }
        return HTMLStyle.className(tint)
    }

    private mutating func html(for block: Block, path: String, charts: ScreenChart) throws -> HTML {
        switch block {
        case .columns(let columns):
            var html: HTML = "<div class=\"folio-columns\">"
            for (index, (item, fraction)) in zip(columns.items, columns.fractions).enumerated() {
                let share = max(1, (fraction * 100).clampedInt())
                if !columnShares.contains(share) { columnShares.append(share) }
                html += "<div class=\"folio-column folio-share-\(share)\">"
                html += try self.html(for: item, path: "\(path).items[\(index)]", charts: charts)
                html += "</div>"
            }
            return html + "</div>"
        case .section(let section):
            return "<div class=\"folio-page-break\"></div><h2 class=\"folio-section-title\"\(anchorAttribute(section.id))>"
                + "\(section.title)</h2>"
        case .subtitle(let subtitle):
            return "<h2\(anchorAttribute(subtitle.id))>\(subtitle.text)</h2>"
        case .paragraph(let paragraph):
            let alignment: HTML = paragraph.align == .left ? "" : " class=\"folio-\(paragraph.align.rawValue)\""
            return "<p\(alignment)\(neutralDirection(paragraph.text.runs.map(\.text).joined()))>\(inline(paragraph.text))</p>"
        case .image(let image):
            let data = try prepared.image(at: path)
            let width = image.width?.points ?? Double(data.pixelWidth) * 0.75
            let height = width * Double(data.pixelHeight) / Double(data.pixelWidth)
            var html: HTML = "<figure class=\"folio-image\"><img src=\"\(dataURI: data)\" alt=\"\(image.alt)\""
            html += " width=\"\(width.clampedInt())\" height=\"\(height.clampedInt())\">"
            if let caption = image.caption { html += "<figcaption>\(caption)</figcaption>" }
            return html + "</figure>"
        case .table(let table):
            return try tableHTML(table)
        case .custom(let custom):
            return customHTML(custom.element, charts: charts)
        case .svg(let svg):
            let picture = try prepared.picture(at: path)
            let width = Swift.min(svg.width?.points ?? picture.size.width, InputLimits.length) / 0.75
            let height = width * picture.size.height / picture.size.width
            let alt = svg.alt.trimmingCharacters(in: .whitespacesAndNewlines)
            var html: HTML = "<figure class=\"folio-image folio-svg\">"
            html +=
                "\(svg: picture, idPrefix: ids.next("svg"), width: width, height: height, fontFamily: theme.fontFamily, label: alt.isEmpty ? nil : alt)"
            if let caption = svg.caption { html += "<figcaption>\(caption)</figcaption>" }
            return html + "</figure>"
        case .chart(let chart):
            var html: HTML = "<figure class=\"folio-chart\">"
            if let title = chart.title { html += "<div class=\"folio-figure-title\">\(title)</div>" }
            html += charts.markup(for: chart, ids: &ids, fontFamily: theme.fontFamily)
            if chart.dataTable {
                let data = ChartDataTable(chart, strings: strings)
                html += "<details class=\"folio-chart-data\"><summary>\(strings[.data])</summary>"
                html += try tableHTML(Table(header: data.header, rows: data.rows, zebra: true))
                html += "</details>"
            }
            if let caption = chart.caption { html += "<figcaption>\(caption)</figcaption>" }
            return html + "</figure>"
        case .message(let message):
            var html: HTML =
                "<aside class=\"folio-message folio-message-\(message.kind.rawValue) \(tintClass(theme.tint(of: message)))\" role=\"note\">"
            html += "<p class=\"folio-message-title\"><strong>"
            if let label = message.kind.label(in: strings) { html += "\(label): " }
            html += "\(message.title)</strong></p>"
            if !message.text.runs.isEmpty { html += "<p>\(inline(message.text))</p>" }
            return html + "</aside>"
        case .widgets(let widgets):
            var html: HTML = "<ul class=\"folio-widgets\">"
            for (index, item) in widgets.items.enumerated() {
                html += "<li class=\"folio-widget \(tintClass(item.tint ?? theme.seriesColor(index + 1)))\">"
                html += "<p class=\"folio-widget-title\"\(neutralDirection(item.title))>\(item.title)</p>"
                html += "<p class=\"folio-widget-value\"\(neutralDirection(item.value))>\(item.value)</p>"
                if let detail = item.detail { html += "<p class=\"folio-widget-detail\"\(neutralDirection(detail))>\(detail)</p>" }
                html += "</li>"
            }
            return html + "</ul>"
        case .pageBreak:
            return "<div class=\"folio-page-break\"></div>"
        }
    }

    /// Inline runs as `<strong>`, `<em>`, `<a>` and `<br>`; every character escaped.
    func inline(_ text: RichText) -> HTML {
        var html = HTML()
        for run in text.runs {
            var piece = HTML(text: run.text).lineBreaks()
            if run.italic { piece = "<em>\(piece)</em>" }
            if run.bold { piece = "<strong>\(piece)</strong>" }
            if let link = run.link, RichText.isAllowedLink(link) {
                if link.hasPrefix("#") {
                    piece = "<a href=\"#\(anchorID(String(link.dropFirst())))\">\(piece)</a>"
                } else {
                    piece = "<a href=\"\(url: link)\" rel=\"noopener noreferrer\">\(piece)</a>"
                }
            }
            html += piece
        }
        return html
    }

    /// ` dir="rtl"` on an element of a right-to-left document whose text has no direction of its own
    /// (digits, "51%"): each paragraph otherwise takes its direction from its first strong character, and
    /// one without any would start on the left. The PDF resolves such text the same way (Pango's base direction).
    private func neutralDirection(_ text: String) -> HTML {
        strings.isRightToLeft && TextDirection.of(text) == nil ? " dir=\"rtl\"" : ""
    }

    /// The element id of an author's anchor, under this report's prefix so reports on one page never collide.
    func anchorID(_ anchor: String) -> String {
        ids.prefix + "-"
            + String(anchor.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" ? Character($0) : "_" })
    }

    private func anchorAttribute(_ anchor: String?) -> HTML {
        anchor.map { " id=\"\(anchorID($0))\"" } ?? ""
    }

    private mutating func tableHTML(_ table: Table) throws -> HTML {
        func cellClass(_ column: Int) -> HTML {
            switch table.alignment(ofColumn: column) {
            case .left: return ""
            case .center: return " class=\"folio-center\""
            case .right: return " class=\"folio-right\""
            }
        }
        let columns = table.columnCount
        let spans = table.spanLookup
        func cellAttributes(_ slot: Table.Slot) -> HTML {
            cellClass(slot.column) + (slot.span > 1 ? " colspan=\"\(slot.span)\"" : "") + neutralDirection(slot.text)
        }
        // The wrapper scrolls a wide table sideways; keyboard users reach it by Tab (WCAG 2.1.1), and
        // screen readers announce it as a region named by the caption.
        var html: HTML =
            "<div class=\"folio-table-wrap\" role=\"region\" tabindex=\"0\" aria-label=\"\(table.caption ?? strings[.table])\">"
        html += "<table\(table.zebra ? " class=\"folio-zebra\"" : HTML())>"
        if let caption = table.caption { html += "<caption>\(caption)</caption>" }
        if let widths = table.widths, !widths.isEmpty {
            html += "<colgroup>"
            for column in 0..<columns {
                let width = column < widths.count ? widths[column] : .auto
                let percent: Int?
                switch width {
                case .auto: percent = nil
                case .percent(let value): percent = value.clampedInt()
                case .fixed(let length): percent = (length.points / renderer.chartWidth * 100).clampedInt()
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
                html += "<th scope=\"col\"\(cellAttributes(slot))>\(slot.text)</th>"
            }
            html += "</tr></thead>"
        }
        html += "<tbody>"
        for (index, row) in table.rows.enumerated() {
            if index & 255 == 255 { try RenderDeadline.check() }
            html += "<tr>"
            for slot in Table.slots(row, row: index, columns: columns, lookup: spans) {
                html += "<td\(cellAttributes(slot))>\(slot.text)</td>"
            }
            html += "</tr>"
        }
        return html + "</tbody></table></div>"
    }
}
