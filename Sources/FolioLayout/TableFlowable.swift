import FolioCharts
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

    /// The group header rows repeated over this part in one row, "(continued)": the groups open where it begins.
    let continuedGroups: [Int]
    private let continuedGroupsHeight: Double

    init(layout: TableLayout, range: Range<Int>, isFirstPart: Bool, firstRowStart: [Double]? = nil, lastRowEnd: [Double]? = nil) {
        self.layout = layout
        self.range = range
        self.isFirstPart = isFirstPart
        self.firstRowStart = firstRowStart
        self.lastRowEnd = lastRowEnd
        continuedGroups = isFirstPart || range.isEmpty ? [] : layout.openGroups(at: range.lowerBound)
        continuedGroupsHeight =
            continuedGroups.isEmpty ? 0 : layout.continuedGroupCell(rows: continuedGroups).metrics.height + 2 * TableLayout.paddingY
    }

    private var captionLayout: ShapedText? { isFirstPart ? layout.caption : layout.continuedCaption }
    private var fixedHeight: Double { layout.captionHeight(captionLayout) + layout.headerHeight + continuedGroupsHeight }
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

    /// The notes the rows of this part cite (and the header's, on the first part).
    var footnoteNumbers: [Int] {
        guard !layout.rowFootnotes.isEmpty else { return [] }
        let header = isFirstPart ? layout.rowFootnotes[-1] ?? [] : []
        return header + layout.rowFootnotes.filter { range.contains($0.key) }.sorted { $0.key < $1.key }.flatMap(\.value)
    }

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
        // A group's header stays with its first row: a part never ends on one.
        while low - 1 > range.lowerBound, layout.table.kind(ofRow: low - 1).role == .group { low -= 1 }
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
        // A note's link back lands on the part of the table that cites it.
        for number in footnoteNumbers { canvas.destination(FootnoteMarks.referenceAnchor(number), at: origin) }
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
                // has its header row once (a report table's in its THead).
                rowGroup(isFirstPart ? .tableHead : nil, on: canvas) {
                    canvas.tagged(isFirstPart ? .tableRow : nil) {
                        drawRow(
                            header, slots: layout.headerSlots, tag: isFirstPart ? .headerCell : nil, on: canvas, x: origin.x, y: y,
                            starts: nil, ends: nil)
                    }
                }
                y += layout.headerHeight
                canvas.line(from: Point(origin.x, y), to: Point(origin.x + width, y), style: StrokeStyle(color: theme.axis, width: 0.8))
            }
            // The groups this part continues, in one row, as an artifact (the structure has each header once).
            if !continuedGroups.isEmpty {
                let cell = layout.continuedGroupCell(rows: continuedGroups)
                let height = cell.metrics.height + 2 * TableLayout.paddingY
                canvas.rect(Rect(x: origin.x, y: y, width: width, height: height), color: theme.tileBackground)
                canvas.tagged(nil) {
                    canvas.draw(cell, at: Point(origin.x + TableLayout.paddingX, y + TableLayout.paddingY), color: theme.text)
                }
                y += height
                canvas.line(from: Point(origin.x, y), to: Point(origin.x + width, y), style: StrokeStyle(color: theme.rule, width: 0.4))
            }
            // Total rows are the table's foot (TFoot): a screen reader can go to them.
            let footStart = layout.firstTotalRow.map { min(max($0, range.lowerBound), range.upperBound) } ?? range.upperBound
            if footStart > range.lowerBound {
                rowGroup(.tableBody, on: canvas) {
                    drawRows(range.lowerBound..<footStart, on: canvas, origin: origin, width: width, y: &y)
                }
            }
            if footStart < range.upperBound {
                rowGroup(.tableFoot, on: canvas) { drawRows(footStart..<range.upperBound, on: canvas, origin: origin, width: width, y: &y) }
            }
        }
    }

    /// Runs `body` inside the row group `tag` (THead, TBody, TFoot) in a report table (one with groups
    /// or totals); a plain table's rows stand in the table itself, and so does a row group of nil.
    private func rowGroup(_ tag: StructureTag?, on canvas: PageCanvas, _ body: () -> Void) {
        guard let tag, !layout.table.rowKinds.isEmpty else { return body() }
        canvas.tagged(tag, body)
    }

    private func drawRows(_ rows: Range<Int>, on canvas: PageCanvas, origin: Point, width: Double, y: inout Double) {
        let theme = layout.theme
        for index in rows {
            let height = rowHeight(index)
            let kind = layout.table.kind(ofRow: index)
            switch kind.role {
            case .group: canvas.rect(Rect(x: origin.x, y: y, width: width, height: height), color: theme.tileBackground)
            case .data:
                if layout.table.zebra, index % 2 == 1 {
                    canvas.rect(Rect(x: origin.x, y: y, width: width, height: height), color: theme.zebraBackground)
                }
            case .subtotal, .total:
                canvas.line(
                    from: Point(origin.x, y), to: Point(origin.x + width, y),
                    style: StrokeStyle(color: theme.axis, width: kind.role == .total ? 1.2 : 0.8))
            }
            let highlights = layout.highlights(ofRow: index)
            let slots = layout.slots(ofRow: index)
            for highlight in highlights {
                guard let background = theme.highlights[highlight.style]?.background else { continue }
                if let cell = highlight.cell, cell < slots.count {
                    let slot = slots[cell]
                    canvas.rect(
                        Rect(x: origin.x + layout.start(of: slot), y: y, width: layout.width(of: slot), height: height), color: background)
                } else if highlight.cell == nil {
                    canvas.rect(Rect(x: origin.x, y: y, width: width, height: height), color: background)
                }
            }
            let starts = index == range.lowerBound ? firstRowStart : nil
            let ends = index == range.upperBound - 1 ? lastRowEnd : nil
            canvas.tagged(.tableRow) {
                drawRow(
                    layout.cells(ofRow: index), slots: slots, tag: .dataCell, on: canvas, x: origin.x, y: y,
                    starts: starts, ends: ends, kind: kind, highlights: highlights)
            }
            y += height
            canvas.line(from: Point(origin.x, y), to: Point(origin.x + width, y), style: StrokeStyle(color: theme.rule, width: 0.4))
        }
    }

    private func drawRow(
        _ cells: [ShapedText], slots: [Table.Slot], tag: StructureTag?, on canvas: PageCanvas, x: Double, y: Double,
        starts: [Double]?, ends: [Double]?, kind: Table.RowKind = .data, highlights: [Table.CellHighlight] = []
    ) {
        let rowStyle = highlights.last { $0.cell == nil }?.style
        for (c, (cell, slot)) in zip(cells, slots).enumerated() {
            let cellX = x + layout.start(of: slot)
            var point = Point(cellX + TableLayout.paddingX, y + TableLayout.paddingY)
            // A cell in another script than the document's names its language (a screen reader's voice).
            let language = tag == nil ? nil : slot.language ?? PassageLanguage.of(slot.text, documentLanguage: layout.language)
            // A group's header heads its rows; a subtotal's or total's label heads its row.
            let headsRow = tag != nil && kind.role != .data && c == 0
            point.x += TableLayout.groupIndent(kind)
            let style = highlights.last { $0.cell == c }?.style ?? rowStyle
            let color = style.flatMap { layout.theme.highlights[$0]?.text } ?? layout.theme.text
            if let values = slot.sparkline, starts == nil, ends == nil {
                // The line is decoration: the words beside it say its last value and range.
                let line = Rect(x: point.x, y: point.y + 1, width: Sparkline.width - 8, height: max(cell.metrics.height - 2, 8))
                canvas.tagged(nil) { Sparkline.draw(values, in: line, color: layout.theme.accent, on: canvas) }
            }
            point.x += TableLayout.lead(slot)
            // A group's header heads its row over all columns but the last, which is an empty data cell:
            // a row of a single header cell would read as one more column header row.
            let groupSplit = kind.role == .group && tag != nil && slot.span > 1
            defer { if groupSplit { canvas.tableCell(.dataCell, columnSpan: 1) {} } }
            canvas.tableCell(
                headsRow ? .headerCell : tag, columnSpan: slot.span - (groupSplit ? 1 : 0), language: language, headsRow: headsRow
            ) {
                if starts == nil && ends == nil {
                    canvas.draw(cell, at: point, color: color)
                } else {
                    let from = starts?[c] ?? 0
                    let to = ends?[c] ?? cell.metrics.height
                    canvas.clipped(to: Rect(x: cellX, y: point.y, width: layout.width(of: slot), height: max(to - from, 0))) {
                        canvas.draw(cell, at: Point(point.x, point.y - from), color: color, visible: from...to)
                    }
                }
            }
        }
    }
}
