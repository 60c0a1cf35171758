import FolioGraphics
import FolioModel
import Foundation

/// Pie and donut charts: slices from 12 o'clock, percentage labels outside with
/// collision avoidance and leader lines, centre text, legend from the segments.
struct PieChartLayout {
    let chart: Chart
    let pie: PieChart
    let context: ChartContext

    private var theme: Theme { context.theme }
    /// The palette colour of the first segment.
    static let firstPaletteColor = 1
    func color(ofSegment index: Int) -> Color { pie.segments[index].tint ?? theme.seriesColor(index + PieChartLayout.firstPaletteColor) }

    /// Whole percentages that add up to 100 (largest remainder).
    static func percentages(_ values: [Double]) -> [Int] {
        let total = values.reduce(0, +)
        guard total > 0 else { return values.map { _ in 0 } }
        let exact = values.map { $0 / total * 100 }
        var result = exact.map { $0.clampedInt(.down) }
        let missing = 100 - result.reduce(0, +)
        let order = exact.indices.sorted { exact[$0] - Double(result[$0]) > exact[$1] - Double(result[$1]) }
        for index in order.prefix(Swift.max(missing, 0)) { result[index] += 1 }
        return result
    }

    /// Start and end angle of each slice, radians from 3 o'clock, clockwise on screen when positive.
    func angles() -> [(start: Double, end: Double)] {
        let total = pie.segments.reduce(0) { $0 + $1.value }
        var angle = -Double.pi / 2
        let direction = pie.clockwise ? 1.0 : -1.0
        return pie.segments.map { segment in
            let sweep = total > 0 ? segment.value / total * 2 * .pi : 0
            defer { angle += direction * sweep }
            return (angle, angle + direction * sweep)
        }
    }

    func drawing(width: Double) -> Drawing {
        let description = ChartDescription.describe(chart, strings: context.strings)
        let canvas = RecordingCanvas()
        let total = pie.segments.reduce(0) { $0 + $1.value }
        // A pie with nothing to show has no legend: it would name colours drawn nowhere.
        let legend = Legend(
            entries: total > 0
                ? pie.segments.enumerated().map { Legend.Entry(title: $0.element.title, color: color(ofSegment: $0.offset)) } : [],
            options: chart.legend, context: context)
        let areaHeight = chart.height?.points ?? 190
        var top = legend.options.position == .top ? legend.bandHeight(width: width) : 0
        // Without a hole, the centre title goes above the pie.
        if !pie.donut, let title = pie.centerTitle {
            canvas.draw(
                text: context.text.item(
                    title, font: context.theme.font(theme.bodySize + 1, bold: true), color: theme.text,
                    x: (width - legend.sideWidth) / 2, top: top, anchor: .middle))
            top += context.lineHeight(context.theme.font(theme.bodySize + 1, bold: true)) + 4
            if let text = pie.centerText {
                canvas.draw(
                    text: context.text.item(
                        text, font: context.tickFont, color: theme.muted,
                        x: (width - legend.sideWidth) / 2, top: top, anchor: .middle))
                top += context.lineHeight(context.tickFont) + 4
            }
        }
        let labelHeight = context.lineHeight(context.valueFont)
        let labelWidth = context.measurer.measure("100%", font: context.valueFont).width
        let areaWidth = width - legend.sideWidth
        let explodeOffset = pie.explode.isEmpty ? 0.0 : 8.0
        let radius = Swift.max(
            10,
            Swift.min(
                areaHeight / 2 - labelHeight - 6 - explodeOffset,
                areaWidth / 2 - labelWidth - 22 - explodeOffset))
        let center = Point(areaWidth / 2, top + areaHeight / 2)
        let inner = pie.donut ? radius * (1 - (pie.ringWidth ?? 0.42)) : 0

        if total <= 0 {
            canvas.stroke(.circle(center: center, radius: radius - 6), style: StrokeStyle(color: theme.grid, width: 12))
            canvas.draw(
                text: context.text.item(
                    context.strings[.noData], font: theme.font(theme.bodySize, bold: true), color: theme.muted,
                    x: center.x, centerY: center.y, anchor: .middle))
        } else {
            drawSegments(
                on: canvas, center: center, radius: radius, inner: inner, explodeOffset: explodeOffset, labelHeight: labelHeight,
                bounds: (top, top + areaHeight))
            if pie.donut { drawCenterWords(on: canvas, center: center) }
        }
        let height = legend.draw(on: canvas, below: top + areaHeight, width: width, sideX: areaWidth, centerY: center.y)
        return canvas.drawing(size: Size(width, height + 2), description: description)
    }

