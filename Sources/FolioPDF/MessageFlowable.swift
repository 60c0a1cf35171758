import FolioGraphics
import FolioModel

/// A CareKit-style tip or alert: a tinted panel with a bar, a labelled title and text.
final class MessageFlowable: Flowable {
    let title: TextLayout
    let body: TextLayout?
    let tint: Color
    let width: Double
    let textColor: Color

    static let padding = 10.0
    static let bar = 4.0

    init(title: TextLayout, body: TextLayout?, tint: Color, width: Double, textColor: Color) {
        self.title = title; self.body = body; self.tint = tint; self.width = width; self.textColor = textColor
    }

    /// Width available to the text inside the panel.
    static func textWidth(frame: Double) -> Double { frame - 2 * padding - bar }

    private var bodyGap: Double { body == nil ? 0 : 4 }

    var height: Double {
        2 * MessageFlowable.padding + title.metrics.height + bodyGap + (body?.metrics.height ?? 0)
    }

    func draw(on canvas: CairoCanvas, at origin: Point) {
        canvas.tagged("Div") { drawContent(on: canvas, at: origin) }
    }

    private func drawContent(on canvas: CairoCanvas, at origin: Point) {
        let box = Rect(x: origin.x, y: origin.y, width: width, height: height)
        canvas.fill(.roundedRect(box, radius: 4), color: tint.lightened(0.9))
        canvas.rect(Rect(x: box.x, y: box.y, width: MessageFlowable.bar, height: box.height), color: tint)
        let x = box.x + MessageFlowable.bar + MessageFlowable.padding
        let y = box.y + MessageFlowable.padding
        canvas.tagged("P") { canvas.draw(layout: title, at: Point(x, y), color: textColor) }
        if let body {
            canvas.tagged("P") { canvas.draw(layout: body, at: Point(x, y + title.metrics.height + bodyGap), color: textColor) }
        }
    }
}
