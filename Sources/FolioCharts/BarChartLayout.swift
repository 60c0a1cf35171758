import FolioGraphics
import FolioModel

/// Geometry of bar charts: grouped or stacked, vertical or CareKit-style horizontal.
struct BarChartLayout {
    let chart: Chart
    let bar: BarChart
    let context: ChartContext

    private var theme: Theme { context.theme }
    private var text: ChartText { context.text }
    private var thresholds: ThresholdPainter { ThresholdPainter(thresholds: chart.thresholds, context: context) }

    func color(ofSeries index: Int) -> Color { bar.series[index].tint ?? theme.seriesColor(index) }

    /// Series `index`'s value label: the value axis format, else the decimals its values need.
    func label(_ value: Double, series index: Int) -> String {
        context.numbers.string(value, format: chart.yAxis.format, fallbackDecimals: seriesDecimals[index])
    }

    /// Decimals each series' values need, decided once per chart rather than per bar.
    private let seriesDecimals: [Int]

    init(chart: Chart, bar: BarChart, context: ChartContext) {
        self.chart = chart
        self.bar = bar
        self.context = context
        seriesDecimals = bar.series.map { NumberFormat.decimals(for: $0.values) }
    }

    /// Bottom and top of each bar: from zero when grouped, on top of the previous series when stacked.
    func extents() -> [[(start: Double, end: Double)]] {
        var positive = Array(repeating: 0.0, count: bar.categories.count)
        var negative = positive
        return bar.series.map { series in
            series.values.enumerated().map { c, value in
                guard bar.stacked else { return (chart.yAxis.scale == .log ? scaleFloor : 0, value) }
                if value >= 0 {
                    defer { positive[c] += value }
                    return (positive[c], positive[c] + value)
                }
                defer { negative[c] += value }
                return (negative[c], negative[c] + value)
            }
        }
    }

    private var scaleFloor: Double { valueScale.lower }

    var valueScale: AxisScale {
        var low = 0.0
        var high = 0.0
        if bar.stacked {
            for c in bar.categories.indices {
                let values = bar.series.map { $0.values[c] }
                low = Swift.min(low, values.filter { $0 < 0 }.reduce(0, +))
                high = Swift.max(high, values.filter { $0 > 0 }.reduce(0, +))
            }
        } else {
            let values = bar.series.flatMap(\.values)
            low = values.min() ?? 0
            high = values.max() ?? 0
        }
        return AxisScale(low: low, high: high, axis: chart.yAxis, includeZero: true)
    }

    private var legend: Legend {
        Legend(
            entries: bar.series.enumerated().map { Legend.Entry(title: $0.element.title, color: color(ofSeries: $0.offset)) },
            options: chart.legend, context: context)
    }

    func drawing(width: Double) -> Drawing {
        let description = ChartDescription.describe(chart, strings: context.strings)
        guard !bar.categories.isEmpty, !bar.series.isEmpty else {
            return context.noData(width: width, height: chart.height?.points ?? 120, description: description)
        }
        let canvas = RecordingCanvas()
        let height: Double
        switch bar.orientation {
        case .vertical: height = drawVertical(on: canvas, width: width)
        case .horizontal: height = drawHorizontal(on: canvas, width: width)
        }
        return canvas.drawing(size: Size(width, height), description: description)
    }

    // MARK: vertical

