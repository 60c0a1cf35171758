import FolioGraphics
import FolioModel

/// Geometry of bar charts: grouped or stacked, vertical or CareKit-style horizontal.
struct BarChartLayout {
    let chart: Chart
    let bar: BarChart
    let context: ChartContext

    var theme: Theme { context.theme }
    var text: ChartText { context.text }
    var thresholds: ThresholdPainter { ThresholdPainter(thresholds: chart.thresholds, context: context) }

    func color(ofSeries index: Int) -> Color { bar.series[index].tint ?? theme.seriesColor(index) }

    /// The colour of series `s`'s bar in category `c`: its own tint, else the series colour.
    func color(ofSeries s: Int, category c: Int) -> Color {
        let tints = bar.series[s].tints
        return (tints.flatMap { c < $0.count ? $0[c] : nil }) ?? color(ofSeries: s)
    }

    /// Series `index`'s value label: the value axis format, else the decimals its values need.
    func label(_ value: Double, series index: Int) -> String {
        context.numbers.string(value, format: chart.yAxis.format, fallbackDecimals: seriesDecimals[index])
    }

    /// The text printed at series `s`'s bar in category `c`: the author's value label, else the
    /// formatted value; nil for a missing value without a label.
    func label(series s: Int, category c: Int) -> String? {
        if let labels = bar.series[s].valueLabels, c < labels.count, let text = labels[c] { return text }
        return bar.series[s].value(at: c).map { label($0, series: s) }
    }

    /// Decimals each series' values need, decided once per chart rather than per bar.
    private let seriesDecimals: [Int]
    /// The place of each series among the bars of a category: series in one stack share a slot.
    let slotOfSeries: [Int]
    /// The number of bars (or stacks) side by side in a category.
    let slotCount: Int
    /// The number of series in each slot; a slot of more than one is a stack.
    let slotSizes: [Int]

    init(chart: Chart, bar: BarChart, context: ChartContext) {
        self.chart = chart
        self.bar = bar
        self.context = context
        seriesDecimals = bar.series.map { NumberFormat.decimals(for: $0.values.compactMap { $0 }) }
        var slots: [Int] = []
        var count = 0
        if bar.series.contains(where: { $0.stack != nil }) {
            // Named stacks side by side; a series without a stack name stands alone.
            var stackSlots: [String: Int] = [:]
            for series in bar.series {
                if let name = series.stack, let slot = stackSlots[name] {
                    slots.append(slot)
                    continue
                }
                if let name = series.stack { stackSlots[name] = count }
                slots.append(count)
                count += 1
            }
        } else if bar.stacked {
            slots = bar.series.map { _ in 0 }
            count = bar.series.isEmpty ? 0 : 1
        } else {
            slots = Array(bar.series.indices)
            count = bar.series.count
        }
        slotOfSeries = slots
        slotCount = count
        var sizes = Array(repeating: 0, count: count)
        for slot in slots { sizes[slot] += 1 }
        slotSizes = sizes
    }

    /// Whether series `s` is part of a stack of several series.
    func isStacked(_ s: Int) -> Bool { slotSizes[slotOfSeries[s]] > 1 }

    /// Bottom and top of each bar (nil for a missing value): from zero when alone in its slot,
    /// on top of the previous series of its stack otherwise; cut to the axis range when it clips
    /// (`cut` then says the bar goes on beyond the plot's edge).
    func extents(scale: AxisScale) -> [[(start: Double, end: Double, cut: Bool)?]] {
        let base = chart.yAxis.scale == .log ? scale.lower : 0
        var positive = Array(repeating: Array(repeating: 0.0, count: bar.categories.count), count: slotCount)
        var negative = positive
        return bar.series.enumerated().map { s, series in
            let slot = slotOfSeries[s]
            return bar.categories.indices.map { c in
                guard let value = series.value(at: c) else { return nil }
                guard isStacked(s) else { return (scale.clamped(base), scale.clamped(value), scale.clamped(value) != value) }
                let extent: (Double, Double)
                if value >= 0 {
                    extent = (positive[slot][c], positive[slot][c] + value)
                    positive[slot][c] += value
                } else {
                    extent = (negative[slot][c], negative[slot][c] + value)
                    negative[slot][c] += value
                }
                return (scale.clamped(extent.0), scale.clamped(extent.1), scale.clamped(extent.1) != extent.1)
            }
        }
    }

