import FolioCharts
import FolioGraphics
import FolioInput
import FolioModel
import Foundation

/// Writes the blocks of a report as HTML: the page header and title here, each block by its
/// kind's writer (an `HTMLBlock`, in `Blocks/<Kind>+HTML.swift`), every document string escaped
/// by the `HTML` type; the rules the blocks' markup needs gather in `style`.
struct HTMLBodyWriter {
    let renderer: HTMLRenderer
    /// The validated document's images, read before writing.
    let prepared: PreparedDocument
    /// The document's built-in words and number format.
    let strings: BuiltInStrings
    var ids: IDGenerator
    /// The rules the blocks written so far need beyond the base stylesheet.
    var style: StyleSheet
    /// Lays charts out for screens, with the renderer's measurer.
    let charts: ScreenChart

    /// The anchor of each heading a table of contents links to, by the heading's path (none without one).
    let contentsAnchors: [String: String]
    /// Each cited footnote's number, by its id.
    let footnoteNumbers: [String: Int]
    /// How often each note has been cited so far (each citation's id differs; the first is the note's way back).
    private let citations = CitationCounter()

    /// Counts each note's citations as they are written.
    private final class CitationCounter {
        var counts: [Int: Int] = [:]
        func next(_ number: Int) -> Int {
            counts[number, default: 0] += 1
            return counts[number] ?? 1
        }
    }

    init(renderer: HTMLRenderer, prepared: PreparedDocument, strings: BuiltInStrings, ids: IDGenerator) {
        self.renderer = renderer
        self.prepared = prepared
        contentsAnchors = prepared.document.contentsAnchors()
        footnoteNumbers = prepared.document.footnoteNumbers
        self.strings = strings
        self.ids = ids
        style = StyleSheet(root: ids.prefix)
        charts = ScreenChart(measurer: renderer.measurer, theme: renderer.theme, strings: strings)
    }

    var theme: Theme { renderer.theme }
    /// The report's heading scheme where the writer is (the PDF's and the bookmarks' too).
    var headings = HeadingLevels(hasTitle: false)
    /// How many scrolling table regions have each name so far: a page's regions are named apart
    /// (axe's landmark-unique), "Table", "Table 2", "Table 3".
    private var regionNames: [String: Int] = [:]

    /// A region's name: `name` the first time, then `name 2`, `name 3`.
    mutating func uniqueRegionName(_ name: String) -> String {
        let count = (regionNames[name] ?? 0) + 1
        regionNames[name] = count
        return count == 1 ? name : "\(name) \(count)"
    }

    /// `<hN>` with `attributes` and `content`, N the heading level (1–6).
    func heading(level: Int, attributes: HTML, _ content: HTML) -> HTML {
        let n = min(max(level, 1), 6)
        return "<h\(n)\(attributes)>\(content)</h\(n)>"
    }

