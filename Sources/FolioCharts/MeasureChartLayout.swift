import FolioGraphics
import FolioModel
import Foundation

/// Measures against their targets and ranges. A bullet (Stephen Few's bullet graph) is a row: the
/// ranges shaded from dark to light, the value a dark bar, the target a tick across it, the value
/// written at its end, the ranges' ends under it. A gauge is a half dial: the ranges as arcs, the
/// value a needle and written under the hub, the target a mark across the arc. Where the title
/// does not fit beside a bullet (a phone's width), it goes above its row.
package struct MeasureChartLayout {
    let chart: Chart
    let measures: MeasureChart
    let context: ChartContext

    private var theme: Theme { context.theme }

    /// Range shades from the first range to the last (dark to light), repeated past the fourth.
    package static let bandShades = ["#B9BDC5", "#CDD0D6", "#DFE1E5", "#EDEEF1"].compactMap { Color(parsing: $0) }

    /// The plot height a chart of `count` measures takes in `style`.
    static func plotHeight(count: Int, style: MeasureChart.Style) -> Double {
        switch style {
        case .bullet: return Double(max(count, 1)) * rowHeight
        case .gauge: return 150
        }
    }

    static let rowHeight = 40.0

    func drawing(width: Double) -> Drawing {
        let description = ChartDescription.describe(chart, strings: context.strings)
        guard !measures.measures.isEmpty else {
            return context.noData(width: width, height: chart.height?.points ?? 80, description: description)
        }
        switch measures.style {
        case .bullet: return bullets(width: width, description: description)
        case .gauge: return gauges(width: width, description: description)
        }
    }

    /// The shade of range `index`.
    private func shade(_ index: Int) -> Color { MeasureChartLayout.bandShades[index % MeasureChartLayout.bandShades.count] }

    /// The ranges of `measure` as (start, end) pairs on its scale (the whole scale when it has none).
    private func ranges(_ measure: ChartMeasure) -> [(low: Double, high: Double)] {
        let scale = measure.scale
        guard !measure.bands.isEmpty else { return [(scale.low, scale.high)] }
        var start = scale.low
        return measure.bands.map { end in
            defer { start = end }
            return (start, end)
        }
    }

    private func bullets(width: Double, description: String) -> Drawing {
        let canvas = RecordingCanvas()
        let titleFont = theme.font(theme.smallSize + 1, bold: true)
        let valueFont = theme.font(theme.smallSize + 1, bold: true)
        let tickFont = context.tickFont
        let text = context.text
        let written = measures.measures.map { MeasureText(measure: $0, numbers: context.numbers) }
        let valueWidth = (written.map { text.metrics($0.value, valueFont).width }.max() ?? 0) + 8
        let titleWidth = measures.measures.map { text.metrics($0.title, titleFont).width }.max() ?? 0
        // Titles beside the bars when they fit in a third of the width, else above each bar.
        let beside = titleWidth + 10 <= width * 0.34
        let labelColumn = beside ? titleWidth + 10 : 0
        let barX = labelColumn
        let barWidth = max(width - labelColumn - valueWidth, 40)
        let titleHeight = context.lineHeight(titleFont)
        let tickHeight = context.lineHeight(tickFont)
        let barHeight = 16.0
        var y = 4.0
        for (index, measure) in measures.measures.enumerated() {
            canvas.beginGroup()
            if !beside {
                canvas.draw(text: text.item(measure.title, font: titleFont, color: theme.text, x: 0, top: y))
                y += titleHeight + 2
            }
            let scale = measure.scale
            func x(_ value: Double) -> Double {
                barX + (min(max(value, scale.low), scale.high) - scale.low) / (scale.high - scale.low) * barWidth
            }
            if beside {
                canvas.draw(text: text.item(measure.title, font: titleFont, color: theme.text, x: 0, centerY: y + barHeight / 2))
            }
            for (band, range) in ranges(measure).enumerated() {
                canvas.rect(Rect(x: x(range.low), y: y, width: x(range.high) - x(range.low), height: barHeight), color: shade(band))
            }
            // The value: a dark bar a third of the row's height; the target: a tick across the row.
            canvas.rect(
                Rect(x: x(scale.low), y: y + barHeight / 3, width: max(x(measure.value) - x(scale.low), 1), height: barHeight / 3),
                color: theme.text)
            if let target = measure.target {
                canvas.rect(Rect(x: x(target) - 1, y: y + 1.5, width: 2, height: barHeight - 3), color: theme.text)
            }
            canvas.draw(
                text: text.item(
                    written[index].value, font: valueFont, color: theme.text, x: barX + barWidth + 6, centerY: y + barHeight / 2))
            // The scale's start and each range's end under the bar, where they do not run into each other.
            var lastRight = -Double.infinity
            let edges = [scale.low] + (measure.bands.isEmpty ? [scale.high] : measure.bands)
            for edge in edges {
                let label = written[index].number(edge)
                let labelWidth = text.metrics(label, tickFont).width
                let center = min(max(x(edge), barX + labelWidth / 2), barX + barWidth - labelWidth / 2)
                guard center - labelWidth / 2 >= lastRight + 4 else { continue }
                canvas.draw(text: text.item(label, font: tickFont, color: theme.muted, x: center, top: y + barHeight + 1, anchor: .middle))
                lastRight = center + labelWidth / 2
            }
            canvas.endGroup()
            y += barHeight + tickHeight + 8
        }
        return canvas.drawing(size: Size(width, y), description: description)
    }

    private func gauges(width: Double, description: String) -> Drawing {
        let canvas = RecordingCanvas()
        let text = context.text
        let count = measures.measures.count
        // Dials side by side, each 150 to 220 points wide; more than fit wrap to a new row.
        let perRow = max(1, min(count, (width / 150).rounded(.down).clampedInt()))
        let cellWidth = width / Double(perRow)
        let radius = min(cellWidth * 0.38, 80)
        let thickness = max(radius * 0.22, 8)
        let valueFont = theme.font(theme.subtitleSize, bold: true)
        let titleFont = theme.font(theme.smallSize + 1, bold: true)
        let tickFont = context.tickFont
        let cellHeight =
            radius + thickness + context.lineHeight(valueFont) + context.lineHeight(titleFont) + context.lineHeight(tickFont) + 14
        for (index, measure) in measures.measures.enumerated() {
            let written = MeasureText(measure: measure, numbers: context.numbers)
            let row = index / perRow
            let column = index % perRow
            let center = Point(cellWidth * (Double(column) + 0.5), Double(row) * cellHeight + thickness / 2 + radius + 4)
            let scale = measure.scale
            func angle(_ value: Double) -> Double {
                .pi + (min(max(value, scale.low), scale.high) - scale.low) / (scale.high - scale.low) * .pi
            }
            canvas.beginGroup()
            for (band, range) in ranges(measure).enumerated() {
                canvas.arc(
                    center: center, radius: radius, start: angle(range.low), end: angle(range.high),
                    style: StrokeStyle(color: shade(band), width: thickness))
            }
            if let target = measure.target {
                let a = angle(target)
                let inner = Point(center.x + cos(a) * (radius - thickness / 2 - 2), center.y + sin(a) * (radius - thickness / 2 - 2))
                let outer = Point(center.x + cos(a) * (radius + thickness / 2 + 2), center.y + sin(a) * (radius + thickness / 2 + 2))
                canvas.line(from: inner, to: outer, style: StrokeStyle(color: theme.text, width: 2.5))
            }
            let a = angle(measure.value)
            let tip = Point(center.x + cos(a) * (radius - 2), center.y + sin(a) * (radius - 2))
            canvas.line(from: center, to: tip, style: StrokeStyle(color: theme.text, width: 2.5, cap: .round))
            canvas.fill(.circle(center: center, radius: 4), color: theme.text)
            // The scale's ends under the arc's ends, the value under the hub, the title under it.
            let tickTop = center.y + thickness / 2 + 1
            let lowLabel = text.item(
                written.number(scale.low), font: tickFont, color: theme.muted, x: center.x - radius, top: tickTop, anchor: .middle)
            let highLabel = text.item(
                written.number(scale.high), font: tickFont, color: theme.muted, x: center.x + radius, top: tickTop, anchor: .middle)
            canvas.draw(text: lowLabel)
            canvas.draw(text: highLabel)
            // The value under the hub, or under the scale's ends where it would run into them (a narrow dial).
            let valueWidth = text.metrics(written.value, valueFont).width
            let clear =
                center.x - valueWidth / 2 >= lowLabel.origin.x + lowLabel.metrics.width + 4
                && center.x + valueWidth / 2 <= highLabel.origin.x - 4
            let valueTop = clear ? center.y + 8 : tickTop + context.lineHeight(tickFont) + 2
            canvas.draw(text: text.item(written.value, font: valueFont, color: theme.text, x: center.x, top: valueTop, anchor: .middle))
            let titleTop = valueTop + context.lineHeight(valueFont) + 2
            canvas.draw(text: text.item(measure.title, font: titleFont, color: theme.text, x: center.x, top: titleTop, anchor: .middle))
            canvas.endGroup()
        }
        let rows = (count + perRow - 1) / perRow
        return canvas.drawing(size: Size(width, Double(rows) * cellHeight), description: description)
    }
}

