import FolioGraphics
import FolioModel

/// A footnote at the foot of a page, a `Note` element: its label (its number, a link back to where it
/// is first cited) hanging beside its text, small, with the destination its citations link to. A note
/// longer than the room a page leaves splits between lines and goes on at the foot of the next page,
/// labelled "N (continued)" above its rest.
final class FootnoteFlowable: Flowable {
    let number: Int
    let label: ShapedText
    let text: TextFlowable
    /// How far the text hangs in from the label's side.
    let indent: Double
    /// Whether this is the rest of a note begun on an earlier page (its label above it).
    let continues: Bool
    /// The label of a continued part, made when the note splits.
    private let continuedLabel: () -> ShapedText
    private let color: Color
    private let rightToLeft: Bool
    /// The text column's width.
    private let width: Double

    init(
        number: Int, label: ShapedText, text: TextFlowable, indent: Double, width: Double, color: Color, rightToLeft: Bool,
        continues: Bool = false, continuedLabel: @escaping () -> ShapedText
    ) {
        self.number = number
        self.width = width
        self.label = label
        self.text = text
        self.indent = indent
        self.color = color
        self.rightToLeft = rightToLeft
        self.continues = continues
        self.continuedLabel = continuedLabel
    }

    private var labelHeight: Double { continues ? label.metrics.height : 0 }

    var height: Double { continues ? labelHeight + text.height : max(label.metrics.height, text.height) }
    var spaceBefore: Double { 2 }
    var minimumHeadHeight: Double { labelHeight + text.minimumHeadHeight }
    var retainedBytes: Int { text.retainedBytes + 256 }

    func split(available: Double) -> (head: Flowable, tail: Flowable)? {
        guard let (head, tail) = text.split(available: available - labelHeight), let head = head as? TextFlowable,
            let tail = tail as? TextFlowable
        else { return nil }
        return (
            FootnoteFlowable(
                number: number, label: label, text: head, indent: indent, width: width, color: color, rightToLeft: rightToLeft,
                continues: continues,
                continuedLabel: continuedLabel),
            FootnoteFlowable(
                number: number, label: continuedLabel(), text: tail, indent: indent, width: width, color: color, rightToLeft: rightToLeft,
                continues: true, continuedLabel: continuedLabel)
        )
    }

    func draw(on canvas: PageCanvas, at origin: Point) {
        if !continues { canvas.destination(FootnoteMarks.noteAnchor(number), at: origin) }
        canvas.tagged(.note) {
            let labelX = rightToLeft ? origin.x + width - label.metrics.width : origin.x
            canvas.tagged(.label) { canvas.draw(label, at: Point(labelX, origin.y), color: color) }
            text.draw(on: canvas, at: Point(origin.x + (rightToLeft ? 0 : indent), origin.y + labelHeight))
        }
    }
}
