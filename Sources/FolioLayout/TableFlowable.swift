import FolioGraphics
import FolioModel

/// Rows `range` of a table with its header row repeated on every page. A row
/// taller than a page is cut between lines: `firstRowStart` and `lastRowEnd`
/// hold, per cell, where the visible part of a cut row begins and ends.
final class TableFlowable: Flowable {
    let layout: TableLayout
    let range: Range<Int>
    /// The first part of the table shows the caption; later parts the "continued" caption.
    let isFirstPart: Bool
    let firstRowStart: [Double]?
    let lastRowEnd: [Double]?

    init(layout: TableLayout, range: Range<Int>, isFirstPart: Bool, firstRowStart: [Double]? = nil, lastRowEnd: [Double]? = nil) {
        self.layout = layout
        self.range = range
        self.isFirstPart = isFirstPart
        self.firstRowStart = firstRowStart
        self.lastRowEnd = lastRowEnd
    }

    private var captionLayout: ShapedText? { isFirstPart ? layout.caption : layout.continuedCaption }
    private var fixedHeight: Double { layout.captionHeight(captionLayout) + layout.headerHeight }
    private let padding = 2 * TableLayout.paddingY

    /// Height of data row `index` as this part shows it.
    private func rowHeight(_ index: Int) -> Double {
        let full = layout.height(rows: index..<index + 1)
        let start = index == range.lowerBound ? firstRowStart : nil
        let end = index == range.upperBound - 1 ? lastRowEnd : nil
        guard start != nil || end != nil else { return full }
        let cells = layout.cells(ofRow: index)
        let spans = cells.indices.map { c -> Double in
            let from = start?[c] ?? 0
            let to = end?[c] ?? cells[c].metrics.height
            return max(to - from, 0)
        }
        return (spans.max() ?? 0) + padding
    }

    private var rowsHeight: Double {
        guard !range.isEmpty else { return 0 }
        if firstRowStart == nil && lastRowEnd == nil { return layout.height(rows: range) }
        let inner = range.count > 2 ? layout.height(rows: range.lowerBound + 1..<range.upperBound - 1) : 0
        return rowHeight(range.lowerBound) + (range.count > 1 ? rowHeight(range.upperBound - 1) : 0) + inner
    }

    var height: Double { fixedHeight + rowsHeight }

    var retainedBytes: Int { 4096 + 8 * layout.rowOffsets.count }

    var minimumHeadHeight: Double { fixedHeight + (range.isEmpty ? 0 : rowHeight(range.lowerBound)) }

    func split(available: Double) -> (head: Flowable, tail: Flowable)? {
        guard firstRowStart == nil else { return splitWithin(available: available) }
        let room = available - fixedHeight
        // Largest end with rows lowerBound..<end fitting, by binary search on the prefix sums.
        var low = range.lowerBound
        var high = range.upperBound
        while low < high {
            let mid = (low + high + 1) / 2
            if layout.height(rows: range.lowerBound..<mid) <= room { low = mid } else { high = mid - 1 }
        }
        guard low > range.lowerBound, low < range.upperBound else { return nil }
        return (
            TableFlowable(layout: layout, range: range.lowerBound..<low, isFirstPart: isFirstPart),
            TableFlowable(layout: layout, range: low..<range.upperBound, isFirstPart: false)
        )
    }

    /// When even the first row cannot fit a whole page: cut it between lines.
    func forceSplit(available: Double) -> (head: Flowable, tail: Flowable)? {
        splitWithin(available: available)
    }