    private func drawVertical(on canvas: Canvas, width: Double) -> Double {
        let valueHeight = bar.valueLabels ? context.lineHeight(context.valueFont) : 0
        let count = Double(bar.categories.count)
        let labels = bar.categories.enumerated().map { PlotFrame.XLabel(fraction: (Double($0.offset) + 0.5) / count, text: $0.element) }
        let frame = PlotFrame(
            context: context, width: width, plotHeight: chart.height?.points ?? 170, topPadding: valueHeight + 4,
            yScale: valueScale, yAxis: chart.yAxis, xLabels: labels, xAxis: chart.xAxis, xGrid: false,
            legend: legend)
        frame.drawBackground(on: canvas)
        thresholds.draw(on: canvas, frame: frame)

        let plot = frame.plot
        let groupWidth = plot.width / count
        let inner = groupWidth * 0.76
        let slots = bar.stacked ? 1.0 : Double(bar.series.count)
        let barWidth = inner / slots
        var lowestLabel = plot.maxY
        let extents = self.extents()
        // Labels above side-by-side bars are drawn only when each fits over its own bar (a narrow
        // layout of many groups would overlap them; the values stay in the description and data table).
        let labelsFit =
            bar.stacked
            || bar.series.indices.allSatisfy { s in
                bar.series[s].values.allSatisfy {
                    context.measurer.measure(label($0, series: s), font: context.valueFont).width <= barWidth + 1
                }
            }
        for (s, series) in bar.series.enumerated() {
            canvas.beginGroup(label: series.title)
            let color = color(ofSeries: s)
            for (c, value) in series.values.enumerated() {
                let slot = bar.stacked ? 0 : Double(s)
                let x = plot.x + Double(c) * groupWidth + (groupWidth - inner) / 2 + slot * barWidth
                let (start, end) = extents[s][c]
                let y0 = frame.y(start)
                let y1 = frame.y(end)
                let rect = Rect(x: x + barWidth * 0.06, y: Swift.min(y0, y1), width: barWidth * 0.88, height: abs(y1 - y0))
                canvas.rect(rect, color: color)
                if let threshold = thresholds.exceeded(value, series: series.title) {
                    canvas.stroke(.rect(rect), style: StrokeStyle(color: thresholds.color(threshold), width: 1.5))
                }
                guard bar.valueLabels, labelsFit else { continue }
                let label = self.label(value, series: s)
                if bar.stacked {
                    // Inside the segment, in white, when it fits.
                    let m = context.measurer.measure(label, font: context.valueFont)
                    if rect.height >= m.height + 2, rect.width >= m.width + 2 {
                        canvas.draw(
                            text: text.item(
                                label, font: context.valueFont, color: color.labelColor, x: rect.midX,
                                centerY: rect.midY, anchor: .middle))
                    }
                } else {
                    let labelTop = value >= 0 ? rect.y - valueHeight - 1 : rect.maxY + 1
                    canvas.draw(
                        text: text.item(
                            label, font: context.valueFont, color: color.readable(on: .white), x: rect.midX, top: labelTop,
                            anchor: .middle))
                    lowestLabel = Swift.max(lowestLabel, labelTop + valueHeight)
                }
            }
            canvas.endGroup()
        }
        if bar.stacked && bar.valueLabels {
            // Totals above each stack.
            for c in bar.categories.indices {
                let total = bar.series.reduce(0) { $0 + $1.values[c] }
                let top = bar.series.map { Swift.max($0.values[c], 0) }.reduce(0, +)
                let x = plot.x + (Double(c) + 0.5) * groupWidth
                canvas.draw(
                    text: text.item(
                        context.numbers.string(
                            total, format: chart.yAxis.format,
                            fallbackDecimals: NumberFormat.decimals(for: [total])),
                        font: context.valueFont, color: theme.text, x: x,
                        top: frame.y(top) - valueHeight - 1, anchor: .middle))
            }
        }
        thresholds.drawLabels(on: canvas, frame: frame)
        // Category labels start below the plot and below any label hanging under a negative bar.
        return frame.drawForeground(on: canvas, labelTop: lowestLabel)
    }

    // MARK: horizontal

