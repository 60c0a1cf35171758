import FolioGraphics
import FolioModel

/// Places measured single-line labels relative to an anchor point.
struct ChartText {
    enum Anchor { case start, middle, end }

    let measurer: TextMeasurer

    func metrics(_ text: String, _ font: FontSpec) -> TextMetrics { measurer.measure(text, font: font) }

    /// A label whose line box is anchored horizontally at `x` and whose top is at `top`.
    func item(_ text: String, font: FontSpec, color: Color, x: Double, top: Double, anchor: Anchor = .start) -> TextItem {
        let m = metrics(text, font)
        let left: Double
        switch anchor {
        case .start: left = x
        case .middle: left = x - m.width / 2
        case .end: left = x - m.width
        }
        return TextItem(text: text, origin: Point(left, top), font: font, color: color, metrics: m)
    }

    /// A label centred vertically on `y`.
    func item(_ text: String, font: FontSpec, color: Color, x: Double, centerY y: Double, anchor: Anchor = .start) -> TextItem {
        let m = metrics(text, font)
        return item(text, font: font, color: color, x: x, top: y - m.height / 2, anchor: anchor)
    }

    /// A label turned 90° counter-clockwise, centred on `center`, reading bottom to top.
    func verticalItem(_ text: String, font: FontSpec, color: Color, center: Point) -> TextItem {
        let m = metrics(text, font)
        let origin = Point(center.x - m.height / 2, center.y + m.width / 2)
        return TextItem(text: text, origin: origin, font: font, color: color, metrics: m, rotation: -90)
    }
}