    private func splitWithin(available: Double) -> (head: Flowable, tail: Flowable)? {
        guard !range.isEmpty else { return nil }
        let first = range.lowerBound
        let room = available - fixedHeight - padding
        let firstHeight = rowHeight(first)
        if firstHeight - padding <= room {
            // The rest of the cut row fits: keep it and as many whole rows as fit after it.
            guard range.count > 1 else { return nil }
            var end = first + 1
            while end < range.upperBound, firstHeight + layout.height(rows: first + 1..<end + 1) <= room + padding { end += 1 }
            guard end < range.upperBound else { return nil }
            return (
                TableFlowable(layout: layout, range: first..<end, isFirstPart: isFirstPart, firstRowStart: firstRowStart),
                TableFlowable(layout: layout, range: end..<range.upperBound, isFirstPart: false)
            )
        }
        let cells = layout.cells(ofRow: first)
        var cuts: [Double] = []
        var progress = false
        for (c, cell) in cells.enumerated() {
            let start = firstRowStart?[c] ?? 0
            var cut = start
            for line in cell.lineExtents where line.y >= start - 0.01 {
                if line.maxY - start <= room { cut = line.maxY } else { break }
            }
            if cut > start { progress = true }
            cuts.append(cut)
        }
        guard progress else { return nil }
        return (
            TableFlowable(
                layout: layout, range: first..<first + 1, isFirstPart: isFirstPart, firstRowStart: firstRowStart,
                lastRowEnd: cuts),
            TableFlowable(layout: layout, range: first..<range.upperBound, isFirstPart: false, firstRowStart: cuts)
        )
    }

    func draw(on canvas: PageCanvas, at origin: Point) {
        let theme = layout.theme
        let width = layout.columnWidths.reduce(0, +)
        var y = origin.y
        canvas.table(continues: !isFirstPart) {
            // The caption is the table's first child; "(continued)" on a later page is a pagination
            // artifact, like the repeated header.
            if let caption = captionLayout {
                canvas.tagged(isFirstPart ? .caption : nil) { canvas.draw(caption, at: Point(origin.x, y), color: theme.muted) }
                y += layout.captionHeight(caption)
            }
            if let header = layout.header {
                canvas.rect(Rect(x: origin.x, y: y, width: width, height: layout.headerHeight), color: theme.tableHeaderBackground)
                // A header repeated on a later page is a pagination artifact: the table's structure
                // has its header row once.
                canvas.tagged(isFirstPart ? .tableRow : nil) {
                    drawRow(
                        header, slots: layout.headerSlots, tag: isFirstPart ? .headerCell : nil, on: canvas, x: origin.x, y: y,
                        starts: nil, ends: nil)
                }
                y += layout.headerHeight
                canvas.line(from: Point(origin.x, y), to: Point(origin.x + width, y), style: StrokeStyle(color: theme.axis, width: 0.8))
            }
            for index in range {
                let height = rowHeight(index)
                if layout.table.zebra, index % 2 == 1 {
                    canvas.rect(Rect(x: origin.x, y: y, width: width, height: height), color: theme.zebraBackground)
                }
                let starts = index == range.lowerBound ? firstRowStart : nil
                let ends = index == range.upperBound - 1 ? lastRowEnd : nil
                canvas.tagged(.tableRow) {
                    drawRow(
                        layout.cells(ofRow: index), slots: layout.slots(ofRow: index), tag: .dataCell, on: canvas, x: origin.x, y: y,
                        starts: starts, ends: ends)
                }
                y += height
                canvas.line(from: Point(origin.x, y), to: Point(origin.x + width, y), style: StrokeStyle(color: theme.rule, width: 0.4))
            }
        }
    }

    private func drawRow(
        _ cells: [ShapedText], slots: [Table.Slot], tag: StructureTag?, on canvas: PageCanvas, x: Double, y: Double,
        starts: [Double]?, ends: [Double]?
    ) {
        for (c, (cell, slot)) in zip(cells, slots).enumerated() {
            let cellX = x + layout.start(of: slot)
            let point = Point(cellX + TableLayout.paddingX, y + TableLayout.paddingY)
            // A cell in another script than the document's names its language (a screen reader's voice).
            let language = tag == nil ? nil : slot.language ?? PassageLanguage.of(slot.text, documentLanguage: layout.language)
            canvas.tableCell(tag, columnSpan: slot.span, language: language) {
                if starts == nil && ends == nil {
                    canvas.draw(cell, at: point, color: layout.theme.text)
                } else {
                    let from = starts?[c] ?? 0
                    let to = ends?[c] ?? cell.metrics.height
                    canvas.clipped(to: Rect(x: cellX, y: point.y, width: layout.width(of: slot), height: max(to - from, 0))) {
                        canvas.draw(cell, at: Point(point.x, point.y - from), color: layout.theme.text, visible: from...to)
                    }
                }
            }
        }
    }
}