    private func drawHorizontal(on canvas: Canvas, width: Double) -> Double {
        let scale = valueScale
        let tickLabels = scale.ticks.map { scale.label($0, axis: chart.yAxis, numbers: context.numbers) }
        let lineHeight = context.lineHeight(context.tickFont)
        let subtitleFont = theme.font(theme.smallSize - 1)
        let categoryFont = bar.categorySubtitles == nil ? context.tickFont : context.tickFont.with(bold: true)
        let widestCategory = (bar.categories.map { context.measurer.measure($0, font: categoryFont).width }.max() ?? 0) + 8
        // Names too wide for a column on the left (a narrow layout) go on their own lines above their bars.
        let labelsAbove = widestCategory > width * 0.35
        let tickOverhang = (tickLabels.first.map { context.measurer.measure($0, font: context.tickFont).width } ?? 0) / 2 + 2
        let categoryWidth = labelsAbove ? tickOverhang : widestCategory
        let valueWidth =
            bar.valueLabels
            ? (bar.series.indices.flatMap { s in
                bar.series[s].values.map { context.measurer.measure(label($0, series: s), font: context.valueFont).width }
            }.max() ?? 0) + 6
            : 4
        let legend = self.legend
        let thickness = 10.0
        let barGap = 2.0
        let titleLines = bar.categorySubtitles == nil ? 1.0 : 2.0
        let barsPerRow = bar.stacked ? 1.0 : Double(bar.series.count)
        let rowGap = 10.0
        let barsHeight = barsPerRow * (thickness + barGap) - barGap
        let labelBand = labelsAbove ? lineHeight * titleLines + 2 : 0
        let rowHeight = (labelsAbove ? labelBand + barsHeight : Swift.max(barsHeight, lineHeight * titleLines)) + rowGap
        let top = legend.options.position == .top ? legend.bandHeight(width: width) : 0
        let plot = Rect(
            x: categoryWidth, y: top, width: Swift.max(width - categoryWidth - valueWidth - legend.sideWidth, 40),
            height: Double(bar.categories.count) * rowHeight)
        func x(_ value: Double) -> Double { plot.x + scale.fraction(value) * plot.width }

        canvas.beginGroup(label: "Value axis")
        for (tick, label) in zip(scale.ticks, tickLabels) {
            let tx = x(tick)
            canvas.line(
                from: Point(tx, plot.y), to: Point(tx, plot.maxY),
                style: StrokeStyle(color: tick == 0 ? theme.axis : theme.grid, width: tick == 0 ? 0.8 : 0.5))
            canvas.draw(text: text.item(label, font: context.tickFont, color: theme.muted, x: tx, top: plot.maxY + 4, anchor: .middle))
        }
        for threshold in chart.thresholds {
            let tx = x(threshold.value)
            canvas.line(
                from: Point(tx, plot.y), to: Point(tx, plot.maxY),
                style: StrokeStyle(color: thresholds.color(threshold), width: 1, dash: [4, 3]))
        }
        canvas.endGroup()

        for (c, category) in bar.categories.enumerated() {
            let rowTop = plot.y + Double(c) * rowHeight + rowGap / 2
            let center = labelsAbove ? rowTop + labelBand / 2 : rowTop + (rowHeight - rowGap) / 2
            if let subtitle = bar.categorySubtitles?[c] {
                canvas.draw(
                    text: text.item(
                        category, font: categoryFont, color: theme.text, x: 0,
                        top: center - lineHeight))
                canvas.draw(text: text.item(subtitle, font: subtitleFont, color: theme.muted, x: 0, top: center))
            } else {
                canvas.draw(text: text.item(category, font: context.tickFont, color: theme.text, x: 0, centerY: center))
            }
        }
        let extents = self.extents()
        for (s, series) in bar.series.enumerated() {
            canvas.beginGroup(label: series.title)
            let color = color(ofSeries: s)
            for (c, value) in series.values.enumerated() {
                let slot = bar.stacked ? 0 : Double(s)
                let barsOffset: Double = rowGap / 2 + labelBand + (rowHeight - rowGap - labelBand - barsHeight) / 2
                let rowTop = plot.y + Double(c) * rowHeight + barsOffset
                let top = rowTop + slot * (thickness + barGap)
                let (start, end) = extents[s][c]
                let rect = Rect(x: Swift.min(x(start), x(end)), y: top, width: abs(x(end) - x(start)), height: thickness)
                canvas.rect(rect, color: color)
                if bar.valueLabels && !bar.stacked {
                    canvas.draw(
                        text: text.item(
                            label(value, series: s), font: context.valueFont, color: color.readable(on: .white),
                            x: value >= 0 ? rect.maxX + 3 : rect.x - 3, centerY: rect.midY,
                            anchor: value >= 0 ? .start : .end))
                }
            }
            canvas.endGroup()
        }

        var cursor = plot.maxY + 4 + lineHeight
        if let title = chart.yAxis.title {
            cursor += 3
            canvas.draw(
                text: text.item(
                    title, font: context.axisTitleFont, color: theme.muted, x: plot.midX, top: cursor,
                    anchor: .middle))
            cursor += context.lineHeight(context.axisTitleFont)
        }
        cursor = legend.draw(on: canvas, below: cursor, width: width, sideX: plot.maxX + valueWidth - 6, centerY: plot.midY)
        return cursor + 2
    }
}
