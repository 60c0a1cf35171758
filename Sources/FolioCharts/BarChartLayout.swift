import FolioGraphics
import FolioModel

/// Geometry of a grouped bar chart, vertical or CareKit-style horizontal.
struct BarChartLayout {
    let chart: Chart
    let bar: BarChart
    let measurer: TextMeasurer
    let theme: Theme

    private var text: ChartText { ChartText(measurer: measurer) }
    private var tickFont: FontSpec { theme.font(theme.smallSize) }
    private var valueFont: FontSpec { theme.font(theme.smallSize - 0.5, bold: true) }
    private var titleFont: FontSpec { theme.font(theme.smallSize + 0.5) }

    var allValues: [Double] { bar.series.flatMap(\.values) }

    /// Decimals of series `index`'s value labels: as given, else what its values need.
    func decimals(ofSeries index: Int) -> Int { bar.decimals ?? NumberFormat.decimals(for: bar.series[index].values) }

    /// The value axis: the data range with zero, widened by explicit min/max.
    var scale: NiceScale {
        let values = allValues
        let low = Swift.min(0, values.min() ?? 0, bar.min ?? 0)
        let high = Swift.max(0, values.max() ?? 0, bar.max ?? 0)
        return NiceScale(low: low, high: high)
    }

    func color(ofSeries index: Int) -> Color { bar.series[index].tint ?? theme.seriesColor(index) }

    private var legend: Legend {
        Legend(entries: bar.legend ? bar.series.enumerated().map { ($0.element.title, color(ofSeries: $0.offset)) } : [],
               font: tickFont, textColor: theme.text, text: text)
    }

    func drawing(width: Double) -> Drawing {
        let canvas = RecordingCanvas()
        let height: Double
        switch bar.orientation {
        case .vertical: height = drawVertical(on: canvas, width: width)
        case .horizontal: height = drawHorizontal(on: canvas, width: width)
        }
        return canvas.drawing(size: Size(width, height), description: ChartDescription.bar(chart: chart, bar: bar))
    }

    // MARK: vertical

    private func drawVertical(on canvas: Canvas, width: Double) -> Double {
        let scale = self.scale
        let tickLabels = scale.ticks.map { NumberFormat.string($0, decimals: scale.tickDecimals) }
        let tickWidth = tickLabels.map { text.metrics($0, tickFont).width }.max() ?? 0
        let lineHeight = text.metrics("Ag", tickFont).height
        let axisTitleHeight = text.metrics("Ag", titleFont).height
        let valueHeight = bar.valueLabels ? text.metrics("0", valueFont).height : 0

        let left = (bar.yAxisTitle != nil ? axisTitleHeight + 4 : 0) + tickWidth + 6
        let plotHeight = chart.height?.points ?? 170
        let plot = Rect(x: left, y: valueHeight + 4, width: Swift.max(width - left - 4, 40), height: plotHeight)
        func y(_ value: Double) -> Double { plot.maxY - scale.fraction(value) * plot.height }

        // Grid and value axis.
        canvas.beginGroup(label: "Value axis")
        for (tick, label) in zip(scale.ticks, tickLabels) {
            let ty = y(tick)
            canvas.line(from: Point(plot.x, ty), to: Point(plot.maxX, ty),
                        style: StrokeStyle(color: tick == 0 ? theme.axis : theme.grid, width: tick == 0 ? 0.8 : 0.5))
            canvas.draw(text: text.item(label, font: tickFont, color: theme.muted, x: plot.x - 6, centerY: ty, anchor: .end))
        }
        if let title = bar.yAxisTitle {
            canvas.draw(text: text.verticalItem(title, font: titleFont, color: theme.muted,
                                                center: Point(axisTitleHeight / 2, plot.midY)))
        }
        canvas.endGroup()

        // Bars, grouped by category.
        let groupWidth = plot.width / Double(bar.categories.count)
        let inner = groupWidth * 0.76
        let barWidth = inner / Double(bar.series.count)
        let zeroY = y(0)
        var lowestLabel = plot.maxY
        for (s, series) in bar.series.enumerated() {
            canvas.beginGroup(label: series.title)
            let color = color(ofSeries: s)
            for (c, value) in series.values.enumerated() {
                let x = plot.x + Double(c) * groupWidth + (groupWidth - inner) / 2 + Double(s) * barWidth
                let top = Swift.min(y(value), zeroY)
                let rect = Rect(x: x + barWidth * 0.06, y: top, width: barWidth * 0.88, height: abs(y(value) - zeroY))
                canvas.rect(rect, color: color)
                if bar.valueLabels {
                    let label = NumberFormat.string(value, decimals: decimals(ofSeries: s))
                    let labelTop = value >= 0 ? rect.y - valueHeight - 1 : rect.maxY + 1
                    canvas.draw(text: text.item(label, font: valueFont, color: color, x: rect.midX, top: labelTop,
                                                anchor: .middle))
                    lowestLabel = Swift.max(lowestLabel, labelTop + valueHeight)
                }
            }
            canvas.endGroup()
        }

        // Category axis, thinned so labels never overlap.
        // Category labels start below the plot and below any label hanging under a negative bar.
        var cursor = lowestLabel + 4
        let labelWidths = bar.categories.map { text.metrics($0, tickFont).width }
        let stride = Swift.max(1, Int(((labelWidths.max() ?? 0) + 4) / groupWidth) + 1)
        canvas.beginGroup(label: "Category axis")
        for (c, category) in bar.categories.enumerated() where c % stride == 0 {
            canvas.draw(text: text.item(category, font: tickFont, color: theme.text,
                                        x: plot.x + (Double(c) + 0.5) * groupWidth, top: cursor, anchor: .middle))
        }
        cursor += lineHeight
        if let title = bar.xAxisTitle {
            cursor += 3
            canvas.draw(text: text.item(title, font: titleFont, color: theme.muted, x: plot.midX, top: cursor, anchor: .middle))
            cursor += axisTitleHeight
        }
        canvas.endGroup()
        return finishWithLegend(on: canvas, top: cursor, width: width)
    }