    /// Each segment with a value, a group each (an exploded one moved out from `center`), and its
    /// percentage label placed beside the pie within `bounds` (top and bottom).
    private func drawSegments(
        on canvas: Canvas, center: Point, radius: Double, inner: Double, explodeOffset: Double, labelHeight: Double,
        bounds: (Double, Double)
    ) {
        let angles = self.angles()
        let percents = PieChartLayout.percentages(pie.segments.map(\.value))
        var labels: [PieLabel] = []
        for (index, segment) in pie.segments.enumerated() where segment.value > 0 {
            let (start, end) = angles[index]
            let mid = (start + end) / 2
            let offset = pie.explode.contains(index) ? explodeOffset : 0
            let c = Point(center.x + cos(mid) * offset, center.y + sin(mid) * offset)
            canvas.beginGroup()
            var path = Path()
            if inner > 0 {
                path.arc(center: c, radius: radius, start: start, end: end)
                path.arc(center: c, radius: inner, start: end, end: start)
            } else {
                path.move(to: c)
                path.arc(center: c, radius: radius, start: start, end: end)
            }
            path.close()
            canvas.fill(path, color: color(ofSegment: index))
            if pie.segments.filter({ $0.value > 0 }).count > 1 {
                canvas.stroke(path, style: StrokeStyle(color: .white, width: 1))
            }
            canvas.endGroup()
            if pie.percentLabels {
                let edge = Point(c.x + cos(mid) * radius, c.y + sin(mid) * radius)
                let anchor = Point(c.x + cos(mid) * (radius + 12), c.y + sin(mid) * (radius + 12))
                labels.append(
                    PieLabel(
                        text: "\(percents[index])%", color: color(ofSegment: index), edge: edge,
                        natural: anchor, right: cos(mid) >= -1e-9))
            }
        }
        placeLabels(labels, on: canvas, center: center, radius: radius, labelHeight: labelHeight, bounds: bounds)
    }

    /// A donut's centre title and text in its hole.
    private func drawCenterWords(on canvas: Canvas, center: Point) {
        if let title = pie.centerTitle {
            let font = context.centerFont
            let offset = pie.centerText == nil ? 0 : context.lineHeight(context.tickFont) / 2
            canvas.draw(
                text: context.text.item(
                    title, font: font, color: theme.text, x: center.x,
                    centerY: center.y - offset, anchor: .middle))
        }
        if let text = pie.centerText {
            let below = pie.centerTitle == nil ? 0 : context.lineHeight(context.centerFont) / 2
            canvas.draw(
                text: context.text.item(
                    text, font: context.tickFont, color: theme.muted, x: center.x,
                    centerY: center.y + below + 1, anchor: .middle))
        }
    }

    struct PieLabel {
        let text: String
        let color: Color
        let edge: Point
        let natural: Point
        let right: Bool
        var y: Double = 0
    }

    /// Stacks each side's labels so none overlap, then draws them with leader lines where they moved.
    private func placeLabels(
        _ labels: [PieLabel], on canvas: Canvas, center: Point, radius: Double, labelHeight: Double,
        bounds: (Double, Double)
    ) {
        for side in [true, false] {
            var group = labels.filter { $0.right == side }.sorted { $0.natural.y < $1.natural.y }
            guard !group.isEmpty else { continue }
            let step = labelHeight + 1
            for i in group.indices {
                let wanted = group[i].natural.y - labelHeight / 2
                group[i].y = i == 0 ? Swift.max(wanted, bounds.0) : Swift.max(wanted, group[i - 1].y + step)
            }
            // Pushed past the bottom: move the stack up again.
            if let last = group.last, last.y + labelHeight > bounds.1 {
                group[group.count - 1].y = bounds.1 - labelHeight
                for i in stride(from: group.count - 2, through: 0, by: -1) {
                    group[i].y = Swift.min(group[i].y, group[i + 1].y - step)
                }
            }
            for label in group {
                let moved = abs(label.y + labelHeight / 2 - label.natural.y) > 2
                let x = side ? Swift.max(label.natural.x, center.x + 4) : Swift.min(label.natural.x, center.x - 4)
                if moved {
                    let end = Point(side ? x - 2 : x + 2, label.y + labelHeight / 2)
                    var leader = Path()
                    leader.move(to: label.edge)
                    leader.line(to: Point(label.natural.x - (side ? 6 : -6), end.y))
                    leader.line(to: end)
                    canvas.stroke(leader, style: StrokeStyle(color: theme.muted, width: 0.6))
                }
                canvas.draw(
                    text: context.text.item(
                        label.text, font: context.valueFont, color: theme.text, x: x,
                        top: label.y, anchor: side ? .start : .end))
            }
        }
    }
}