    /// The sums of each stack in each category: `[slot][category]` (positive, negative, total, and
    /// whether any value is there: a stack of missing values has no total to print).
    func stackTotals() -> [[(positive: Double, negative: Double, total: Double, hasValues: Bool)]] {
        var totals = Array(
            repeating: Array(repeating: (positive: 0.0, negative: 0.0, total: 0.0, hasValues: false), count: bar.categories.count),
            count: slotCount)
        for (s, series) in bar.series.enumerated() {
            for c in bar.categories.indices {
                guard let value = series.value(at: c) else { continue }
                let slot = slotOfSeries[s]
                if value >= 0 { totals[slot][c].positive += value } else { totals[slot][c].negative += value }
                totals[slot][c].total += value
                totals[slot][c].hasValues = true
            }
        }
        return totals
    }

    var valueScale: AxisScale {
        var low = 0.0
        var high = 0.0
        for (slot, totals) in stackTotals().enumerated() where slotSizes[slot] > 1 {
            for sums in totals {
                low = Swift.min(low, sums.negative)
                high = Swift.max(high, sums.positive)
            }
        }
        var first = true
        for (s, series) in bar.series.enumerated() where !isStacked(s) {
            for value in series.values.compactMap({ $0 }) {
                if first && chart.yAxis.scale == .log {
                    (low, high) = (value, value)
                    first = false
                }
                low = Swift.min(low, value)
                high = Swift.max(high, value)
            }
        }
        return AxisScale(low: low, high: high, axis: chart.yAxis, includeZero: true)
    }

    var legend: Legend {
        Legend(
            entries: bar.series.enumerated().compactMap {
                $0.element.title.isEmpty ? nil : Legend.Entry(title: $0.element.title, color: color(ofSeries: $0.offset))
            },
            options: chart.legend, context: context)
    }

    func drawing(width: Double) -> Drawing { layOut(width: width).drawing }

    /// The drawing at `width`, and whether it leaves out value labels (or stack totals) it was asked
    /// for because they do not fit above narrow bars.
    func layOut(width: Double) -> (drawing: Drawing, dropsValueLabels: Bool) {
        let description = ChartDescription.describe(chart, strings: context.strings)
        guard !bar.categories.isEmpty, !bar.series.isEmpty else {
            return (context.noData(width: width, height: chart.height?.points ?? 120, description: description), false)
        }
        let canvas = RecordingCanvas()
        let height: Double
        var drops = false
        switch bar.orientation {
        case .vertical: (height, drops) = drawVertical(on: canvas, width: width)
        case .horizontal: height = drawHorizontal(on: canvas, width: width)
        }
        return (canvas.drawing(size: Size(width, height), description: description), drops)
    }

    /// Two white slanted strokes across `bar` just inside its end at `end` (a y for vertical bars,
    /// an x for horizontal ones): the sign of a bar cut off at the edge of a clipped axis.
    func drawCut(on canvas: Canvas, bar: Rect, atEnd end: Double, vertical: Bool) {
        let style = StrokeStyle(color: .white, width: 1.6)
        if vertical {
            let inward = end <= bar.midY ? 1.0 : -1.0
            for offset in [5.0, 9.0] {
                let y = end + inward * offset
                canvas.line(from: Point(bar.x, y + inward * 2), to: Point(bar.maxX, y - inward * 2), style: style)
            }
        } else {
            let inward = end >= bar.midX ? -1.0 : 1.0
            for offset in [5.0, 9.0] {
                let x = end + inward * offset
                canvas.line(from: Point(x - inward * 2, bar.y), to: Point(x + inward * 2, bar.maxY), style: style)
            }
        }
    }
}
