import FolioModel

/// The `ElementCanvas` a custom element draws on: it records into a `Drawing` (so the PDF and the
/// HTML replay the same commands) and measures text with the renderer's measurer in the theme's font.
package final class ElementRecorder: ElementCanvas {
    private let canvas = RecordingCanvas()
    private let measurer: TextMeasurer
    private let theme: Theme
    /// Sizes are kept within what a page can show, so a wild number cannot make a huge font.
    private static let sizes = 1.0...200.0

    /// A recorder measuring with `measurer` in `theme`.
    package init(measurer: TextMeasurer, theme: Theme) {
        self.measurer = measurer
        self.theme = theme
    }

    /// The theme's sizes and colours.
    package var style: ElementStyle { ElementRecorder.style(of: theme) }

    /// The look a custom element is given in `theme`.
    package static func style(of theme: Theme) -> ElementStyle {
        ElementStyle(
            bodySize: theme.bodySize, smallSize: theme.smallSize, text: theme.text, muted: theme.muted, rule: theme.rule,
            accent: theme.accent)
    }

    /// `path` in the drawing's own terms, or nil when a number in it is not finite.
    private func converted(_ path: ElementPath) -> Path? {
        var result = Path()
        func finite(_ values: Double...) -> Bool { values.allSatisfy(\.isFinite) }
        for step in path.steps {
            switch step {
            case .move(let x, let y):
                guard finite(x, y) else { return nil }
                result.move(to: Point(x, y))
            case .line(let x, let y):
                guard finite(x, y) else { return nil }
                result.line(to: Point(x, y))
            case .curve(let x, let y, let c1x, let c1y, let c2x, let c2y):
                guard finite(x, y, c1x, c1y, c2x, c2y) else { return nil }
                result.curve(to: Point(x, y), control1: Point(c1x, c1y), control2: Point(c2x, c2y))
            case .arc(let cx, let cy, let radius, let start, let end):
                guard finite(cx, cy, radius, start, end), radius >= 0, abs(end - start) <= 64 * .pi else { return nil }
                result.arc(center: Point(cx, cy), radius: radius, start: start, end: end)
            case .close:
                result.close()
            }
        }
        return result
    }

    /// Records a fill.
    package func fill(_ path: ElementPath, color: Color) {
        if let path = converted(path) { canvas.fill(path, color: color) }
    }

    /// Records a stroke.
    package func stroke(_ path: ElementPath, color: Color, width: Double, dash: [Double]) {
        guard let path = converted(path), width.isFinite, width > 0, dash.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return }
        canvas.stroke(path, style: StrokeStyle(color: color, width: Swift.min(width, 1000), dash: Array(dash.prefix(16))))
    }

    /// Records one line of text.
    package func text(_ text: String, x: Double, y: Double, size: Double, bold: Bool, color: Color, anchor: TextAnchor) {
        guard x.isFinite, y.isFinite, size.isFinite else { return }
        let font = theme.font(Swift.min(Swift.max(size, ElementRecorder.sizes.lowerBound), ElementRecorder.sizes.upperBound), bold: bold)
        let metrics = measurer.measure(text, font: font)
        let left: Double
        switch anchor {
        case .start: left = x
        case .middle: left = x - metrics.width / 2
        case .end: left = x - metrics.width
        }
        canvas.draw(text: TextItem(text: text, origin: Point(left, y), font: font, color: color, metrics: metrics))
    }

    /// The measured size of one line of text.
    package func measure(_ text: String, size: Double, bold: Bool) -> (width: Double, height: Double) {
        guard size.isFinite else { return (0, 0) }
        let font = theme.font(Swift.min(Swift.max(size, ElementRecorder.sizes.lowerBound), ElementRecorder.sizes.upperBound), bold: bold)
        let metrics = measurer.measure(text, font: font)
        return (metrics.width, metrics.height)
    }

    /// `element` drawn at `width` points: its height asked for, bounded to one page-sized box, and its drawing recorded.
    package static func drawing(of element: any CustomElement, width: Double, measurer: TextMeasurer, theme: Theme) -> Drawing {
        let style = style(of: theme)
        let asked = element.height(forWidth: width, style: style)
        let height = asked.isFinite ? Swift.min(Swift.max(asked, 0), InputLimits.length) : 0
        let recorder = ElementRecorder(measurer: measurer, theme: theme)
        // Nothing drawn outside the element's box reaches the page.
        recorder.canvas.beginClip(Rect(x: 0, y: 0, width: width, height: height))
        element.draw(on: recorder, width: width, height: height)
        recorder.canvas.endClip()
        return recorder.canvas.drawing(size: Size(width, height), description: element.alternativeText ?? "")
    }
}
