import FolioGraphics
import FolioModel

/// A printed table of contents: one entry per heading, its words (a link to the heading) at its
/// depth's indent, a dot leader, and its page number at the far side, filled in when the page is drawn
/// (`ContentsPages`). It splits between entries; each page's part is a `TOC` element (joined into one
/// by the PDF's finishing step) whose entries are `TOCI`s holding the words and the number, the
/// leader decoration.
final class ContentsFlowable: Flowable {
    /// One heading's line or lines.
    struct Entry {
        /// The heading's words, a link to it, wrapped to leave room for the page number.
        let text: ShapedText
        /// The heading block's path, for its page.
        let path: String
        /// How far its depth sets it in from the start side.
        let indent: Double
        /// Where it starts, from the list's top.
        let top: Double
        /// Its height.
        let height: Double
    }

    let entries: [Entry]
    let range: Range<Int>
    let width: Double
    /// The gap before the first entry (after the heading).
    let spaceBefore: Double
    /// Whether this part continues a list begun on an earlier page.
    let continues: Bool
    let pages: ContentsPages
    let shaper: TextShaper
    let font: FontSpec
    let color: Color
    let leaderColor: Color
    let rightToLeft: Bool
    /// The room kept at the far side for the page number and the gap before it.
    let numberRoom: Double

    init(
        entries: [Entry], width: Double, spaceBefore: Double, pages: ContentsPages, shaper: TextShaper, font: FontSpec, color: Color,
        leaderColor: Color, rightToLeft: Bool, numberRoom: Double
    ) {
        self.numberRoom = numberRoom
        self.entries = entries
        self.range = 0..<entries.count
        self.width = width
        self.spaceBefore = spaceBefore
        self.continues = false
        self.pages = pages
        self.shaper = shaper
        self.font = font
        self.color = color
        self.leaderColor = leaderColor
        self.rightToLeft = rightToLeft
    }

    private init(_ other: ContentsFlowable, range: Range<Int>) {
        entries = other.entries
        self.range = range
        width = other.width
        spaceBefore = other.spaceBefore
        continues = range.lowerBound > 0
        pages = other.pages
        shaper = other.shaper
        font = other.font
        color = other.color
        leaderColor = other.leaderColor
        rightToLeft = other.rightToLeft
        numberRoom = other.numberRoom
    }

    private var top: Double { range.isEmpty ? 0 : entries[range.lowerBound].top }
    private func bottom(_ end: Int) -> Double { end > range.lowerBound ? entries[end - 1].top + entries[end - 1].height : top }

    var height: Double { bottom(range.upperBound) - top }
    var minimumHeadHeight: Double { bottom(min(range.lowerBound + 1, range.upperBound)) - top }
    var retainedBytes: Int { 512 + 256 * range.count }

    func split(available: Double) -> (head: Flowable, tail: Flowable)? {
        var end = range.lowerBound
        while end < range.upperBound, bottom(end + 1) - top <= available { end += 1 }
        guard end > range.lowerBound, end < range.upperBound else { return nil }
        return (ContentsFlowable(self, range: range.lowerBound..<end), ContentsFlowable(self, range: end..<range.upperBound))
    }

    func forceSplit(available: Double) -> (head: Flowable, tail: Flowable)? {
        guard range.count > 1 else { return nil }
        return (
            ContentsFlowable(self, range: range.lowerBound..<(range.lowerBound + 1)),
            ContentsFlowable(self, range: (range.lowerBound + 1)..<range.upperBound)
        )
    }

    func draw(on canvas: PageCanvas, at origin: Point) {
        canvas.tableOfContents(continues: continues) {
            for index in range {
                drawEntry(entries[index], on: canvas, at: Point(origin.x, origin.y + entries[index].top - top))
            }
        }
    }

    /// The words, then the leader (decoration) and the page number on the last line.
    private func drawEntry(_ entry: Entry, on canvas: PageCanvas, at origin: Point) {
        let textX = rightToLeft ? origin.x + numberRoom : origin.x + entry.indent
        let last = entry.text.lineExtents.last ?? Rect(x: 0, y: 0, width: 0, height: entry.height)
        let number = pages.shown[entry.path].map { shaper.singleLine($0, font: font) }
        let numberWidth = number?.metrics.width ?? 0
        let numberX = rightToLeft ? origin.x : origin.x + width - numberWidth
        let lineY = origin.y + last.y
        // The dots run from the words' last line to the number, on the text's baseline.
        let baseline = lineY + (number?.metrics.baseline ?? last.height * 0.8)
        let start = rightToLeft ? numberX + numberWidth + 6 : textX + last.maxX + 6
        let end = rightToLeft ? textX + last.x - 6 : numberX - 6
        if end - start > 6 {
            canvas.tagged(nil) {
                canvas.line(
                    from: Point(start, baseline), to: Point(end, baseline),
                    style: StrokeStyle(color: leaderColor, width: 0.9, dash: [0.9, 2.4]))
            }
        }
        canvas.tagged(.tableOfContentsItem) {
            canvas.draw(entry.text, at: Point(textX, origin.y), color: color)
            if let number { canvas.draw(number, at: Point(numberX, lineY), color: color) }
        }
    }
}
