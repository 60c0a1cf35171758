import FolioGraphics
import FolioModel

/// Bars rising from the x axis: a group of bars per category (side by side, or stacked), value
/// labels above them when each fits its room, stack totals above stacks.
extension BarChartLayout {
    /// Where a vertical bar chart's bars stand: each category's group, the bars in it and the room
    /// a label above a bar has.
    struct VerticalColumns {
        let frame: PlotFrame
        let scale: AxisScale
        /// The width of one category's group.
        let groupWidth: Double
        /// The width the group's bars take (the rest is space between groups).
        let inner: Double
        /// The width of one bar's slot.
        let barWidth: Double
        /// The room a label above a bar has: its slot when bars stand side by side, the whole
        /// category when there is one bar per category.
        let labelRoom: Double
        /// The height of a value label's line (0 without value labels).
        let valueHeight: Double

        /// The left edge of category `c`'s slot `slot`.
        func x(category c: Int, slot: Double) -> Double {
            frame.plot.x + Double(c) * groupWidth + (groupWidth - inner) / 2 + slot * barWidth
        }
    }

    /// Draws the chart; returns its height and whether it left out value labels that do not fit.
    func drawVertical(on canvas: Canvas, width: Double) -> (height: Double, dropsValueLabels: Bool) {
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

        let groupWidth = frame.plot.width / count
        let inner = groupWidth * 0.76
        let barWidth = inner / Double(Swift.max(slotCount, 1))
        let columns = VerticalColumns(
            frame: frame, scale: scale, groupWidth: groupWidth, inner: inner, barWidth: barWidth,
            labelRoom: slotCount == 1 ? groupWidth - 2 : barWidth + 1, valueHeight: valueHeight)
        // Labels above bars are drawn only when each fits the room it has (a narrow layout of many
        // groups would overlap them; the values stay in the description and data table).
        let labelsFit = bar.series.indices.allSatisfy { s in
            isStacked(s)
                || bar.categories.indices.allSatisfy { c in
                    label(series: s, category: c).map {
                        context.measurer.measure($0, font: context.valueFont).width <= columns.labelRoom
                    } ?? true
                }
        }
        // What the threshold labels keep clear of: bars and the labels over them.
        var marks = PlotMarks()
        let lowestLabel = drawVerticalBars(on: canvas, columns: columns, labelsFit: labelsFit, marks: &marks)
        let totalsDropped = drawVerticalTotals(on: canvas, columns: columns, marks: &marks)
        let plot = frame.plot
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

    /// Every series' bars with their value labels (in a stacked segment, when it fits, else above
    /// or below the bar), a series a group, added to `marks`; returns the lowest label's bottom.
    private func drawVerticalBars(on canvas: Canvas, columns: VerticalColumns, labelsFit: Bool, marks: inout PlotMarks) -> Double {
        let frame = columns.frame
        let scale = columns.scale
        let extents = self.extents(scale: scale)
        var lowestLabel = frame.plot.maxY
        for (s, series) in bar.series.enumerated() {
            canvas.beginGroup()
            let slot = Double(slotOfSeries[s])
            for c in bar.categories.indices {
                let x = columns.x(category: c, slot: slot)
                let color = color(ofSeries: s, category: c)
                let barWidth = columns.barWidth
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
                    let labelTop = (value ?? 0) >= 0 ? rect.y - columns.valueHeight - 1 : rect.maxY + 1
                    let item = text.item(
                        label, font: context.valueFont, color: value == nil ? theme.muted : color.readable(on: .white),
                        x: rect.midX, top: labelTop, anchor: .middle)
                    canvas.draw(text: item)
                    marks.add(item.frame)
                    lowestLabel = Swift.max(lowestLabel, labelTop + columns.valueHeight)
                }
            }
            canvas.endGroup()
        }
        return lowestLabel
    }

    /// Each stack's total above it, when value labels are shown and every total of the stack fits
    /// its room, added to `marks`; returns whether a stack's totals were left out.
    private func drawVerticalTotals(on canvas: Canvas, columns: VerticalColumns, marks: inout PlotMarks) -> Bool {
        guard bar.valueLabels else { return false }
        var totalsDropped = false
        for (slot, totals) in stackTotals().enumerated() where slotSizes[slot] > 1 {
            let texts = totals.map {
                $0.hasValues
                    ? context.numbers.string(
                        $0.total, format: chart.yAxis.format, fallbackDecimals: NumberFormat.decimals(for: [$0.total])) : ""
            }
            // Totals are printed only when each fits the room of its stack.
            guard texts.allSatisfy({ context.measurer.measure($0, font: context.valueFont).width <= columns.labelRoom }) else {
                totalsDropped = true
                continue
            }
            for (c, sums) in totals.enumerated() where sums.hasValues {
                let x = columns.x(category: c, slot: Double(slot) + 0.5)
                let item = text.item(
                    texts[c], font: context.valueFont, color: theme.text, x: x,
                    top: columns.frame.y(columns.scale.clamped(sums.positive)) - columns.valueHeight - 1, anchor: .middle)
                canvas.draw(text: item)
                marks.add(item.frame)
            }
        }
        return totalsDropped
    }
}
