import FolioGraphics
import FolioModel

/// A list laid out: each item's label (bullet or number) hanging beside its wrapped text, nested
/// lists indented under their item's text. It splits between any two lines, preferring the gap
/// between items; a piece on a later page continues the same `L` element (the PDF's finishing joins
/// them), and an item split there carries its label only where it starts.
final class ListFlowable: Flowable {
    /// One list: its items, each an `LI` element.
    struct Node {
        let entries: [Entry]
        /// The rows the list covers.
        var rows: Range<Int> { (entries.first?.rows.lowerBound ?? 0)..<(entries.last?.rows.upperBound ?? 0) }
    }

    /// One item: its text's row (nil when the item is a nested list standing first) and the lists inside it.
    struct Entry {
        let row: Int?
        let nested: [Node]
        /// The rows the item covers, its nested lists' included.
        let rows: Range<Int>
    }

    /// One item's text: its label, its wrapped text and where they stand.
    struct Row {
        let label: ShapedText?
        /// The label's left edge and its top, in the flowable's coordinates (the top relative to the row's).
        let labelX: Double
        let labelTop: Double
        let block: TextBlock
        /// The text's left edge.
        let x: Double
        /// The row's top in the flowable's coordinates.
        let top: Double
        /// The index of the row's first line among all the list's lines.
        let firstLine: Int
        /// The item's language where it is not the document's.
        let language: String?
    }

    let root: Node
    let rows: [Row]
    let color: Color
    let labelColor: Color
    /// Every line's top and bottom in the flowable's coordinates, and the row it belongs to.
    private let lineTops: [Double]
    private let lineBottoms: [Double]
    private let lineRows: [Int]
    /// The lines this piece shows.
    let range: Range<Int>
    let spaceBefore: Double

    init(root: Node, rows: [Row], color: Color, labelColor: Color, spaceBefore: Double) {
        self.root = root
        self.rows = rows
        self.color = color
        self.labelColor = labelColor
        self.spaceBefore = spaceBefore
        var tops: [Double] = []
        var bottoms: [Double] = []
        var owners: [Int] = []
        for (index, row) in rows.enumerated() {
            for line in row.block.lines {
                tops.append(row.top + line.top)
                bottoms.append(row.top + line.bottom)
                owners.append(index)
            }
        }
        lineTops = tops
        lineBottoms = bottoms
        lineRows = owners
        range = 0..<tops.count
    }

    private init(_ other: ListFlowable, range: Range<Int>) {
        root = other.root
        rows = other.rows
        color = other.color
        labelColor = other.labelColor
        spaceBefore = other.spaceBefore
        lineTops = other.lineTops
        lineBottoms = other.lineBottoms
        lineRows = other.lineRows
        self.range = range
    }

    private var top: Double { range.isEmpty ? 0 : lineTops[range.lowerBound] }
    private func bottom(_ end: Int) -> Double { end > range.lowerBound ? lineBottoms[end - 1] : top }

    var height: Double { bottom(range.upperBound) - top }

    var retainedBytes: Int { 1024 + 24 * lineTops.count + 128 * rows.count }

    /// The first item's first two lines (or the whole first item when shorter).
    var minimumHeadHeight: Double {
        guard !range.isEmpty else { return 0 }
        var end = range.lowerBound + 1
        let row = lineRows[range.lowerBound]
        while end < range.upperBound, end - range.lowerBound < 2, lineRows[end] == row { end += 1 }
        return bottom(end) - top
    }

    /// Splits at the last gap between items that fits; inside an item only when its first lines
    /// alone fill `available`.
    func split(available: Double) -> (head: Flowable, tail: Flowable)? {
        guard range.count >= 2 else { return nil }
        var lastFitting = range.lowerBound
        var lastItemGap: Int?
        var end = range.lowerBound + 1
        while end < range.upperBound, bottom(end) - top <= available {
            lastFitting = end
            if lineRows[end] != lineRows[end - 1] { lastItemGap = end }
            end += 1
        }
        let cut = lastItemGap ?? (lastFitting - range.lowerBound >= 2 ? lastFitting : nil)
        guard let cut, cut > range.lowerBound, cut < range.upperBound else { return nil }
        return (ListFlowable(self, range: range.lowerBound..<cut), ListFlowable(self, range: cut..<range.upperBound))
    }

