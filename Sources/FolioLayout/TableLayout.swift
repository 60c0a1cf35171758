import FolioCharts
import FolioGraphics
import FolioModel

/// Column widths and row heights of a table, computed once in one pass over the
/// rows; cell layouts are made only for the rows a page draws, so memory stays
/// at a page's worth of text however long the table is.
final class TableLayout {
    let table: Table
    let columnWidths: [Double]
    let header: [ShapedText]?
    let headerHeight: Double
    /// `rowOffsets[i]` is the height of rows `0..<i`, so any range's height is one subtraction.
    let rowOffsets: [Double]
    let caption: ShapedText?
    let continuedCaption: ShapedText?
    /// Columns run from the right (right-to-left languages).
    let rightToLeft: Bool
    let theme: Theme
    /// Number of columns, counted once.
    let columns: Int
    /// Cells wider than one column and cells in a language of their own, by row (-1 for the header) and cell index.
    let cells: Table.CellLookup
    /// `columnStarts[c]` is the x of column `c` from the table's left edge; one more entry for the right edge.
    let columnStarts: [Double]
    let headerSlots: [Table.Slot]
    private let text: TextShaper
    private let font: FontSpec
    private let boldFont: FontSpec
    /// The highlights of each flagged row (few rows have any).
    private let highlightsByRow: [Int: [Table.CellHighlight]]
    /// The rows of each group level's headers and subtotals, in order; the first total row.
    private let groupRows: [[Int]]
    private let subtotalRows: [[Int]]
    let firstTotalRow: Int?

    static let paddingX = 5.0
    /// Room a column keeps past its text's measured width: given exactly that width, the shaper's
    /// rounding would break the text ("Minimum" as "Minimu-m").
    static let roundingSlack = 0.5
    static let paddingY = 4.0
    /// Rows whose content sets the natural column widths; later rows wrap to them.
    static let sampleRows = 500

    /// The document's language (primary subtag), which cells are set in.
    let language: String
    /// The language's "continued".
    let continuedWord: String

    /// A cell's runs as drawn: its markup read, a number kept with its unit (`Typography`; quotes
    /// are left as written, as cells hold data).
    private func cellRuns(_ cell: String) -> [TextRun] { TableLayout.cellRuns(cell, language: language, footnotes: footnotes) }

    private static func cellRuns(_ cell: String, language: String, footnotes: FootnoteMarks) -> [TextRun] {
        Typography.set(footnotes.resolved(RichText.cellRuns(cell)), language: language, quotes: false)
    }

    /// How footnote citations in cells are drawn.
    let footnotes: FootnoteMarks
    /// The notes each row's cells cite (-1: the header), for the rows that cite any.
    let rowFootnotes: [Int: [Int]]