    // MARK: horizontal

    private func drawHorizontal(on canvas: Canvas, width: Double) -> Double {
        let scale = self.scale
        let tickLabels = scale.ticks.map { NumberFormat.string($0, decimals: scale.tickDecimals) }
        let lineHeight = text.metrics("Ag", tickFont).height
        let axisTitleHeight = text.metrics("Ag", titleFont).height
        let categoryWidth = Swift.min((bar.categories.map { text.metrics($0, tickFont).width }.max() ?? 0) + 8, width * 0.35)
        let valueWidth = bar.valueLabels
            ? (bar.series.indices.flatMap { s in
                bar.series[s].values.map { text.metrics(NumberFormat.string($0, decimals: decimals(ofSeries: s)), valueFont).width }
              }.max() ?? 0) + 6
            : 4
        let thickness = 10.0, barGap = 2.0, rowGap = 8.0
        let rowHeight = Double(bar.series.count) * (thickness + barGap) - barGap + rowGap
        let plot = Rect(x: categoryWidth, y: 0, width: Swift.max(width - categoryWidth - valueWidth, 40),
                        height: Double(bar.categories.count) * rowHeight)
        func x(_ value: Double) -> Double { plot.x + scale.fraction(value) * plot.width }

        canvas.beginGroup(label: "Value axis")
        for (tick, label) in zip(scale.ticks, tickLabels) {
            let tx = x(tick)
            canvas.line(from: Point(tx, plot.y), to: Point(tx, plot.maxY),
                        style: StrokeStyle(color: tick == 0 ? theme.axis : theme.grid, width: tick == 0 ? 0.8 : 0.5))
            canvas.draw(text: text.item(label, font: tickFont, color: theme.muted, x: tx, top: plot.maxY + 4, anchor: .middle))
        }
        canvas.endGroup()

        let zeroX = x(0)
        for (c, category) in bar.categories.enumerated() {
            let rowTop = plot.y + Double(c) * rowHeight + rowGap / 2
            canvas.draw(text: text.item(category, font: tickFont, color: theme.text, x: 0,
                                        centerY: rowTop + (rowHeight - rowGap) / 2))
        }
        for (s, series) in bar.series.enumerated() {
            canvas.beginGroup(label: series.title)
            let color = color(ofSeries: s)
            for (c, value) in series.values.enumerated() {
                let top = plot.y + Double(c) * rowHeight + rowGap / 2 + Double(s) * (thickness + barGap)
                let end = x(value)
                let rect = Rect(x: Swift.min(end, zeroX), y: top, width: abs(end - zeroX), height: thickness)
                canvas.rect(rect, color: color)
                if bar.valueLabels {
                    let label = NumberFormat.string(value, decimals: decimals(ofSeries: s))
                    canvas.draw(text: text.item(label, font: valueFont, color: color,
                                                x: value >= 0 ? rect.maxX + 3 : rect.x - 3, centerY: rect.midY,
                                                anchor: value >= 0 ? .start : .end))
                }
            }
            canvas.endGroup()
        }

        var cursor = plot.maxY + 4 + lineHeight
        if let title = bar.xAxisTitle {
            cursor += 3
            canvas.draw(text: text.item(title, font: titleFont, color: theme.muted, x: plot.midX, top: cursor, anchor: .middle))
            cursor += axisTitleHeight
        }
        return finishWithLegend(on: canvas, top: cursor, width: width)
    }

    private func finishWithLegend(on canvas: Canvas, top: Double, width: Double) -> Double {
        let legend = self.legend
        let legendHeight = legend.height(width: width)
        guard legendHeight > 0 else { return top + 2 }
        legend.draw(on: canvas, x: 0, top: top + 8, width: width)
        return top + 8 + legendHeight
    }
}
