import FolioGraphics
import FolioModel

/// Draws a chart's notes: each a ring at its point, its words on a white ground, and a pointer from
/// the words to the point. The words go where they cover the least of what the chart drew (its
/// `PlotMarks`: bars, lines, value labels, the notes placed before): above the point, below it, or
/// to either side, kept inside the plot's width.
struct AnnotationPainter {
    let context: ChartContext

    /// Draws the notes at their points, inside `area` (the plot), clear of `marks` where they can be.
    func draw(_ notes: [(point: Point, text: String)], within area: Rect, avoiding marks: PlotMarks, on canvas: Canvas) {
        guard !notes.isEmpty else { return }
        let theme = context.theme
        let font = context.theme.font(context.theme.smallSize, bold: true)
        let height = context.lineHeight(font)
        var marks = marks
        canvas.beginGroup()
        for note in notes {
            let width = context.text.metrics(note.text, font).width
            func box(left: Double, top: Double) -> Rect {
                let x = Swift.min(Swift.max(left, area.x), Swift.max(area.maxX - width, area.x))
                return Rect(x: x - 3, y: top - 1, width: width + 6, height: height + 2)
            }
            let gap = 14.0
            // Above, below, then beside the point: the first that covers least wins (a tie keeps the earlier).
            let candidates = [
                box(left: note.point.x - width / 2, top: note.point.y - gap - height),
                box(left: note.point.x - width / 2, top: note.point.y + gap),
                box(left: note.point.x + gap, top: note.point.y - gap - height),
                box(left: note.point.x - gap - width, top: note.point.y - gap - height),
                box(left: note.point.x + gap, top: note.point.y + gap),
                box(left: note.point.x - gap - width, top: note.point.y + gap),
                box(left: note.point.x + gap, top: note.point.y - height / 2),
                box(left: note.point.x - gap - width, top: note.point.y - height / 2),
            ].filter { $0.y >= area.y && $0.maxY <= area.maxY }
            let chosen =
                candidates.min { marks.coverage(of: $0) < marks.coverage(of: $1) }
                ?? box(left: note.point.x - width / 2, top: note.point.y + gap)
            // The pointer ends at the box's nearest edge.
            let end = Point(
                Swift.min(Swift.max(note.point.x, chosen.x + 2), chosen.maxX - 2), chosen.midY < note.point.y ? chosen.maxY : chosen.y)
            canvas.line(from: note.point, to: end, style: StrokeStyle(color: theme.muted, width: 0.8))
            canvas.stroke(.circle(center: note.point, radius: 3.2), style: StrokeStyle(color: theme.text, width: 1.2))
            canvas.fill(.roundedRect(chosen, radius: 2), color: Color.white.withAlpha(0.92))
            canvas.draw(text: context.text.item(note.text, font: font, color: theme.text, x: chosen.x + 3, top: chosen.y + 1))
            marks.add(chosen)
        }
        canvas.endGroup()
    }
}
