import FolioGraphics
import FolioModel

/// A CareKit-style tip or alert: a tinted panel with a bar, a labelled title and text.
/// A message taller than the room left splits between the lines of its text (never
/// leaving one line alone); the part on the next page is a panel of its own.
final class MessageFlowable: Flowable {
    let title: ShapedText
    let body: TextBlock?
    let tint: Color
    let width: Double
    let textColor: Color
    /// The accent bar on the right, for right-to-left languages.
    let rightToLeft: Bool
    /// Whether this part shows the title (the first part does).
    let showsTitle: Bool
    /// The body lines this part shows.
    let bodyRange: Range<Int>
    private let bodyLines: [LineSpan]

    var retainedBytes: Int { 1024 + 64 * bodyLines.count }

    static let padding = 10.0
    static let bar = 4.0

    init(title: ShapedText, body: TextBlock?, tint: Color, width: Double, textColor: Color, rightToLeft: Bool) {
        self.rightToLeft = rightToLeft
        self.title = title
        self.body = body
        self.tint = tint
        self.width = width
        self.textColor = textColor
        showsTitle = true
        bodyLines = body?.lines ?? []
        bodyRange = 0..<bodyLines.count
    }

    private init(_ other: MessageFlowable, showsTitle: Bool, bodyRange: Range<Int>) {
        title = other.title
        body = other.body
        tint = other.tint
        width = other.width
        textColor = other.textColor
        rightToLeft = other.rightToLeft
        bodyLines = other.bodyLines
        self.showsTitle = showsTitle
        self.bodyRange = bodyRange
    }

    /// Width available to the text inside the panel.
    static func textWidth(frame: Double) -> Double { frame - 2 * padding - bar }

    private var titleHeight: Double { showsTitle ? title.metrics.height : 0 }
    private var bodyGap: Double { showsTitle && !bodyRange.isEmpty ? 4 : 0 }
    private var bodyTop: Double { bodyRange.isEmpty ? 0 : bodyLines[bodyRange.lowerBound].top }

    /// Height of body lines `bodyRange.lowerBound..<end`.
    private func bodyHeight(to end: Int) -> Double {
        end > bodyRange.lowerBound ? bodyLines[end - 1].bottom - bodyTop : 0
    }

    var height: Double {
        2 * MessageFlowable.padding + titleHeight + bodyGap + bodyHeight(to: bodyRange.upperBound)
    }

    private var minimumLines: Int { bodyRange.count >= 4 ? 2 : bodyRange.count }

    var minimumHeadHeight: Double {
        2 * MessageFlowable.padding + titleHeight + bodyGap + bodyHeight(to: bodyRange.lowerBound + minimumLines)
    }

    func split(available: Double) -> (head: Flowable, tail: Flowable)? {
        guard bodyRange.count >= 2 else { return nil }
        let fixed = 2 * MessageFlowable.padding + titleHeight + bodyGap
        var end = bodyRange.lowerBound
        while end < bodyRange.upperBound, fixed + bodyHeight(to: end + 1) <= available { end += 1 }
        end = min(end, bodyRange.upperBound - minimumLines)
        guard end - bodyRange.lowerBound >= minimumLines, end < bodyRange.upperBound else { return nil }
        return (
            MessageFlowable(self, showsTitle: showsTitle, bodyRange: bodyRange.lowerBound..<end),
            MessageFlowable(self, showsTitle: false, bodyRange: end..<bodyRange.upperBound)
        )
    }

    func draw(on canvas: PageCanvas, at origin: Point) {
        canvas.tagged(.division) { drawContent(on: canvas, at: origin) }
    }

    private func drawContent(on canvas: PageCanvas, at origin: Point) {
        let box = Rect(x: origin.x, y: origin.y, width: width, height: height)
        canvas.fill(.roundedRect(box, radius: 4), color: tint.lightened(0.9))
        let barX = rightToLeft ? box.maxX - MessageFlowable.bar : box.x
        canvas.rect(Rect(x: barX, y: box.y, width: MessageFlowable.bar, height: box.height), color: tint)
        let x = box.x + (rightToLeft ? 0 : MessageFlowable.bar) + MessageFlowable.padding
        let y = box.y + MessageFlowable.padding
        if showsTitle { canvas.tagged(.paragraph) { canvas.draw(title, at: Point(x, y), color: textColor) } }
        guard let body, !bodyRange.isEmpty else { return }
        let bodyTop = y + titleHeight + bodyGap
        for note in body.footnoteLines where bodyRange.contains(note.line) {
            let lineY = bodyTop + body.lines[note.line].top - body.lines[bodyRange.lowerBound].top
            canvas.destination(FootnoteMarks.referenceAnchor(note.number), at: Point(x, lineY))
        }
        canvas.tagged(.paragraph) { body.draw(lines: bodyRange, on: canvas, at: Point(x, bodyTop), color: textColor) }
    }

    /// The notes cited on the body's lines this part shows.
    var footnoteNumbers: [Int] { body?.footnoteLines.filter { bodyRange.contains($0.line) }.map(\.number) ?? [] }
}