/// A measure's numbers as its chart writes them: with as many decimals as its numbers have, in the
/// document's digits, the unit after each (a per cent sign close, another unit after a no-break space).
package struct MeasureText {
    let measure: ChartMeasure
    let numbers: NumberFormat
    let decimals: Int

    /// The numbers of `measure` as `numbers` writes them.
    package init(measure: ChartMeasure, numbers: NumberFormat) {
        self.measure = measure
        self.numbers = numbers
        decimals = NumberFormat.decimals(for: [measure.value] + (measure.target.map { [$0] } ?? []) + measure.bands)
    }

    /// `value` written with the measure's unit.
    package func number(_ value: Double) -> String {
        let digits = numbers.grouped(numbers.string(value, decimals: decimals))
        guard let unit = measure.unit, !unit.isEmpty else { return digits }
        return unit == "%" ? digits + "%" : digits + "\u{00A0}" + unit
    }

    /// The measure's value.
    package var value: String { number(measure.value) }

    /// Range `index` as "name (7–8 %)" or "7–8 %"; a word joiner after the dash keeps the span on one line.
    package func range(_ index: Int) -> String {
        let low = index == 0 ? measure.scale.low : measure.bands[index - 1]
        let span =
            number(low).replacingOccurrences(of: measure.unit.map { $0 == "%" ? "%" : "\u{00A0}" + $0 } ?? "\u{0}", with: "")
            + "–\u{2060}" + number(measure.bands[index])
        guard let labels = measure.bandLabels, index < labels.count, !labels[index].isEmpty else { return span }
        return "\(labels[index]) (\(span))"
    }
}
