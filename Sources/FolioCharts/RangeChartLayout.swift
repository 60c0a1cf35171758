import FolioGraphics
import FolioModel

/// ResearchKit's discrete graph: per category a point, a low–high range or several
/// points, plots side by side, optionally connected.
struct RangeChartLayout {
    let chart: Chart
    let range: RangeChart
    let context: ChartContext

    private var theme: Theme { context.theme }
    /// The palette colour of the first plot.
    static let firstPaletteColor = 4
    func color(ofPlot index: Int) -> Color { range.plots[index].tint ?? theme.seriesColor(index + RangeChartLayout.firstPaletteColor) }

    func drawing(width: Double) -> Drawing {
        let description = ChartDescription.describe(chart, strings: context.strings)
        let values = range.plots.flatMap { $0.values.flatMap { $0 } }
        guard !values.isEmpty, !range.categories.isEmpty else {
            return context.noData(width: width, height: chart.height?.points ?? 120, description: description)
        }
        let canvas = RecordingCanvas()
        let thresholdValues = chart.thresholds.flatMap { [$0.value] + ($0.upper.map { [$0] } ?? []) }
        let yScale = AxisScale(
            low: (values + thresholdValues).min() ?? 0, high: (values + thresholdValues).max() ?? 1,
            axis: chart.yAxis, includeZero: false)
        let count = Double(range.categories.count)
        let labels = range.categories.enumerated().map { PlotFrame.XLabel(fraction: (Double($0.offset) + 0.5) / count, text: $0.element) }
        let legend = Legend(
            entries: range.plots.enumerated().map { Legend.Entry(title: $0.element.title, color: color(ofPlot: $0.offset)) },
            options: chart.legend, context: context)
        let frame = PlotFrame(
            context: context, width: width, plotHeight: chart.height?.points ?? 150, topPadding: 6,
            yScale: yScale, yAxis: chart.yAxis, xLabels: labels, xAxis: chart.xAxis, xGrid: false, legend: legend)
        frame.drawBackground(on: canvas)
        let thresholds = ThresholdPainter(thresholds: chart.thresholds, context: context)
        thresholds.draw(on: canvas, frame: frame)

        // What the threshold labels keep clear of: capsules, points and the lines joining them.
        var marks = PlotMarks()
        let band = frame.plot.width / count
        let spread = Swift.min(12, band * 0.6 / Double(range.plots.count))
        for (p, plot) in range.plots.enumerated() {
            let tint = color(ofPlot: p)
            let offset = (Double(p) - Double(range.plots.count - 1) / 2) * spread
            canvas.beginGroup()
            if range.connected {
                var path = Path()
                var started = false
                var joined: [Point] = []
                for (c, entry) in plot.values.enumerated() {
                    guard let low = entry.min(), let high = entry.max() else {
                        started = false
                        marks.add(polyline: joined)
                        joined = []
                        continue
                    }
                    let mid = (low + high) / 2
                    let point = Point(frame.x((Double(c) + 0.5) / count) + offset, frame.y(mid))
                    if started { path.line(to: point) } else { path.move(to: point) }
                    started = true
                    joined.append(point)
                }
                marks.add(polyline: joined)
                canvas.stroke(path, style: StrokeStyle(color: tint.withAlpha(0.55), width: 1.2))
            }
            for (c, entry) in plot.values.enumerated() where !entry.isEmpty {
                let x = frame.x((Double(c) + 0.5) / count) + offset
                let sorted = entry.sorted()
                if sorted.count == 2 && !range.multiplePoints {
                    // A filled capsule (what a 6 pt round-capped stroke covers): a bar, not a rule, so a
                    // checker looking for ruled grids does not take the chart for a table.
                    let top = Swift.min(frame.y(sorted[0]), frame.y(sorted[1]))
                    let bottom = Swift.max(frame.y(sorted[0]), frame.y(sorted[1]))
                    let capsule = Rect(x: x - 3, y: top - 3, width: 6, height: bottom - top + 6)
                    canvas.fill(.roundedRect(capsule, radius: 3), color: tint)
                    marks.add(capsule)
                } else if sorted.count > 1 {
                    canvas.line(
                        from: Point(x, frame.y(sorted[0])), to: Point(x, frame.y(sorted[sorted.count - 1])),
                        style: StrokeStyle(color: tint.withAlpha(0.5), width: 1.2))
                    for value in sorted { canvas.fill(.circle(center: Point(x, frame.y(value)), radius: 3), color: tint) }
                    marks.add(polyline: [Point(x, frame.y(sorted[0])), Point(x, frame.y(sorted[sorted.count - 1]))])
                } else {
                    canvas.fill(.circle(center: Point(x, frame.y(sorted[0])), radius: 3.5), color: tint)
                    marks.add(points: [Point(x, frame.y(sorted[0]))])
                }
                for value in sorted {
                    if let threshold = thresholds.exceeded(value, series: plot.title) {
                        canvas.fill(.circle(center: Point(x, frame.y(value)), radius: 2.2), color: thresholds.color(threshold))
                    }
                }
            }
            canvas.endGroup()
        }
        thresholds.drawLabels(on: canvas, frame: frame, avoiding: marks)
        let height = frame.drawForeground(on: canvas)
        return canvas.drawing(size: Size(width, height), description: description)
    }
}
