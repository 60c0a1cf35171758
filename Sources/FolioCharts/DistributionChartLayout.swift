import FolioGraphics
import FolioModel

/// Distributions on a value axis. A box plot draws per group a box from the lower to the upper
/// quartile with the median across it, whiskers with caps to the furthest values within 1.5
/// interquartile ranges, and each outlier as a ring. A histogram draws a bar per bin, the bars
/// touching, the bins' edges on the x axis and the counts on the y axis.
struct DistributionChartLayout {
    let chart: Chart
    let context: ChartContext

    private var theme: Theme { context.theme }

    func boxPlot(_ boxes: BoxPlotChart, width: Double) -> Drawing {
        let description = ChartDescription.describe(chart, strings: context.strings)
        let statistics = boxes.groups.map { BoxStatistics($0.values) }
        let values = statistics.compactMap { $0 }.flatMap { [$0.minimum, $0.maximum] }
        guard let low = values.min(), let high = values.max() else {
            return context.noData(width: width, height: chart.height?.points ?? 120, description: description)
        }
        let canvas = RecordingCanvas()
        let count = Double(boxes.groups.count)
        let yScale = AxisScale(low: low, high: high, axis: chart.yAxis, includeZero: false)
        let labels = boxes.groups.enumerated().map { PlotFrame.XLabel(fraction: (Double($0.offset) + 0.5) / count, text: $0.element.title) }
        let frame = PlotFrame(
            context: context, width: width, plotHeight: chart.height?.points ?? 170, topPadding: 6, yScale: yScale, yAxis: chart.yAxis,
            xLabels: labels, xAxis: chart.xAxis, xGrid: false, legend: Legend(entries: [], options: chart.legend, context: context))
        frame.drawBackground(on: canvas)
        ThresholdPainter(thresholds: chart.thresholds, context: context).draw(on: canvas, frame: frame)
        let band = frame.plot.width / count
        let boxWidth = Swift.min(band * 0.5, 48)
        for (index, group) in boxes.groups.enumerated() {
            guard let stats = statistics[index] else { continue }
            let tint = group.tint ?? theme.seriesColor(index)
            let x = frame.x((Double(index) + 0.5) / count)
            canvas.beginGroup()
            let whisker = StrokeStyle(color: tint, width: 1.2)
            canvas.line(from: Point(x, frame.y(stats.upperWhisker)), to: Point(x, frame.y(stats.upperQuartile)), style: whisker)
            canvas.line(from: Point(x, frame.y(stats.lowerQuartile)), to: Point(x, frame.y(stats.lowerWhisker)), style: whisker)
            for end in [stats.lowerWhisker, stats.upperWhisker] {
                canvas.line(from: Point(x - boxWidth / 4, frame.y(end)), to: Point(x + boxWidth / 4, frame.y(end)), style: whisker)
            }
            let top = frame.y(stats.upperQuartile)
            let box = Rect(x: x - boxWidth / 2, y: top, width: boxWidth, height: Swift.max(frame.y(stats.lowerQuartile) - top, 1))
            canvas.fill(.rect(box), color: tint.lightened(0.75))
            canvas.stroke(.rect(box), style: StrokeStyle(color: tint, width: 1.2))
            canvas.line(
                from: Point(box.x, frame.y(stats.median)), to: Point(box.maxX, frame.y(stats.median)),
                style: StrokeStyle(color: theme.text, width: 2.2))
            for outlier in stats.outliers {
                canvas.stroke(.circle(center: Point(x, frame.y(outlier)), radius: 2.8), style: StrokeStyle(color: tint, width: 1.2))
            }
            canvas.endGroup()
        }
        let height = frame.drawForeground(on: canvas)
        return canvas.drawing(size: Size(width, height), description: description)
    }

    func histogram(_ histogram: HistogramChart, width: Double) -> Drawing {
        let description = ChartDescription.describe(chart, strings: context.strings)
        guard let bins = HistogramBins(histogram) else {
            return context.noData(width: width, height: chart.height?.points ?? 120, description: description)
        }
        let canvas = RecordingCanvas()
        let count = Double(bins.counts.count)
        let yScale = AxisScale(low: 0, high: Double(bins.counts.max() ?? 1), axis: chart.yAxis, includeZero: true)
        // Each bin's start under its left edge, and the last bin's end.
        let written = ColumnFormat(chart.xAxis.format, values: (0...bins.counts.count).map(bins.lower), numbers: context.numbers)
        let labels = (0...bins.counts.count).map { PlotFrame.XLabel(fraction: Double($0) / count, text: written(bins.lower($0))) }
        let frame = PlotFrame(
            context: context, width: width, plotHeight: chart.height?.points ?? 170, topPadding: 6, yScale: yScale, yAxis: chart.yAxis,
            xLabels: labels, xAxis: chart.xAxis, xGrid: false, legend: Legend(entries: [], options: chart.legend, context: context))
        frame.drawBackground(on: canvas)
        let tint = histogram.tint ?? theme.seriesColor(0)
        canvas.beginGroup()
        for (index, value) in bins.counts.enumerated() where value > 0 {
            let left = frame.x(Double(index) / count)
            let right = frame.x(Double(index + 1) / count)
            let top = frame.y(Double(value))
            // Touching bars, a white hairline between them so each bin is seen.
            canvas.rect(Rect(x: left, y: top, width: right - left, height: frame.plot.maxY - top), color: tint)
            canvas.line(from: Point(right, top), to: Point(right, frame.plot.maxY), style: StrokeStyle(color: .white, width: 0.8))
        }
        canvas.endGroup()
        ThresholdPainter(thresholds: chart.thresholds, context: context).draw(on: canvas, frame: frame)
        let height = frame.drawForeground(on: canvas)
        return canvas.drawing(size: Size(width, height), description: description)
    }
}