    init(
        table: Table, width: Double, text: TextShaper, theme: Theme, strings: BuiltInStrings,
        footnotes: FootnoteMarks = FootnoteMarks(numbers: [:])
    ) throws {
        self.footnotes = footnotes
        rowFootnotes = TableLayout.footnotesByRow(of: table, footnotes: footnotes)
        rightToLeft = strings.isRightToLeft
        language = strings.language
        continuedWord = strings[.continued]
        self.table = table
        self.theme = theme
        self.text = text
        font = theme.font(theme.bodySize - 0.5)
        let bold = font.with(bold: true)
        boldFont = bold
        highlightsByRow = Dictionary(grouping: table.highlights, by: \.row)
        (groupRows, subtotalRows, firstTotalRow) = TableLayout.groupedRows(of: table)
        let columns = table.columnCount
        self.columns = columns
        let lookup = table.cellLookup
        self.cells = lookup
        let numbers = NumberFormat(strings)
        self.numbers = numbers
        let slots = { (cells: [String], row: Int) -> [Table.Slot] in
            Sparkline.worded(Table.slots(cells, row: row, columns: columns, lookup: lookup), numbers: numbers)
        }
        let headerSlots = table.header.map { slots($0, -1) } ?? []
        self.headerSlots = headerSlots
        let widths = TableLayout.columnWidths(
            of: table, headerSlots: headerSlots, slots: slots, width: width, text: text, font: font, bold: bold)
        columnWidths = widths
        let starts = widths.reduce(into: [0.0]) { $0.append(($0.last ?? 0) + $1) }
        columnStarts = starts

        func cellLayout(_ slot: Table.Slot, font: FontSpec) -> ShapedText {
            // A cell's inline markup as in a paragraph; its links in the accent colour.
            text.paragraph(
                TableLayout.cellRuns(slot.text, language: strings.language, footnotes: footnotes), font: font,
                width: starts[slot.column + slot.span] - starts[slot.column] - 2 * TableLayout.paddingX,
                alignment: table.alignment(ofColumn: slot.column).paragraphAlignment, linkColor: theme.accent, lineSpacing: 1,
                direction: TableLayout.direction(of: slot, documentLanguage: strings.language, rightToLeft: strings.isRightToLeft))
        }
        let headerCells = table.header == nil ? nil : headerSlots.map { cellLayout($0, font: bold) }
        header = headerCells
        headerHeight = headerCells.map { ($0.map { $0.metrics.height }.max() ?? 0) + 2 * TableLayout.paddingY } ?? 0
        rowOffsets = try TableLayout.rowOffsets(
            of: table, starts: starts, slots: slots, text: text, font: font, bold: bold, language: strings.language,
            rightToLeft: strings.isRightToLeft, footnotes: footnotes)
        let captionFont = theme.font(theme.smallSize + 1, italic: true)
        caption = table.caption.map {
            text.paragraph([TextRun($0)], font: captionFont, width: width, direction: TableLayout.direction(of: $0, strings: strings))
        }
        // Later parts say they continue: the author's words, else the caption and the language's "continued".
        let continued = table.continuedCaption ?? table.caption.map { TableLayout.continuedCaption(of: $0, saying: strings[.continued]) }
        continuedCaption = continued.map {
            text.paragraph([TextRun($0)], font: captionFont, width: width, direction: TableLayout.direction(of: $0, strings: strings))
        }
    }

    /// The notes each row's cells cite (-1: the header), for the rows that cite any.
    private static func footnotesByRow(of table: Table, footnotes: FootnoteMarks) -> [Int: [Int]] {
        guard !footnotes.numbers.isEmpty else { return [:] }
        var rowFootnotes: [Int: [Int]] = [:]
        for (row, cells) in ([table.header ?? []] + table.rows).enumerated() {
            let numbers = cells.filter { $0.contains("[^") }.flatMap { RichText($0).runs.compactMap(\.footnote) }
                .compactMap { footnotes.numbers[$0] }
            if !numbers.isEmpty { rowFootnotes[row - 1] = numbers }
        }
        return rowFootnotes
    }

    /// The rows of each group level's headers and of its subtotals, in order, and the first total row.
    private static func groupedRows(of table: Table) -> (groups: [[Int]], subtotals: [[Int]], firstTotal: Int?) {
        var groupRows: [[Int]] = []
        var subtotalRows: [[Int]] = []
        var firstTotalRow: Int?
        for (index, kind) in table.rowKinds.enumerated() {
            switch kind.role {
            case .data: continue
            case .group:
                while groupRows.count <= kind.level { groupRows.append([]) }
                groupRows[kind.level].append(index)
            case .subtotal:
                while subtotalRows.count <= kind.level { subtotalRows.append([]) }
                subtotalRows[kind.level].append(index)
            case .total: if firstTotalRow == nil { firstTotalRow = index }
            }
        }
        return (groupRows, subtotalRows, firstTotalRow)
    }

