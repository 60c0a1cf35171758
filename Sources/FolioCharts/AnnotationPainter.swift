import FolioGraphics
import FolioModel

/// Draws a chart's notes: each a ring at its point, its words on a white ground above it (below
/// where there is no room above), and a pointer from the words to the point, kept inside the plot's
/// width.
struct AnnotationPainter {
    let context: ChartContext

    /// Draws the notes at their points, inside `area` (the plot, with room above it for the words).
    func draw(_ notes: [(point: Point, text: String)], within area: Rect, on canvas: Canvas) {
        guard !notes.isEmpty else { return }
        let theme = context.theme
        let font = context.theme.font(context.theme.smallSize, bold: true)
        let height = context.lineHeight(font)
        canvas.beginGroup()
        for note in notes {
            let width = context.text.metrics(note.text, font).width
            let left = Swift.min(Swift.max(note.point.x - width / 2, area.x), Swift.max(area.maxX - width, area.x))
            // Above the point, or below it where the plot's top leaves no room.
            let above = note.point.y - 16 - height >= area.y
            let top = above ? note.point.y - 16 - height : note.point.y + 16
            let box = Rect(x: left - 3, y: top - 1, width: width + 6, height: height + 2)
            let end = Point(Swift.min(Swift.max(note.point.x, box.x + 2), box.maxX - 2), above ? box.maxY : box.y)
            canvas.line(from: note.point, to: end, style: StrokeStyle(color: theme.muted, width: 0.8))
            canvas.stroke(.circle(center: note.point, radius: 3.2), style: StrokeStyle(color: theme.text, width: 1.2))
            canvas.fill(.roundedRect(box, radius: 2), color: Color.white.withAlpha(0.92))
            canvas.draw(text: context.text.item(note.text, font: font, color: theme.text, x: left, top: top))
        }
        canvas.endGroup()
    }
}