    /// At the top of a page: as many lines as fit, at least one.
    func forceSplit(available: Double) -> (head: Flowable, tail: Flowable)? {
        guard range.count >= 2 else { return nil }
        var end = range.lowerBound + 1
        while end < range.upperBound - 1, bottom(end + 1) - top <= available { end += 1 }
        return (ListFlowable(self, range: range.lowerBound..<end), ListFlowable(self, range: end..<range.upperBound))
    }

    /// The notes cited on this piece's lines.
    var footnoteNumbers: [Int] { citations.map(\.number) }

    /// The notes cited on this piece's lines, with where each line is (list coordinates).
    private var citations: [(number: Int, x: Double, y: Double)] {
        rows.flatMap { row in
            row.block.footnoteLines.compactMap { note in
                range.contains(row.firstLine + note.line) ? (note.number, row.x, row.top + row.block.lines[note.line].top) : nil
            }
        }
    }

    func draw(on canvas: PageCanvas, at origin: Point) {
        let shift = Point(origin.x, origin.y - top)
        for note in citations {
            canvas.destination(FootnoteMarks.referenceAnchor(note.number), at: Point(shift.x + note.x, shift.y + note.y))
        }
        draw(root, on: canvas, at: shift, continues: range.lowerBound > 0)
    }

    /// The lines of row `row` this piece shows.
    private func visibleLines(of row: Int) -> Range<Int> {
        let first = rows[row].firstLine
        let lines = first..<(first + rows[row].block.lines.count)
        return lines.clamped(to: range)
    }

    /// The rows this piece shows (each has a line here).
    private var visibleRows: Range<Int> {
        range.isEmpty ? 0..<0 : lineRows[range.lowerBound]..<(lineRows[range.upperBound - 1] + 1)
    }

    /// Draws `node` (an `L`) with its entries that show here; `continues` for the outermost list's
    /// piece on a later page (nil: a nested list, never joined).
    private func draw(_ node: Node, on canvas: PageCanvas, at origin: Point, continues: Bool?) {
        let shownRows = visibleRows
        // The entries are in row order: the first shown is found by halving, the rest follow it.
        var low = 0
        var high = node.entries.count
        while low < high {
            let middle = (low + high) / 2
            if node.entries[middle].rows.upperBound <= shownRows.lowerBound { low = middle + 1 } else { high = middle }
        }
        canvas.list(continues: continues) {
            for entry in node.entries[low...] {
                guard entry.rows.lowerBound < shownRows.upperBound else { break }
                guard entry.rows.overlaps(shownRows) else { continue }
                canvas.tagged(.listItem) {
                    var textLines: Range<Int> = 0..<0
                    if let index = entry.row {
                        let row = rows[index]
                        textLines = visibleLines(of: index)
                        if let label = row.label, textLines.lowerBound == row.firstLine, !textLines.isEmpty {
                            canvas.tagged(.label) {
                                canvas.draw(label, at: Point(origin.x + row.labelX, origin.y + row.top + row.labelTop), color: labelColor)
                            }
                        }
                    }
                    canvas.tagged(.listBody) {
                        if let index = entry.row, !textLines.isEmpty {
                            let row = rows[index]
                            let local = (textLines.lowerBound - row.firstLine)..<(textLines.upperBound - row.firstLine)
                            let lineTop = row.top + row.block.lines[local.lowerBound].top
                            canvas.tagged(.paragraph, language: row.language) {
                                row.block.draw(lines: local, on: canvas, at: Point(origin.x + row.x, origin.y + lineTop), color: color)
                            }
                        }
                        for nested in entry.nested where nested.rows.overlaps(shownRows) {
                            draw(nested, on: canvas, at: origin, continues: nil)
                        }
                    }
                }
            }
        }
    }
}
