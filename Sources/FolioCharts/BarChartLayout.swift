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
    private let slotSizes: [Int]

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
    private func isStacked(_ s: Int) -> Bool { slotSizes[slotOfSeries[s]] > 1 }

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
    private func stackTotals() -> [[(positive: Double, negative: Double, total: Double, hasValues: Bool)]] {
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

    private var legend: Legend {
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
    private func drawCut(on canvas: Canvas, bar: Rect, atEnd end: Double, vertical: Bool) {
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

    // MARK: vertical

    private func drawVertical(on canvas: Canvas, width: Double) -> (height: Double, dropsValueLabels: Bool) {
        let valueHeight = bar.valueLabels ? context.lineHeight(context.valueFont) : 0
        let count = Double(bar.categories.count)
        let labels = bar.categories.enumerated().map { PlotFrame.XLabel(fraction: (Double($0.offset) + 0.5) / count, text: $0.element) }
        let scale = valueScale
        let frame = PlotFrame(
            context: context, width: width, plotHeight: chart.height?.points ?? 170, topPadding: valueHeight + 4,
            yScale: scale, yAxis: chart.yAxis, xLabels: labels, xAxis: chart.xAxis, xGrid: false,
            legend: legend)
        frame.drawBackground(on: canvas)
        thresholds.draw(on: canvas, frame: frame)

        let plot = frame.plot
        let groupWidth = plot.width / count
        let inner = groupWidth * 0.76
        let barWidth = inner / Double(Swift.max(slotCount, 1))
        var lowestLabel = plot.maxY
        let extents = self.extents(scale: scale)
        // Labels above bars are drawn only when each fits the room it has: its bar's slot when bars
        // stand side by side, the whole category when there is one bar per category (a narrow layout
        // of many groups would overlap them; the values stay in the description and data table).
        let labelRoom = slotCount == 1 ? groupWidth - 2 : barWidth + 1
        let labelsFit = bar.series.indices.allSatisfy { s in
            isStacked(s)
                || bar.categories.indices.allSatisfy { c in
                    label(series: s, category: c).map {
                        context.measurer.measure($0, font: context.valueFont).width <= labelRoom
                    } ?? true
                }
        }
        // What the threshold labels keep clear of: bars and the labels over them.
        var marks = PlotMarks()
        for (s, series) in bar.series.enumerated() {
            canvas.beginGroup()
            let slot = Double(slotOfSeries[s])
            for c in bar.categories.indices {
                let x = plot.x + Double(c) * groupWidth + (groupWidth - inner) / 2 + slot * barWidth
                let color = color(ofSeries: s, category: c)
                var rect = Rect(x: x + barWidth * 0.06, y: frame.y(scale.clamped(0)), width: barWidth * 0.88, height: 0)
                if let (start, end, cut) = extents[s][c], let value = series.value(at: c) {
                    let y0 = frame.y(start)
                    let y1 = frame.y(end)
                    rect = Rect(x: rect.x, y: Swift.min(y0, y1), width: rect.width, height: abs(y1 - y0))
                    canvas.rect(rect, color: color)
                    marks.add(rect)
                    if cut, rect.height > 14 { drawCut(on: canvas, bar: rect, atEnd: y1, vertical: true) }
                    if let threshold = thresholds.exceeded(value, series: series.title) {
                        canvas.stroke(.rect(rect), style: StrokeStyle(color: thresholds.color(threshold), width: 1.5))
                    }
                }
                guard bar.valueLabels, labelsFit, let label = label(series: s, category: c) else { continue }
                let value = series.value(at: c)
                if isStacked(s) {
                    // Inside the segment, in white, when it fits.
                    let m = context.measurer.measure(label, font: context.valueFont)
                    if rect.height >= m.height + 2, rect.width >= m.width + 2 {
                        canvas.draw(
                            text: text.item(
                                label, font: context.valueFont, color: color.labelColor, x: rect.midX,
                                centerY: rect.midY, anchor: .middle))
                    }
                } else {
                    // A missing value's label (such as "N/A") sits on the base line, in muted text.
                    let labelTop = (value ?? 0) >= 0 ? rect.y - valueHeight - 1 : rect.maxY + 1
                    let item = text.item(
                        label, font: context.valueFont, color: value == nil ? theme.muted : color.readable(on: .white),
                        x: rect.midX, top: labelTop, anchor: .middle)
                    canvas.draw(text: item)
                    marks.add(item.frame)
                    lowestLabel = Swift.max(lowestLabel, labelTop + valueHeight)
                }
            }
            canvas.endGroup()
        }
        var totalsDropped = false
        if bar.valueLabels {
            // Totals above each stack.
            for (slot, totals) in stackTotals().enumerated() where slotSizes[slot] > 1 {
                let texts = totals.map {
                    $0.hasValues
                        ? context.numbers.string(
                            $0.total, format: chart.yAxis.format, fallbackDecimals: NumberFormat.decimals(for: [$0.total])) : ""
                }
                // Totals are printed only when each fits the room of its stack.
                guard texts.allSatisfy({ context.measurer.measure($0, font: context.valueFont).width <= labelRoom }) else {
                    totalsDropped = true
                    continue
                }
                for (c, sums) in totals.enumerated() where sums.hasValues {
                    let x = plot.x + Double(c) * groupWidth + (groupWidth - inner) / 2 + (Double(slot) + 0.5) * barWidth
                    let item = text.item(
                        texts[c], font: context.valueFont, color: theme.text, x: x,
                        top: frame.y(scale.clamped(sums.positive)) - valueHeight - 1, anchor: .middle)
                    canvas.draw(text: item)
                    marks.add(item.frame)
                }
            }
        }
        let notes: [(point: Point, text: String)] = chart.annotations.compactMap { annotation in
            chart.annotationPoint(annotation).map { at in
                (Point(plot.x + (at.x + 0.5) * groupWidth, frame.y(scale.clamped(at.y))), annotation.text)
            }
        }
        AnnotationPainter(context: context).draw(notes, within: plot, avoiding: marks, on: canvas)
        thresholds.drawLabels(on: canvas, frame: frame, avoiding: marks)
        // Category labels start below the plot and below any label hanging under a negative bar.
        return (frame.drawForeground(on: canvas, labelTop: lowestLabel), bar.valueLabels && (!labelsFit || totalsDropped))
    }

    // MARK: horizontal

    private func drawHorizontal(on canvas: Canvas, width: Double) -> Double {
        let scale = valueScale
        let tickLabels = scale.labels(axis: chart.yAxis, numbers: context.numbers)
        let lineHeight = context.lineHeight(context.tickFont)
        let subtitleFont = theme.font(theme.smallSize - 1)
        let categoryFont = bar.categorySubtitles == nil ? context.tickFont : context.tickFont.with(bold: true)
        let widestCategory = (bar.categories.map { context.measurer.measure($0, font: categoryFont).width }.max() ?? 0) + 8
        // Names too wide for a column on the left (a narrow layout) go on their own lines above their bars.
        let labelsAbove = widestCategory > width * 0.35
        let tickOverhang = (tickLabels.first.map { context.measurer.measure($0, font: context.tickFont).width } ?? 0) / 2 + 2
        let categoryWidth = labelsAbove ? tickOverhang : widestCategory
        /// The widest value label of bars that end on the `negative` side (left) or the other.
        func widestLabel(negative: Bool) -> Double? {
            guard bar.valueLabels else { return nil }
            return bar.series.indices.flatMap { s in
                bar.categories.indices.compactMap { c -> Double? in
                    guard ((bar.series[s].value(at: c) ?? 0) < 0) == negative else { return nil }
                    return label(series: s, category: c).map { context.measurer.measure($0, font: context.valueFont).width }
                }
            }.max()
        }
        let valueWidth = widestLabel(negative: false).map { $0 + 6 } ?? 4
        // A negative bar's label goes left of its end: room for it before the plot, not over the names.
        let negativeWidth = widestLabel(negative: true).map { $0 + 6 } ?? 0
        let legend = self.legend
        let thickness = 10.0
        let barGap = 2.0
        let titleLines = bar.categorySubtitles == nil ? 1.0 : 2.0
        let barsPerRow = Double(slotCount)
        let rowGap = 10.0
        let barsHeight = barsPerRow * (thickness + barGap) - barGap
        let labelBand = labelsAbove ? lineHeight * titleLines + 2 : 0
        let rowHeight = (labelsAbove ? labelBand + barsHeight : Swift.max(barsHeight, lineHeight * titleLines)) + rowGap
        // Threshold labels stand in a band above the rows, each over its line.
        let thresholdFont = context.tickFont.with(bold: true)
        let thresholdBand = chart.thresholds.contains { $0.label != nil } ? context.lineHeight(thresholdFont) + 2 : 0
        let top = (legend.options.position == .top ? legend.bandHeight(width: width) : 0) + thresholdBand
        let plot = Rect(
            x: categoryWidth + negativeWidth, y: top,
            width: Swift.max(width - categoryWidth - negativeWidth - valueWidth - legend.sideWidth, 40),
            height: Double(bar.categories.count) * rowHeight)
        func x(_ value: Double) -> Double { plot.x + scale.fraction(value) * plot.width }

        canvas.beginGroup()
        // The gridlines are one path (one stroke), as in `PlotFrame`: a chart's grid, not a table's rules.
        var grid = Path()
        for tick in scale.ticks where tick != 0 {
            grid.move(to: Point(x(tick), plot.y))
            grid.line(to: Point(x(tick), plot.maxY))
        }
        if !grid.elements.isEmpty { canvas.stroke(grid, style: StrokeStyle(color: theme.grid, width: 0.5)) }
        // Every tick's label where they stand apart, else every second (third, …) one: a narrow
        // chart's "-4.00-2.000.00" ran together.
        let tickWidths: [Double] = tickLabels.map { context.measurer.measure($0, font: context.tickFont).width }
        let tickXs: [Double] = scale.ticks.map { x($0) }
        func standApart(every step: Int) -> Bool {
            stride(from: step, to: tickXs.count, by: step).allSatisfy { (i: Int) -> Bool in
                let gap: Double = tickXs[i] - tickXs[i - step]
                return gap >= (tickWidths[i] + tickWidths[i - step]) / 2 + 4
            }
        }
        let every: Int = (1...Swift.max(tickXs.count, 1)).first(where: standApart(every:)) ?? 1
        for (index, (tick, label)) in zip(scale.ticks, tickLabels).enumerated() {
            let tx = x(tick)
            if tick == 0 {
                canvas.line(from: Point(tx, plot.y), to: Point(tx, plot.maxY), style: StrokeStyle(color: theme.axis, width: 0.8))
            }
            guard index % every == 0 else { continue }
            canvas.draw(text: text.item(label, font: context.tickFont, color: theme.muted, x: tx, top: plot.maxY + 4, anchor: .middle))
        }
        for threshold in chart.thresholds {
            let tx = x(threshold.value)
            canvas.line(
                from: Point(tx, plot.y - thresholdBand), to: Point(tx, plot.maxY),
                style: StrokeStyle(color: thresholds.color(threshold), width: 1, dash: [4, 3]))
            guard let label = threshold.label else { continue }
            // Beside its line's top, on the side with room (toward the plot's middle).
            let leftOfLine = tx > plot.midX
            canvas.draw(
                text: text.item(
                    label, font: thresholdFont, color: thresholds.color(threshold).readable(on: .white),
                    x: leftOfLine ? tx - 3 : tx + 3, top: plot.y - thresholdBand, anchor: leftOfLine ? .end : .start))
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
        let extents = self.extents(scale: scale)
        let barsOffset: Double = rowGap / 2 + labelBand + (rowHeight - rowGap - labelBand - barsHeight) / 2
        // What the notes keep clear of: bars and their value labels.
        var marks = PlotMarks()
        for (s, series) in bar.series.enumerated() {
            canvas.beginGroup()
            let slot = Double(slotOfSeries[s])
            for c in bar.categories.indices {
                let color = color(ofSeries: s, category: c)
                let top = plot.y + Double(c) * rowHeight + barsOffset + slot * (thickness + barGap)
                var rect = Rect(x: x(scale.clamped(0)), y: top, width: 0, height: thickness)
                let value = series.value(at: c)
                if let (start, end, cut) = extents[s][c] {
                    rect = Rect(x: Swift.min(x(start), x(end)), y: top, width: abs(x(end) - x(start)), height: thickness)
                    canvas.rect(rect, color: color)
                    marks.add(rect)
                    if cut, rect.width > 14 { drawCut(on: canvas, bar: rect, atEnd: x(end), vertical: false) }
                }
                guard bar.valueLabels, !isStacked(s), let label = label(series: s, category: c) else { continue }
                let item = text.item(
                    label, font: context.valueFont, color: value == nil ? theme.muted : color.readable(on: .white),
                    x: (value ?? 0) >= 0 ? rect.maxX + 3 : rect.x - 3, centerY: rect.midY,
                    anchor: (value ?? 0) >= 0 ? .start : .end)
                canvas.draw(text: item)
                marks.add(item.frame)
            }
            canvas.endGroup()
        }
        if bar.valueLabels {
            // Totals at the end of each stack.
            for (slot, totals) in stackTotals().enumerated() where slotSizes[slot] > 1 {
                for (c, sums) in totals.enumerated() where sums.hasValues {
                    let top = plot.y + Double(c) * rowHeight + barsOffset + Double(slot) * (thickness + barGap)
                    canvas.draw(
                        text: text.item(
                            context.numbers.string(
                                sums.total, format: chart.yAxis.format,
                                fallbackDecimals: NumberFormat.decimals(for: [sums.total])),
                            font: context.valueFont, color: theme.text, x: x(scale.clamped(sums.positive)) + 3,
                            centerY: top + thickness / 2))
                }
            }
        }
        // Notes point at the bar's end in its row's middle.
        let notes: [(point: Point, text: String)] = chart.annotations.compactMap { annotation in
            chart.annotationPoint(annotation).map { at in
                let rowTop = plot.y + at.x * rowHeight + rowGap / 2
                let middle = labelsAbove ? rowTop + labelBand + (rowHeight - rowGap - labelBand) / 2 : rowTop + (rowHeight - rowGap) / 2
                return (Point(x(scale.clamped(at.y)), middle), annotation.text)
            }
        }
        AnnotationPainter(context: context).draw(notes, within: plot, avoiding: marks, on: canvas)

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
