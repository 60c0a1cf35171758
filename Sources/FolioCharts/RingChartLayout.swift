import FolioGraphics
import FolioModel
import Foundation

/// CareKit-style nested rings: a faint track, an arc with round caps filled to
/// the value, a visible overlap past 100 %, and a centre label.
struct RingChartLayout {
    let chart: Chart
    let rings: RingChart
    let context: ChartContext

    private var theme: Theme { context.theme }
    func color(ofRing index: Int) -> Color { rings.rings[index].tint ?? theme.seriesColor(index) }

    /// Radius and stroke width of each ring, outermost first.
    func geometry(outerRadius: Double) -> [(radius: Double, thickness: Double)] {
        let count = Double(Swift.max(rings.rings.count, 1))
        let thickness = Swift.min(16, outerRadius * 0.62 / count)
        let gap = thickness * 0.3
        return rings.rings.indices.map { (outerRadius - thickness / 2 - Double($0) * (thickness + gap), thickness) }
    }

    func drawing(width: Double) -> Drawing {
        let description = ChartDescription.describe(chart, strings: context.strings)
        guard !rings.rings.isEmpty else {
            return context.noData(width: width, height: chart.height?.points ?? 120, description: description)
        }
        let canvas = RecordingCanvas()
        let legend = Legend(
            entries: rings.rings.enumerated().map {
                Legend.Entry(
                    title: "\($0.element.title) \(($0.element.value * 100).clampedInt())%",
                    color: color(ofRing: $0.offset))
            }, options: chart.legend, context: context)
        let areaHeight = chart.height?.points ?? 150
        let top = legend.options.position == .top ? legend.bandHeight(width: width) : 0
        let center = Point((width - legend.sideWidth) / 2, top + areaHeight / 2)
        let start = -Double.pi / 2
        for ((radius, thickness), (index, ring)) in zip(geometry(outerRadius: areaHeight / 2 - 2), rings.rings.enumerated()) {
            let tint = color(ofRing: index)
            canvas.beginGroup()
            canvas.stroke(.circle(center: center, radius: radius), style: StrokeStyle(color: tint.lightened(0.78), width: thickness))
            let value = ring.value
            if value > 0 {
                let first = Swift.min(value, 1)
                canvas.arc(
                    center: center, radius: radius, start: start, end: start + 2 * .pi * first,
                    style: StrokeStyle(color: tint, width: thickness, cap: .round))
                if value > 1 {
                    // The part past one turn runs over the start; a shadow under its end shows the overlap.
                    let end = start + 2 * .pi * (value - 1).truncatingRemainder(dividingBy: 1)
                    let tip = Point(center.x + cos(end) * radius, center.y + sin(end) * radius)
                    let shadowCenter = Point(tip.x - sin(end) * 1.5, tip.y + cos(end) * 1.5)
                    canvas.fill(.circle(center: shadowCenter, radius: thickness / 2 + 0.8), color: Color.black.withAlpha(0.28))
                    canvas.arc(
                        center: center, radius: radius, start: start, end: Swift.max(end, start + 0.001),
                        style: StrokeStyle(color: tint, width: thickness, cap: .round))
                }
            }
            canvas.endGroup()
        }
        if let label = rings.centerLabel {
            canvas.draw(
                text: context.text.item(
                    label, font: theme.font(theme.bodySize + 1, bold: true), color: theme.text,
                    x: center.x, centerY: center.y, anchor: .middle))
        }
        let height = legend.draw(on: canvas, below: top + areaHeight, width: width, sideX: width - legend.sideWidth, centerY: center.y)
        return canvas.drawing(size: Size(width, height + 2), description: description)
    }
}