    /// The columns' widths in `width`: natural widths from the header and the first `sampleRows`
    /// rows (`slots` gives a row's cells), then the explicit widths, and no column narrower than
    /// its header's longest word.
    private static func columnWidths(
        of table: Table, headerSlots: [Table.Slot], slots: ([String], Int) -> [Table.Slot], width: Double, text: TextShaper,
        font: FontSpec, bold: FontSpec
    ) -> [Double] {
        let columns = table.columnCount
        var natural = Array(repeating: 0.0, count: columns)
        let measure = { (string: String, font: FontSpec) in string.isEmpty ? 0 : text.lineWidth(string, font: font) }
        for slot in headerSlots where slot.span == 1 {
            natural[slot.column] = max(natural[slot.column], measure(slot.text, bold) + 2 * paddingX + roundingSlack)
        }
        for (index, row) in table.rows.prefix(sampleRows).enumerated() {
            // Subtotals and totals are bold: measured so, their sums fit as the values above them do.
            let rowFont = table.kind(ofRow: index).role == .data ? font : bold
            for slot in slots(row, index) where slot.span == 1 {
                natural[slot.column] = max(natural[slot.column], measure(slot.text, rowFont) + 2 * paddingX + lead(slot) + roundingSlack)
            }
        }
        // A column is never narrower than its header's longest word (a browser's min-content): "Minimum"
        // is not broken into "Minimu-m" to give a wide neighbour room.
        var minimum = Array(repeating: 0.0, count: columns)
        for slot in headerSlots where slot.span == 1 {
            let words = RichText(slot.text).plainText.split(whereSeparator: \.isWhitespace)
            let longest = words.map { measure(String($0), bold) }.max() ?? 0
            minimum[slot.column] = longest + 2 * paddingX + roundingSlack
        }
        return keepingWords(
            distribute(natural: natural, explicit: table.widths ?? [], width: width), minimum: minimum, explicit: table.widths ?? [])
    }

    /// `rowOffsets`: each row's height measured in its columns (from `starts`) without keeping a
    /// layout, group headers, subtotals and totals in `bold`; short single-line cells skip shaping.
    private static func rowOffsets(
        of table: Table, starts: [Double], slots: ([String], Int) -> [Table.Slot], text: TextShaper, font: FontSpec, bold: FontSpec,
        language: String, rightToLeft: Bool, footnotes: FootnoteMarks
    ) throws -> [Double] {
        let lineHeight = text.measure("Ag", font: font).height
        var offsets = [0.0]
        offsets.reserveCapacity(table.rows.count + 1)
        for (index, row) in table.rows.enumerated() {
            if index & 255 == 255 { try RenderDeadline.check() }
            var tallest = lineHeight
            // Group headers, subtotals and totals are set in bold.
            let kind = table.kind(ofRow: index)
            let bodyFont = kind.role == .data ? font : bold
            for slot in slots(row, index) where !slot.text.isEmpty {
                let room = starts[slot.column + slot.span] - starts[slot.column] - 2 * paddingX - groupIndent(kind) - lead(slot)
                if !slot.text.contains("\n"), Double(widestCharacters(slot.text)) * bodyFont.size * 1.05 <= room { continue }
                let alignment = table.alignment(ofColumn: slot.column).paragraphAlignment
                if RichText.mayHoldMarkup(slot.text) {
                    // Bold runs are wider, markup characters are not drawn: measured as drawn.
                    let shaped = text.paragraph(
                        cellRuns(slot.text, language: language, footnotes: footnotes), font: bodyFont, width: room,
                        alignment: alignment, lineSpacing: 1,
                        direction: direction(of: slot, documentLanguage: language, rightToLeft: rightToLeft))
                    tallest = max(tallest, shaped.metrics.height)
                    continue
                }
                let height = text.wrappedHeight(
                    cellRuns(slot.text, language: language, footnotes: footnotes).first?.text ?? slot.text,
                    font: bodyFont, width: room, alignment: alignment, lineSpacing: 1)
                tallest = max(tallest, height)
            }
            offsets.append((offsets.last ?? 0) + tallest + 2 * paddingY)
        }
        return offsets
    }

    /// The default caption of a table's later parts: a reminder, not the caption again. A caption of
    /// more than five words is cut to its first five and "…", so the repeat (an artifact, which screen
    /// readers rightly skip: they read the caption once) is a label, never prose left unread.
    static func continuedCaption(of caption: String, saying continued: String) -> String {
        let words = caption.split(whereSeparator: \.isWhitespace)
        let reminder = words.count > 5 ? words.prefix(5).joined(separator: " ") + "…" : caption
        return "\(reminder) (\(continued))"
    }

