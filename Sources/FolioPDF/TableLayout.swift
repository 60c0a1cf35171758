import CCairoPango
import FolioGraphics
import FolioModel

/// Column widths, cell layouts and row heights of a table, computed once and
/// shared by every page-sized piece of it.
final class TableLayout {
    let columnWidths: [Double]
    let header: [TextLayout]?
    let headerHeight: Double
    let rows: [[TextLayout]]
    /// `rowOffsets[i]` is the height of rows `0..<i`, so any range's height is one subtraction.
    let rowOffsets: [Double]
    let caption: TextLayout?
    let zebra: Bool
    let theme: Theme

    static let paddingX = 5.0
    static let paddingY = 4.0

    init(table: Table, width: Double, text: PangoTextEngine, theme: Theme) {
        self.theme = theme
        zebra = table.zebra
        let body = theme.font(theme.bodySize - 0.5)
        let bold = body.with(bold: true)
        func cell(_ string: String, font: FontSpec, column: Int) -> TextLayout {
            text.paragraph([TextRun(string)], font: font, width: 100_000,
                           alignment: table.alignment(ofColumn: column), lineSpacing: 1)
        }
        let headerCells = table.header.map { table.paddedRow($0).enumerated().map { cell($1, font: bold, column: $0) } }
        let rowCells = table.rows.map { table.paddedRow($0).enumerated().map { cell($1, font: body, column: $0) } }

        var natural = Array(repeating: 0.0, count: table.columnCount)
        for row in (headerCells.map { [$0] } ?? []) + rowCells {
            for (c, layout) in row.enumerated() {
                natural[c] = max(natural[c], layout.metrics.width + 2 * TableLayout.paddingX)
            }
        }
        columnWidths = TableLayout.distribute(natural: natural, width: width)
        for row in (headerCells.map { [$0] } ?? []) + rowCells {
            for (c, layout) in row.enumerated() {
                pango_layout_set_width(layout.pointer, Int32((columnWidths[c] - 2 * TableLayout.paddingX) * Double(PANGO_SCALE)))
                layout.invalidateMetrics()
            }
        }
        func rowHeight(_ row: [TextLayout]) -> Double {
            (row.map { $0.metrics.height }.max() ?? 0) + 2 * TableLayout.paddingY
        }
        header = headerCells
        headerHeight = headerCells.map(rowHeight) ?? 0
        rows = rowCells
        var offsets = [0.0]
        offsets.reserveCapacity(rowCells.count + 1)
        for row in rowCells { offsets.append((offsets.last ?? 0) + rowHeight(row)) }
        rowOffsets = offsets
        caption = table.caption.map {
            text.paragraph([TextRun($0)], font: theme.font(theme.smallSize + 1, italic: true), width: width)
        }
    }

    /// Fills `width`: columns that fit keep their natural share, wide ones share what is left.
    static func distribute(natural: [Double], width: Double) -> [Double] {
        let total = natural.reduce(0, +)
        guard total > 0 else { return natural.map { _ in width / Double(max(natural.count, 1)) } }
        if total <= width {
            return natural.map { $0 + (width - total) * $0 / total }
        }
        var widths = Array(repeating: 0.0, count: natural.count)
        var open = Set(natural.indices)
        var remaining = width
        while !open.isEmpty {
            let share = remaining / Double(open.count)
            let fitting = open.filter { natural[$0] <= share }
            if fitting.isEmpty {
                let want = open.reduce(0) { $0 + natural[$1] }
                for c in open { widths[c] = remaining * natural[c] / want }
                break
            }
            for c in fitting {
                widths[c] = natural[c]
                remaining -= natural[c]
                open.remove(c)
            }
        }
        return widths
    }

    var captionHeight: Double { caption.map { $0.metrics.height + 4 } ?? 0 }

    func height(rows range: Range<Int>) -> Double { rowOffsets[range.upperBound] - rowOffsets[range.lowerBound] }
}

/// The rows `range` of a table, with the header row repeated on every page.
final class TableFlowable: Flowable {
    let layout: TableLayout
    let range: Range<Int>
    let showsCaption: Bool

    init(layout: TableLayout, range: Range<Int>, showsCaption: Bool) {
        self.layout = layout; self.range = range; self.showsCaption = showsCaption
    }

    private var fixedHeight: Double { (showsCaption ? layout.captionHeight : 0) + layout.headerHeight }

    var height: Double { fixedHeight + layout.height(rows: range) }

    var minimumHeadHeight: Double { fixedHeight + layout.height(rows: range.lowerBound..<min(range.lowerBound + 1, range.upperBound)) }

    func split(available: Double) -> (head: Flowable, tail: Flowable)? {
        let room = available - fixedHeight
        // Largest end with rows lowerBound..<end fitting, by binary search on the prefix sums.
        var low = range.lowerBound, high = range.upperBound
        while low < high {
            let mid = (low + high + 1) / 2
            if layout.height(rows: range.lowerBound..<mid) <= room { low = mid } else { high = mid - 1 }
        }
        guard low > range.lowerBound, low < range.upperBound else { return nil }
        return (TableFlowable(layout: layout, range: range.lowerBound..<low, showsCaption: showsCaption),
                TableFlowable(layout: layout, range: low..<range.upperBound, showsCaption: false))
    }

    func draw(on canvas: CairoCanvas, at origin: Point) {
        let theme = layout.theme
        let width = layout.columnWidths.reduce(0, +)
        var y = origin.y
        if showsCaption, let caption = layout.caption {
            canvas.draw(layout: caption, at: Point(origin.x, y), color: theme.muted)
            y += layout.captionHeight
        }
        if let header = layout.header {
            canvas.rect(Rect(x: origin.x, y: y, width: width, height: layout.headerHeight), color: theme.tableHeaderBackground)
            drawRow(header, on: canvas, x: origin.x, y: y, color: theme.text)
            y += layout.headerHeight
            canvas.line(from: Point(origin.x, y), to: Point(origin.x + width, y), style: StrokeStyle(color: theme.axis, width: 0.8))
        }
        for index in range {
            let rowHeight = layout.height(rows: index..<index + 1)
            if layout.zebra, index % 2 == 1 {
                canvas.rect(Rect(x: origin.x, y: y, width: width, height: rowHeight), color: theme.zebraBackground)
            }
            drawRow(layout.rows[index], on: canvas, x: origin.x, y: y, color: theme.text)
            y += rowHeight
            canvas.line(from: Point(origin.x, y), to: Point(origin.x + width, y), style: StrokeStyle(color: theme.rule, width: 0.4))
        }
    }

    private func drawRow(_ cells: [TextLayout], on canvas: CairoCanvas, x: Double, y: Double, color: Color) {
        var cellX = x
        for (c, cell) in cells.enumerated() {
            canvas.draw(layout: cell, at: Point(cellX + TableLayout.paddingX, y + TableLayout.paddingY), color: color)
            cellX += layout.columnWidths[c]
        }
    }
}
