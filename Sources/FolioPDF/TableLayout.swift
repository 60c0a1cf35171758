import CCairoPango
import FolioGraphics
import FolioModel

/// Column widths and row heights of a table, computed once in one pass over the
/// rows; cell layouts are made only for the rows a page draws, so memory stays
/// at a page's worth of text however long the table is.
final class TableLayout {
    let table: Table
    let columnWidths: [Double]
    let header: [TextLayout]?
    let headerHeight: Double
    /// `rowOffsets[i]` is the height of rows `0..<i`, so any range's height is one subtraction.
    let rowOffsets: [Double]
    let caption: TextLayout?
    let continuedCaption: TextLayout?
    let theme: Theme
    /// Number of columns, counted once.
    let columns: Int
    private let text: PangoTextEngine
    private let font: FontSpec

    static let paddingX = 5.0
    static let paddingY = 4.0
    /// Rows whose content sets the natural column widths; later rows wrap to them.
    static let sampleRows = 500

    init(table: Table, width: Double, text: PangoTextEngine, theme: Theme) {
        self.table = table
        self.theme = theme
        self.text = text
        font = theme.font(theme.bodySize - 0.5)
        let bold = font.with(bold: true)
        let columns = table.columnCount
        self.columns = columns

        // Natural widths from the header and the first rows, then the explicit widths.
        var natural = Array(repeating: 0.0, count: columns)
        let measure = TableLayout.singleLineWidths(text: text)
        let headerRow: [String] = table.header.map { Table.padded($0, to: columns) } ?? []
        for (c, cell) in headerRow.enumerated() {
            natural[c] = max(natural[c], measure(cell, bold) + 2 * TableLayout.paddingX)
        }
        for row in table.rows.prefix(TableLayout.sampleRows) {
            for (c, cell) in Table.padded(row, to: columns).enumerated() {
                natural[c] = max(natural[c], measure(cell, font) + 2 * TableLayout.paddingX)
            }
        }
        let widths = TableLayout.distribute(natural: natural, explicit: table.widths ?? [], width: width)
        columnWidths = widths

        func cellLayout(_ string: String, font: FontSpec, column: Int) -> TextLayout {
            text.paragraph([TextRun(string)], font: font, width: widths[column] - 2 * TableLayout.paddingX,
                           alignment: table.alignment(ofColumn: column), lineSpacing: 1)
        }
        let headerCells = table.header.map { Table.padded($0, to: columns).enumerated().map { cellLayout($1, font: bold, column: $0) } }
        header = headerCells
        headerHeight = headerCells.map { ($0.map { $0.metrics.height }.max() ?? 0) + 2 * TableLayout.paddingY } ?? 0

        // Row heights, with a reusable layout per column; short single-line cells skip shaping.
        let lineHeight = text.measure("Ag", font: font).height
        let bodyFont = font
        let measurers = (0..<columns).map { cellLayout("", font: bodyFont, column: $0) }
        var offsets = [0.0]
        offsets.reserveCapacity(table.rows.count + 1)
        for row in table.rows {
            var tallest = lineHeight
            for (c, cell) in Table.padded(row, to: columns).enumerated() where !cell.isEmpty {
                let room = widths[c] - 2 * TableLayout.paddingX
                if !cell.contains("\n"), Double(cell.unicodeScalars.count) * bodyFont.size * 1.05 <= room { continue }
                pango_layout_set_text(measurers[c].pointer, cell, -1)
                measurers[c].invalidateMetrics()
                tallest = max(tallest, measurers[c].metrics.height)
            }
            offsets.append((offsets.last ?? 0) + tallest + 2 * TableLayout.paddingY)
        }
        rowOffsets = offsets
        let captionFont = theme.font(theme.smallSize + 1, italic: true)
        caption = table.caption.map { text.paragraph([TextRun($0)], font: captionFont, width: width) }
        continuedCaption = table.continuedCaption.map { text.paragraph([TextRun($0)], font: captionFont, width: width) }
    }

    /// Measures one unwrapped line, reusing one layout per font.
    private static func singleLineWidths(text: PangoTextEngine) -> (String, FontSpec) -> Double {
        var layouts: [FontSpec: TextLayout] = [:]
        return { string, font in
            guard !string.isEmpty else { return 0 }
            let layout = layouts[font] ?? text.singleLine("", font: font)
            layouts[font] = layout
            pango_layout_set_text(layout.pointer, string, -1)
            layout.invalidateMetrics()
            return layout.metrics.width
        }
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
            case .auto: open.append(c); continue
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

    func captionHeight(_ layout: TextLayout?) -> Double { layout.map { $0.metrics.height + 4 } ?? 0 }

    func height(rows range: Range<Int>) -> Double { rowOffsets[range.upperBound] - rowOffsets[range.lowerBound] }

    /// Fresh layouts for the cells of row `index`, made when a page draws it.
    func cells(ofRow index: Int) -> [TextLayout] {
        Table.padded(table.rows[index], to: columns).enumerated().map { c, cell in
            text.paragraph([TextRun(cell)], font: font, width: columnWidths[c] - 2 * TableLayout.paddingX,
                           alignment: table.alignment(ofColumn: c), lineSpacing: 1)
        }
    }
}