    /// `widths` with the columns of automatic width at least `minimum` wide, the room taken from the
    /// automatic columns wider than their own minimum, in proportion to what they can spare. Where
    /// they cannot spare enough for all, the columns short by least are widened first (a table too
    /// wide for its page breaks the fewest words rather than overflow).
    static func keepingWords(_ widths: [Double], minimum: [Double], explicit: [Table.ColumnWidth]) -> [Double] {
        let automatic = widths.indices.filter { $0 >= explicit.count || explicit[$0] == .auto }
        let short = automatic.filter { minimum[$0] - widths[$0] > 0.01 }.sorted { minimum[$0] - widths[$0] < minimum[$1] - widths[$1] }
        let spare = automatic.reduce(0.0) { $0 + max(widths[$1] - minimum[$1], 0) }
        guard !short.isEmpty, spare > 0.01 else { return widths }
        var kept = widths
        var taken = 0.0
        for c in short where taken + minimum[c] - widths[c] <= spare {
            taken += minimum[c] - widths[c]
            kept[c] = minimum[c]
        }
        guard taken > 0 else { return widths }
        for c in automatic where widths[c] > minimum[c] { kept[c] = widths[c] - (widths[c] - minimum[c]) / spare * taken }
        return kept
    }

    /// Column widths that fill `width`: explicit points and percentages first, then the
    /// other columns share what is left by their natural widths.
    static func distribute(natural: [Double], explicit: [Table.ColumnWidth], width: Double) -> [Double] {
        var widths = Array(repeating: 0.0, count: natural.count)
        var open: [Int] = []
        var remaining = width
        for c in natural.indices {
            switch c < explicit.count ? explicit[c] : .auto {
            case .fixed(let length): widths[c] = min(length.points, remaining)
            case .percent(let value): widths[c] = min(width * value / 100, remaining)
            case .auto:
                open.append(c)
                continue
            }
            remaining -= widths[c]
        }
        guard !open.isEmpty else {
            // Only explicit widths: give any rest to the last column.
            if let last = widths.indices.last, remaining > 0 { widths[last] += remaining }
            return widths
        }
        let total = open.reduce(0) { $0 + natural[$1] }
        if total <= remaining {
            for c in open {
                widths[c] = total > 0 ? natural[c] + (remaining - total) * natural[c] / total : remaining / Double(open.count)
            }
            return widths
        }
        var unfixed = Set(open)
        while !unfixed.isEmpty {
            let share = remaining / Double(unfixed.count)
            let fitting = unfixed.filter { natural[$0] <= share }
            if fitting.isEmpty {
                let want = unfixed.reduce(0) { $0 + natural[$1] }
                for c in unfixed { widths[c] = remaining * natural[c] / want }
                break
            }
            for c in fitting {
                widths[c] = natural[c]
                remaining -= natural[c]
                unfixed.remove(c)
            }
        }
        return widths
    }

    func captionHeight(_ layout: ShapedText?) -> Double { layout.map { $0.metrics.height + 4 } ?? 0 }

    func height(rows range: Range<Int>) -> Double { rowOffsets[range.upperBound] - rowOffsets[range.lowerBound] }

    /// Where the cells of row `index` go.
    func slots(ofRow index: Int) -> [Table.Slot] {
        Sparkline.worded(Table.slots(table.rows[index], row: index, columns: columns, lookup: cells), numbers: numbers)
    }

    /// How many characters `text` can show at most: its scalars but the markup signs that are never
    /// drawn (`**High**` shows four), an upper bound that lets a short cell skip shaping.
    static func widestCharacters(_ text: String) -> Int {
        var count = 0
        for byte in text.utf8 where byte & 0xC0 != 0x80 && byte != UInt8(ascii: "*") && byte != UInt8(ascii: "\\") { count += 1 }
        return count
    }

    /// Width of `slot` across its columns.
    /// Where `slot` starts from the table's left edge: columns run from the right in right-to-left languages.
    func start(of slot: Table.Slot) -> Double {
        guard rightToLeft else { return columnStarts[slot.column] }
        return (columnStarts.last ?? 0) - columnStarts[slot.column + slot.span]
    }

    func width(of slot: Table.Slot) -> Double { columnStarts[slot.column + slot.span] - columnStarts[slot.column] }

    /// The document's numbers, for a sparkline's words.
    private let numbers: NumberFormat

    /// How far a cell's text starts after its padding: past its sparkline, if it has one.
    static func lead(_ slot: Table.Slot) -> Double { slot.sparkline == nil ? 0 : Sparkline.width }

    /// How far a group header's text is indented: nested groups read as nested.
    static func groupIndent(_ kind: Table.RowKind) -> Double { kind.role == .group ? Double(min(kind.level, 4)) * 8 : 0 }

