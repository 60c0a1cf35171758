import FolioGraphics
import FolioModel

/// CareKit-style horizontal bars: a row per category, its name on the left (or above its bars
/// when names are too wide), bars extending from zero, value labels at their ends.
extension BarChartLayout {
    /// Where a horizontal bar chart's parts go: the plot, the rows and their bands, the fonts.
    struct HorizontalRows {
        let plot: Rect
        let legend: Legend
        let lineHeight: Double
        let categoryFont: FontSpec
        let subtitleFont: FontSpec
        let thresholdFont: FontSpec
        /// The band above the rows that threshold labels stand in (0 without labels).
        let thresholdBand: Double
        /// Whether category names stand on lines of their own above their bars.
        let labelsAbove: Bool
        /// The band of a row its name takes when names stand above the bars (else 0).
        let labelBand: Double
        let rowHeight: Double
        let rowGap = 10.0
        let thickness = 10.0
        let barGap = 2.0
        /// The height of a row's bars, one slot under another.
        let barsHeight: Double
        /// The room right of the plot for value labels.
        let valueWidth: Double
        let scale: AxisScale

        /// The rows of `layout` at `width` with its value axis `scale`, whose tick labels are `tickLabels`.
        init(_ layout: BarChartLayout, width: Double, scale: AxisScale, tickLabels: [String]) {
            let context = layout.context
            let bar = layout.bar
            self.scale = scale
            legend = layout.legend
            lineHeight = context.lineHeight(context.tickFont)
            subtitleFont = layout.theme.font(layout.theme.smallSize - 1)
            categoryFont = bar.categorySubtitles == nil ? context.tickFont : context.tickFont.with(bold: true)
            let categoryFont = categoryFont
            let widestCategory = (bar.categories.map { context.measurer.measure($0, font: categoryFont).width }.max() ?? 0) + 8
            // Names too wide for a column on the left (a narrow layout) go on their own lines above their bars.
            labelsAbove = widestCategory > width * 0.35
            let tickOverhang = (tickLabels.first.map { context.measurer.measure($0, font: context.tickFont).width } ?? 0) / 2 + 2
            let categoryWidth = labelsAbove ? tickOverhang : widestCategory
            valueWidth = layout.widestHorizontalLabel(negative: false).map { $0 + 6 } ?? 4
            // A negative bar's label goes left of its end: room for it before the plot, not over the names.
            let negativeWidth = layout.widestHorizontalLabel(negative: true).map { $0 + 6 } ?? 0
            let titleLines = bar.categorySubtitles == nil ? 1.0 : 2.0
            let barsPerRow = Double(layout.slotCount)
            barsHeight = barsPerRow * (thickness + barGap) - barGap
            labelBand = labelsAbove ? lineHeight * titleLines + 2 : 0
            rowHeight = (labelsAbove ? labelBand + barsHeight : Swift.max(barsHeight, lineHeight * titleLines)) + rowGap
            // Threshold labels stand in a band above the rows, each over its line.
            thresholdFont = context.tickFont.with(bold: true)
            thresholdBand = layout.chart.thresholds.contains { $0.label != nil } ? context.lineHeight(thresholdFont) + 2 : 0
            let top = (legend.options.position == .top ? legend.bandHeight(width: width) : 0) + thresholdBand
            plot = Rect(
                x: categoryWidth + negativeWidth, y: top,
                width: Swift.max(width - categoryWidth - negativeWidth - valueWidth - legend.sideWidth, 40),
                height: Double(bar.categories.count) * rowHeight)
        }

        /// The x of `value` on the plot.
        func x(_ value: Double) -> Double { plot.x + scale.fraction(value) * plot.width }

        /// How far below a row's top its first bar starts.
        var barsOffset: Double { rowGap / 2 + labelBand + (rowHeight - rowGap - labelBand - barsHeight) / 2 }
    }

