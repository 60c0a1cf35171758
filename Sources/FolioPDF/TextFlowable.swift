import FolioGraphics
import FolioModel

/// Wrapped text (title, subtitle, paragraph) that splits between lines,
/// never leaving a single line of a paragraph alone on either page.
final class TextFlowable: Flowable {
    let layout: TextLayout
    let color: Color
    let lines: [Rect]
    let range: Range<Int>
    let spaceBefore: Double
    let keepWithNext: Bool

    init(layout: TextLayout, color: Color, spaceBefore: Double, keepWithNext: Bool = false) {
        self.layout = layout
        self.color = color
        self.lines = layout.lineExtents
        self.range = 0..<lines.count
        self.spaceBefore = spaceBefore
        self.keepWithNext = keepWithNext
    }

    private init(_ other: TextFlowable, range: Range<Int>) {
        layout = other.layout
        color = other.color
        lines = other.lines
        self.range = range
        spaceBefore = other.spaceBefore
        keepWithNext = other.keepWithNext
    }

    private var top: Double { range.isEmpty ? 0 : lines[range.lowerBound].y }
    private func bottom(_ end: Int) -> Double { end > range.lowerBound ? lines[end - 1].maxY : top }

    var height: Double { bottom(range.upperBound) - top }

    /// The smallest number of lines that may stand alone: 2 when the block has 4 or more.
    private var minimumLines: Int { range.count >= 4 ? 2 : range.count }

    var minimumHeadHeight: Double { bottom(range.lowerBound + minimumLines) - top }

    func split(available: Double) -> (head: Flowable, tail: Flowable)? {
        guard !keepWithNext, range.count >= 2 else { return nil }
        var end = range.lowerBound
        while end < range.upperBound, bottom(end + 1) - top <= available { end += 1 }
        end = min(end, range.upperBound - minimumLines)
        guard end - range.lowerBound >= minimumLines, end < range.upperBound else { return nil }
        return (TextFlowable(self, range: range.lowerBound..<end), TextFlowable(self, range: end..<range.upperBound))
    }

    func draw(on canvas: CairoCanvas, at origin: Point) {
        let whole = range.count == lines.count
        let visible = top...(top + height)
        let body = {
            canvas.draw(layout: self.layout, at: Point(origin.x, origin.y - self.top), color: self.color, visible: visible)
        }
        if whole {
            body()
        } else {
            canvas.clipped(to: Rect(x: origin.x - 2, y: origin.y, width: 100_000, height: height), body)
        }
    }
}