    mutating func body(_ document: Document) throws -> HTML {
        var html = HTML()
        if let watermark = document.watermark {
            // Printed only, diagonally behind the content (the report is its own stacking context in
            // print, so the text sits over its background and under its blocks); hidden from screen readers.
            // Its size follows the page's width and the text's length (bold glyphs ≈ 0.62 em), as the PDF's
            // fits 60 % of the diagonal.
            let size = 120 / Double(max(watermark.shownText.count, 1))
            style.add("watermark") { r in
                """
                \(r) .folio-watermark{display:none}@media print{\(r){isolation:isolate}\(r) .folio-watermark{display:block;\
                position:fixed;top:50%;left:50%;transform:translate(-50%,-50%) rotate(-45deg);font-size:min(96pt,max(12pt,\(number: size)vw));font-weight:700;\
                white-space:nowrap;color:var(--folio-muted);opacity:\(number: watermark.opacity);pointer-events:none;z-index:-1}}
                """
            }
            html += "<div class=\"folio-watermark\" aria-hidden=\"true\">\(watermark.shownText)</div>\n"
        }
        // The header's texts in their places; HTML has no pages, so a text with a page number is left
        // out. Texts are cut as in the PDF (InputLimits.runningTextScalars).
        let header = (document.header ?? .none).cutToRunningLength().line
        let values = document.runningValues(nil, date: document.runningDate(strings: strings, date: prepared.date))
        let places = RunningLine.Slot.allCases.compactMap { slot -> (RunningLine.Slot, String)? in
            guard let text = header[slot], !text.isEmpty,
                text.placeholderNames.allSatisfy({ !RunningLine.pagePlaceholders.contains($0) })
            else { return nil }
            return (slot, text.fillingPlaceholders(values))
        }
        if !places.isEmpty || theme.logo != nil || !header.barcodes.isEmpty {
            html += "<header class=\"folio-page-header\">"
            if let logo = theme.logo { html += "<img src=\"\(dataURI: logo)\" alt=\"\">" }
            for (slot, text) in places { html += "<span class=\"folio-header-\(slot.rawValue)\">\(text)</span>" }
            // A patient label: the PDF's small symbol, with its text alternative.
            for slot in RunningLine.Slot.allCases {
                guard let barcode = header.barcodes[slot] else { continue }
                let label = try BarcodeSymbol(barcode, path: "header.\(slot.rawValue).barcode").label(for: barcode.symbology)
                let svg = SVGCanvas.svg(
                    label, id: ids.next("label"), title: barcode.textAlternative, fontFamily: theme.fontFamily, inPoints: true)
                html += "<span class=\"folio-header-\(slot.rawValue) folio-header-barcode\">\(svg)</span>"
            }
            if !header.barcodes.isEmpty {
                style.add("header-barcode") { r in
                    "\(r) .folio-header-barcode>svg{width:auto;height:auto;display:inline-block;vertical-align:middle;shape-rendering:crispEdges}"
                }
            }
            html += "</header>\n"
        }
        if !document.title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            html += "<h1>\(typeset(document.title))</h1>\n"
            headings.hasTitle = true
        } else if !document.elements.contains(where: { if case .subtitle = $0 { true } else if case .section = $0 { true } else { false } })
        {
            // A page without a title or any heading still has its one top heading (axe's page-has-heading-one),
            // for screen readers only: the name it is shown by (its metadata title, else "Untitled").
            // (Without a title, the first subtitle or section is the page's h1.)
            style.add("hidden-title") { r in
                "\(r) .folio-hidden-title{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}"
            }
            html += "<h1 class=\"folio-hidden-title\">\(document.displayTitle(strings: strings))</h1>\n"
        }
        for (index, block) in document.elements.enumerated() {
            try RenderDeadline.check(at: "writing elements[\(index)] as HTML")
            html += try self.html(for: block, path: "elements[\(index)]")
            html += "\n"
        }
        return html + endnotes(document)
    }

    /// The cited footnotes at the end, in number order (a web page has no page feet): each with a
    /// link back to its first citation (DPUB-ARIA's endnotes and backlink).
    private mutating func endnotes(_ document: Document) -> HTML {
        guard !footnoteNumbers.isEmpty else { return "" }
        style.add("notes") { r in
            "\(r) sup.folio-noteref{line-height:0}\(r) sup.folio-noteref a{text-decoration:none;padding:0 .1em}\(r) .folio-notes{margin-top:1.5em;border-top:1px solid var(--folio-rule);font-size:.9em}\(r) .folio-notes a[role=doc-backlink]{text-decoration:none;margin-inline-start:.3em}"
        }
        let headingID = ids.next("notes")
        var html: HTML = "<section class=\"folio-notes\" role=\"doc-endnotes\" aria-labelledby=\"\(headingID)\">"
        html += heading(level: headings.hasTitle ? 2 : 1, attributes: " id=\"\(headingID)\"", "\(strings[.footnotes])")
        html += "<ol>"
        for (id, number) in footnoteNumbers.sorted(by: { $0.value < $1.value }) {
            guard let note = document.footnotes[id] else { continue }
            html += "<li id=\"\(anchorID("footnote-\(number)"))\"\(languageAttribute(note.plainText))>\(inline(note))"
            html += "<a href=\"#\(anchorID("footnote-ref-\(number)"))\" role=\"doc-backlink\">\u{21A9}\u{FE0E}</a></li>"
        }
        return html + "</ol></section>\n"
    }

    /// `block` at `path` as HTML: its kind's writer, or a page break.
    mutating func html(for block: Block, path: String) throws -> HTML {
        guard let writable = block.htmlWritten else { return "<div class=\"folio-page-break\"></div>" }
        let html = try writable.html(in: &self, path: path)
        guard writable.keepsTogether else { return html }
        // `keepTogether`: printed from the browser, the block is not split between pages either.
        style.add("keep") { r in "\(r) .folio-keep{break-inside:avoid}" }
        return "<div class=\"folio-keep\">\(html)</div>"
    }

    /// ` lang="…"` on an element whose text is in another language than the report's: the author's
    /// `language`, else the one its script leaves no doubt about (`PassageLanguage`); else nothing.
    /// With `setsDirection`, also ` dir="…"` where that language runs the other way than the report
    /// (the PDF's rule, `TextDirection.ofPassage`): other elements run the report's way, whatever
    /// letter they start with.
    func languageAttribute(_ text: String, language: String? = nil, setsDirection: Bool = true) -> HTML {
        guard let found = language ?? PassageLanguage.of(text, documentLanguage: strings.language) else { return "" }
        guard setsDirection, TextDirection.of(language: found) != documentDirection else { return " lang=\"\(found)\"" }
        return " lang=\"\(found)\"" + directionAttribute(TextDirection.of(language: found))
    }

    /// The report's direction.
    var documentDirection: TextDirection { strings.isRightToLeft ? .rightToLeft : .leftToRight }

    /// The direction `text` runs: its language's where its script leaves no doubt, else the report's.
    func direction(of text: String) -> TextDirection {
        TextDirection.ofPassage(text, documentLanguage: strings.language, documentRightToLeft: strings.isRightToLeft)
    }

    /// ` dir="rtl"` or ` dir="ltr"`.
    func directionAttribute(_ direction: TextDirection) -> HTML {
        direction == .rightToLeft ? " dir=\"rtl\"" : " dir=\"ltr\""
    }

    /// Plain `text` (a title, a heading) set in the report's language, as the PDF sets it (`Typography`).
    func typeset(_ text: String) -> String {
        Typography.set([TextRun(text)], language: strings.language).map(\.text).joined()
    }

    /// `text` escaped, with each run of numbers joined by hyphens or dashes (a date such as
    /// 2026-11-01, a range 6.1–7.8) in a `folio-nowrap` span: browsers break lines after a hyphen
    /// between digits, so a narrow cell showed "2026-" over "11-01". Pango does not: the PDF agrees.
    static func keepingNumbersWhole(_ text: String) -> HTML {
        // Most text has no hyphen or dash (U+2010–U+2013 start with 0xE2): escaped as it is.
        guard text.utf8.contains(where: { $0 == 0x2D || $0 == 0xE2 }) else { return HTML(text: text) }
        let scalars = Array(text.unicodeScalars)
        func isDigit(_ index: Int) -> Bool { index >= 0 && index < scalars.count && ("0"..."9").contains(scalars[index]) }
        func isJoiner(_ index: Int) -> Bool { ["-", "\u{2010}", "\u{2011}", "\u{2013}"].contains(scalars[index]) }
        var html = HTML()
        var plainStart = 0
        var index = 0
        while index < scalars.count {
            guard isDigit(index), !isDigit(index - 1) else {
                index += 1
                continue
            }
            // A number, then joiner-number pairs (decimal points and commas inside numbers too).
            var end = index
            var joined = false
            while true {
                while isDigit(end)
                    || (end + 1 < scalars.count && [".", ","].contains(scalars[end]) && isDigit(end + 1) && isDigit(end - 1))
                {
                    end += 1
                }
                guard end + 1 < scalars.count, isJoiner(end), isDigit(end + 1) else { break }
                joined = true
                end += 1
            }
            if joined {
                html += HTML(text: String(String.UnicodeScalarView(scalars[plainStart..<index])))
                html += "<span class=\"folio-nowrap\">\(String(String.UnicodeScalarView(scalars[index..<end])))</span>"
                plainStart = end
            }
            index = end
        }
        if plainStart == 0 { return HTML(text: text) }
        html += HTML(text: String(String.UnicodeScalarView(scalars[plainStart...])))
        return html
    }

    /// Inline runs as `<strong>`, `<em>`, `<a>` and `<br>`; every character escaped.
    func inline(_ text: RichText) -> HTML { inline(runs: text.runs) }

    /// A table cell's text with its inline markup, as in a paragraph (quotes left as written: cells hold data).
    func cell(_ text: String) -> HTML { inline(runs: RichText.cellRuns(text), quotes: false) }

    /// Runs as `<strong>`, `<em>`, `<span lang>`, `<a>` and `<br>`, set in the report's language (`Typography`: a number
    /// kept with its unit, typographic quotes unless `quotes` is false); every character escaped.
    func inline(runs: [TextRun], quotes: Bool = true) -> HTML {
        var html = HTML()
        for run in Typography.set(runs, language: strings.language, quotes: quotes) {
            if let id = run.footnote, let number = footnoteNumbers[id] {
                // A citation: the note's number, raised, a link to the note at the end (DPUB-ARIA's noteref).
                let count = citations.next(number)
                let reference = anchorID("footnote-ref-\(number)" + (count > 1 ? "-\(count)" : ""))
                html +=
                    "<sup class=\"folio-noteref\"><a id=\"\(reference)\" href=\"#\(anchorID("footnote-\(number)"))\" role=\"doc-noteref\">\(number)</a></sup>"
                continue
            }
            var piece = HTMLBodyWriter.keepingNumbersWhole(run.text).lineBreaks()
            if run.italic { piece = "<em>\(piece)</em>" }
            if run.bold { piece = "<strong>\(piece)</strong>" }
            // The tag was checked as BCP 47 when parsed (letters, digits and hyphens only).
            if let language = run.language { piece = "<span lang=\"\(language)\">\(piece)</span>" }
            if let link = run.link {
                if let anchor = link.anchor {
                    piece = "<a href=\"#\(anchorID(anchor))\">\(piece)</a>"
                } else {
                    piece = "<a href=\"\(url: link)\" rel=\"noopener noreferrer\">\(piece)</a>"
                }
            }
            html += piece
        }
        return html
    }

    /// The element id of an author's anchor, under this report's prefix so reports on one page never collide.
    func anchorID(_ anchor: String) -> String {
        ids.prefix + "-"
            + String(anchor.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" ? Character($0) : "_" })
    }

    /// The anchor of the heading block at `path`: its own `id`, else the one a table of contents links to.
    func headingAnchor(_ id: String?, path: String) -> String? { id ?? contentsAnchors[path] }

    func anchorAttribute(_ anchor: String?) -> HTML {
        anchor.map { " id=\"\(anchorID($0))\"" } ?? ""
    }

    /// A sparkline as a small inline SVG before its cell's words (which say its last value and range):
    /// hidden from screen readers, the words are what they read.
    mutating func sparklineSVG(_ values: [Double?], color: Color? = nil) -> HTML {
        style.add("folio-spark") { r in
            "\(r) svg.folio-spark{display:inline-block;vertical-align:middle;width:2.7em;height:1em;max-width:none;margin-inline-end:.35em}"
        }
        // Drawn through the one Canvas, as in the PDF.
        let canvas = SVGCanvas(idPrefix: "spark")
        Sparkline.draw(values, in: Rect(x: 1, y: 2, width: Sparkline.width - 8, height: 10), color: color ?? theme.accent, on: canvas)
        let width = Sparkline.width - 6
        return "<svg class=\"folio-spark\" aria-hidden=\"true\" focusable=\"false\" width=\"\(number: width)\" height=\"14\""
            + " viewBox=\"0 0 \(number: width) 14\">" + canvas.body + "</svg>"
    }

    /// The rule that colours cells and rows flagged in `style`, added once.
    private mutating func addHighlightRule(_ highlight: TableReport.HighlightStyle) {
        guard let colors = renderer.theme.highlights[highlight] else { return }
        let name = "folio-hl-\(highlight.rawValue)"
        let background: CSS = colors.background.map { "background:\($0);" } ?? ""
        style.add(name) { r in
            // A flagged cell's own colours win over its row's (more specific: tr td[…] over .row td).
            "\(r) .\(identifier: name) td,\(r) .\(identifier: name) th,\(r) tr td[data-highlight=\(identifier: highlight.rawValue)]{\(background)color:\(colors.text)}"
        }
    }

    /// The rules of group header, subtotal and total rows, added once.
    private mutating func addRowKindRules() {
        style.add("folio-row-kinds") { r in
            """
            \(r) .folio-group th{background:var(--folio-tile);font-weight:700}
            \(r) .folio-group-1 th{padding-inline-start:1.2em}\(r) .folio-group-2 th{padding-inline-start:1.9em}\(r) .folio-group-3 th,\(r) .folio-group-4 th{padding-inline-start:2.6em}
            \(r) .folio-subtotal th,\(r) .folio-subtotal td,\(r) .folio-total th,\(r) .folio-total td{font-weight:700;border-top:1px solid var(--folio-muted)}
            \(r) .folio-total th,\(r) .folio-total td{border-top-width:2px}
            """
        }
    }

    /// A table: caption, column widths (classes added to `style`), header cells with their scope, rows;
    /// in a focusable wrapper that scrolls sideways on narrow screens.
    mutating func tableHTML(_ table: Table, regionName: String? = nil) throws -> HTML {
        func cellClass(_ column: Int) -> HTML {
            switch table.alignment(ofColumn: column) {
            case .left: return ""
            case .center: return " class=\"folio-center\""
            case .right: return " class=\"folio-right\""
            }
        }
        let columns = table.columnCount
        let lookup = table.cellLookup
        func cellAttributes(_ slot: Table.Slot) -> HTML {
            cellClass(slot.column) + (slot.span > 1 ? " colspan=\"\(slot.span)\"" : "")
                + languageAttribute(slot.text, language: slot.language)
        }
        // The wrapper scrolls a wide table sideways; keyboard users reach it by Tab (WCAG 2.1.1), and
        // screen readers announce it as a region named by the caption.
        let name = uniqueRegionName(regionName ?? table.caption ?? strings[.table])
        var html: HTML = "<div class=\"folio-table-wrap\" role=\"region\" tabindex=\"0\" aria-label=\"\(name)\">"
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
                    style.add("folio-col-\(clamped)") { r in "\(r) .folio-col-\(clamped){width:\(clamped)%}" }
                    html += "<col class=\"folio-col-\(clamped)\">"
                } else {
                    html += "<col>"
                }
            }
            html += "</colgroup>"
        }
        if let header = table.header {
            html += "<thead><tr>"
            for slot in Table.slots(header, row: -1, columns: columns, lookup: lookup) {
                html += "<th scope=\"col\"\(cellAttributes(slot))>\(cell(slot.text))</th>"
            }
            html += "</tr></thead>"
        }
        let highlights = Dictionary(grouping: table.highlights, by: \.row)
        let sparkNumbers = NumberFormat(strings)
        // In one order whatever the process (a Set's order is not): equal documents give equal bytes.
        for style in Set(table.highlights.map(\.style)).sorted(by: { $0.rawValue < $1.rawValue }) { addHighlightRule(style) }
        if !table.rowKinds.isEmpty { addRowKindRules() }
        // A group's header row opens a row group (its th heads it); the total rows are the foot.
        var inFoot = false
        html += "<tbody>"
        for (index, row) in table.rows.enumerated() {
            if index & 255 == 255 { try RenderDeadline.check() }
            let kind = table.kind(ofRow: index)
            let flags = highlights[index] ?? []
            switch kind.role {
            case .group where index > 0: html += "</tbody><tbody>"
            case .total where !inFoot:
                html += "</tbody><tfoot>"
                inFoot = true
            default: break
            }
            var rowClasses: [String] = []
            switch kind.role {
            case .data: break
            case .group: rowClasses.append("folio-group folio-group-\(min(kind.level, 4))")
            case .subtotal: rowClasses.append("folio-subtotal")
            case .total: rowClasses.append("folio-total")
            }
            if let style = flags.last(where: { $0.cell == nil })?.style { rowClasses.append("folio-hl-\(style.rawValue)") }
            html += rowClasses.isEmpty ? "<tr>" : "<tr class=\"\(rowClasses.joined(separator: " "))\">"
            for (position, slot) in Sparkline.worded(Table.slots(row, row: index, columns: columns, lookup: lookup), numbers: sparkNumbers)
                .enumerated()
            {
                var attributes = cellAttributes(slot)
                if let style = flags.last(where: { $0.cell == position })?.style {
                    attributes = HTML(" data-highlight=\"\(style.rawValue)\"") + attributes
                }
                if kind.role != .data, position == 0 {
                    let scope = kind.role == .group ? "rowgroup" : "row"
                    html += "<th scope=\"\(scope)\"\(attributes)>\(cell(slot.text))</th>"
                } else if let values = slot.sparkline {
                    html += "<td\(attributes)>\(sparklineSVG(values))\(cell(slot.text))</td>"
                } else {
                    html += "<td\(attributes)>\(cell(slot.text))</td>"
                }
            }
            html += "</tr>"
        }
        return html + (inFoot ? "</tfoot>" : "</tbody>") + "</table></div>"
    }
}