    /// The widest value label of bars that end on the `negative` side (left) or the other.
    func widestHorizontalLabel(negative: Bool) -> Double? {
        guard bar.valueLabels else { return nil }
        return bar.series.indices.flatMap { s in
            bar.categories.indices.compactMap { c -> Double? in
                guard ((bar.series[s].value(at: c) ?? 0) < 0) == negative else { return nil }
                return label(series: s, category: c).map { context.measurer.measure($0, font: context.valueFont).width }
            }
        }.max()
    }

    /// Draws the chart; returns its height.
    func drawHorizontal(on canvas: Canvas, width: Double) -> Double {
        let scale = valueScale
        let tickLabels = scale.labels(axis: chart.yAxis, numbers: context.numbers)
        let rows = HorizontalRows(self, width: width, scale: scale, tickLabels: tickLabels)
        drawHorizontalAxis(on: canvas, rows: rows, tickLabels: tickLabels)
        drawCategoryNames(on: canvas, rows: rows)
        let marks = drawHorizontalBars(on: canvas, rows: rows)
        drawHorizontalTotals(on: canvas, rows: rows)
        // Notes point at the bar's end in its row's middle.
        let notes: [(point: Point, text: String)] = chart.annotations.compactMap { annotation in
            chart.annotationPoint(annotation).map { at in
                let rowTop = rows.plot.y + at.x * rows.rowHeight + rows.rowGap / 2
                let middle =
                    rows.labelsAbove
                    ? rowTop + rows.labelBand + (rows.rowHeight - rows.rowGap - rows.labelBand) / 2
                    : rowTop + (rows.rowHeight - rows.rowGap) / 2
                return (Point(rows.x(scale.clamped(at.y)), middle), annotation.text)
            }
        }
        AnnotationPainter(context: context).draw(notes, within: rows.plot, avoiding: marks, on: canvas)

        var cursor = rows.plot.maxY + 4 + rows.lineHeight
        if let title = chart.yAxis.title {
            cursor += 3
            canvas.draw(
                text: text.item(
                    title, font: context.axisTitleFont, color: theme.muted, x: rows.plot.midX, top: cursor,
                    anchor: .middle))
            cursor += context.lineHeight(context.axisTitleFont)
        }
        cursor = rows.legend.draw(
            on: canvas, below: cursor, width: width, sideX: rows.plot.maxX + rows.valueWidth - 6, centerY: rows.plot.midY)
        return cursor + 2
    }

    /// The value axis: its gridlines, the zero line, the tick labels that stand apart, and the
    /// threshold lines with their labels.
    private func drawHorizontalAxis(on canvas: Canvas, rows: HorizontalRows, tickLabels: [String]) {
        let plot = rows.plot
        let scale = rows.scale
        canvas.beginGroup()
        // The gridlines are one path (one stroke), as in `PlotFrame`: a chart's grid, not a table's rules.
        var grid = Path()
        for tick in scale.ticks where tick != 0 {
            grid.move(to: Point(rows.x(tick), plot.y))
            grid.line(to: Point(rows.x(tick), plot.maxY))
        }
        if !grid.elements.isEmpty { canvas.stroke(grid, style: StrokeStyle(color: theme.grid, width: 0.5)) }
        // Every tick's label where they stand apart, else every second (third, …) one: a narrow
        // chart's "-4.00-2.000.00" ran together.
        let tickWidths: [Double] = tickLabels.map { context.measurer.measure($0, font: context.tickFont).width }
        let tickXs: [Double] = scale.ticks.map { rows.x($0) }
        func standApart(every step: Int) -> Bool {
            stride(from: step, to: tickXs.count, by: step).allSatisfy { (i: Int) -> Bool in
                let gap: Double = tickXs[i] - tickXs[i - step]
                return gap >= (tickWidths[i] + tickWidths[i - step]) / 2 + 4
            }
        }
        let every: Int = (1...Swift.max(tickXs.count, 1)).first(where: standApart(every:)) ?? 1
        for (index, (tick, label)) in zip(scale.ticks, tickLabels).enumerated() {
            let tx = rows.x(tick)
            if tick == 0 {
                canvas.line(from: Point(tx, plot.y), to: Point(tx, plot.maxY), style: StrokeStyle(color: theme.axis, width: 0.8))
            }
            guard index % every == 0 else { continue }
            canvas.draw(text: text.item(label, font: context.tickFont, color: theme.muted, x: tx, top: plot.maxY + 4, anchor: .middle))
        }
        for threshold in chart.thresholds {
            let tx = rows.x(threshold.value)
            canvas.line(
                from: Point(tx, plot.y - rows.thresholdBand), to: Point(tx, plot.maxY),
                style: StrokeStyle(color: thresholds.color(threshold), width: 1, dash: [4, 3]))
            guard let label = threshold.label else { continue }
            // Beside its line's top, on the side with room (toward the plot's middle).
            let leftOfLine = tx > plot.midX
            canvas.draw(
                text: text.item(
                    label, font: rows.thresholdFont, color: thresholds.color(threshold).readable(on: .white),
                    x: leftOfLine ? tx - 3 : tx + 3, top: plot.y - rows.thresholdBand, anchor: leftOfLine ? .end : .start))
        }
        canvas.endGroup()
    }