    /// The highlights of row `index`.
    func highlights(ofRow index: Int) -> [Table.CellHighlight] { highlightsByRow[index] ?? [] }

    /// The group header rows still open where a page's part begins at row `row`, outermost first:
    /// repeated there with "(continued)". A group is open from its header until its subtotal or the
    /// next header of its level or an outer one; nothing is open from the total rows on.
    func openGroups(at row: Int) -> [Int] {
        if let firstTotalRow, row >= firstTotalRow { return [] }
        var open: [Int] = []
        var after = -1
        for (level, headers) in groupRows.enumerated() {
            // The last header of this level before `row`, inside the group open one level out.
            guard let header = TableLayout.last(in: headers, before: row), header > after else { break }
            if level < subtotalRows.count, let subtotal = TableLayout.last(in: subtotalRows[level], before: row), subtotal > header {
                break
            }
            open.append(header)
            after = header
        }
        return open
    }

    /// The largest element of the increasing `rows` below `row`, by binary search.
    private static func last(in rows: [Int], before row: Int) -> Int? {
        var low = 0
        var high = rows.count
        while low < high {
            let mid = (low + high) / 2
            if rows[mid] < row { low = mid + 1 } else { high = mid }
        }
        return low > 0 ? rows[low - 1] : nil
    }

    /// The direction a cell is set in: its language's (given, or found by its script), else the
    /// document's, whatever letter it starts with (`TextDirection.ofPassage`).
    static func direction(of slot: Table.Slot, documentLanguage: String, rightToLeft: Bool) -> TextDirection {
        TextDirection.ofPassage(slot.text, language: slot.language, documentLanguage: documentLanguage, documentRightToLeft: rightToLeft)
    }

    /// The direction a caption is set in, likewise.
    private static func direction(of caption: String, strings: BuiltInStrings) -> TextDirection {
        TextDirection.ofPassage(caption, documentLanguage: strings.language, documentRightToLeft: strings.isRightToLeft)
    }

    /// The group header rows `rows` (outermost first) again on a later page, as one row saying they
    /// continue: "Medication: Metformin › Week of Nov 9, 2026 (continued)"; the last few made are kept.
    func continuedGroupCell(rows: [Int]) -> ShapedText {
        if let known = continuedGroups.first(where: { $0.rows == rows }) { return known.cell }
        var runs: [TextRun] = []
        for (index, row) in rows.enumerated() {
            if index > 0 { runs.append(TextRun(" › ")) }
            runs += cellRuns(slots(ofRow: row).first?.text ?? "")
        }
        let cell = text.paragraph(
            runs + [TextRun(" (\(continuedWord))")], font: boldFont, width: (columnStarts.last ?? 0) - 2 * TableLayout.paddingX,
            alignment: table.alignment(ofColumn: 0).paragraphAlignment, linkColor: theme.accent, lineSpacing: 1,
            direction: slots(ofRow: rows.last ?? 0).first.map {
                TableLayout.direction(of: $0, documentLanguage: language, rightToLeft: rightToLeft)
            })
        continuedGroups = Array((continuedGroups + [(rows, cell)]).suffix(8))
        return cell
    }

    private var continuedGroups: [(rows: [Int], cell: ShapedText)] = []

    /// The most recent row's cell layouts: a row taller than a page is split and drawn on
    /// many pages, and must be shaped once, not once per page.
    private var recentRow: (index: Int, cells: [ShapedText])?

    /// Layouts for the cells of row `index`, in slot order, made when a page draws it
    /// (only the most recent row's are kept).
    func cells(ofRow index: Int) -> [ShapedText] {
        if let recentRow, recentRow.index == index { return recentRow.cells }
        let kind = table.kind(ofRow: index)
        let rowFont = kind.role == .data ? font : boldFont
        let cells = slots(ofRow: index).map { slot in
            text.paragraph(
                cellRuns(slot.text), font: rowFont,
                width: width(of: slot) - 2 * TableLayout.paddingX - TableLayout.groupIndent(kind) - TableLayout.lead(slot),
                alignment: table.alignment(ofColumn: slot.column).paragraphAlignment, linkColor: theme.accent, lineSpacing: 1,
                direction: TableLayout.direction(of: slot, documentLanguage: language, rightToLeft: rightToLeft))
        }
        recentRow = (index, cells)
        return cells
    }
}