    /// Each category's name (and subtitle), beside its row or above its bars.
    private func drawCategoryNames(on canvas: Canvas, rows: HorizontalRows) {
        for (c, category) in bar.categories.enumerated() {
            let rowTop = rows.plot.y + Double(c) * rows.rowHeight + rows.rowGap / 2
            let center = rows.labelsAbove ? rowTop + rows.labelBand / 2 : rowTop + (rows.rowHeight - rows.rowGap) / 2
            if let subtitle = bar.categorySubtitles?[c] {
                canvas.draw(
                    text: text.item(
                        category, font: rows.categoryFont, color: theme.text, x: 0,
                        top: center - rows.lineHeight))
                canvas.draw(text: text.item(subtitle, font: rows.subtitleFont, color: theme.muted, x: 0, top: center))
            } else {
                canvas.draw(text: text.item(category, font: context.tickFont, color: theme.text, x: 0, centerY: center))
            }
        }
    }

    /// Every series' bars with their value labels, a series a group; returns what the notes keep
    /// clear of (bars and their value labels).
    private func drawHorizontalBars(on canvas: Canvas, rows: HorizontalRows) -> PlotMarks {
        let scale = rows.scale
        let extents = self.extents(scale: scale)
        var marks = PlotMarks()
        for (s, series) in bar.series.enumerated() {
            canvas.beginGroup()
            let slot = Double(slotOfSeries[s])
            for c in bar.categories.indices {
                let color = color(ofSeries: s, category: c)
                let top = rows.plot.y + Double(c) * rows.rowHeight + rows.barsOffset + slot * (rows.thickness + rows.barGap)
                var rect = Rect(x: rows.x(scale.clamped(0)), y: top, width: 0, height: rows.thickness)
                let value = series.value(at: c)
                if let (start, end, cut) = extents[s][c] {
                    rect = Rect(
                        x: Swift.min(rows.x(start), rows.x(end)), y: top, width: abs(rows.x(end) - rows.x(start)), height: rows.thickness)
                    canvas.rect(rect, color: color)
                    marks.add(rect)
                    if cut, rect.width > 14 { drawCut(on: canvas, bar: rect, atEnd: rows.x(end), vertical: false) }
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
        return marks
    }

    /// Each stack's total at its end, when value labels are shown.
    private func drawHorizontalTotals(on canvas: Canvas, rows: HorizontalRows) {
        guard bar.valueLabels else { return }
        for (slot, totals) in stackTotals().enumerated() where slotSizes[slot] > 1 {
            for (c, sums) in totals.enumerated() where sums.hasValues {
                let top = rows.plot.y + Double(c) * rows.rowHeight + rows.barsOffset + Double(slot) * (rows.thickness + rows.barGap)
                canvas.draw(
                    text: text.item(
                        context.numbers.string(
                            sums.total, format: chart.yAxis.format,
                            fallbackDecimals: NumberFormat.decimals(for: [sums.total])),
                        font: context.valueFont, color: theme.text, x: rows.x(rows.scale.clamped(sums.positive)) + 3,
                        centerY: top + rows.thickness / 2))
            }
        }
    }
}
