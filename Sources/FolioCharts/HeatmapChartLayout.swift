import FolioGraphics
import FolioModel
import Foundation

/// A calendar heatmap: a column per week (Monday first), a row per weekday, each day a square shaded
/// from the page's colour to the palette's first by its value; a missed day (at or below `missedAt`)
/// crossed, a day without data an open square. Weekday initials on the left, month names over the
/// week they begin in, and a key under it: the shades' ends, "Missed" and "No data" with their marks.
struct HeatmapChartLayout {
    let chart: Chart
    let heatmap: HeatmapChart
    let context: ChartContext

    private var theme: Theme { context.theme }

    func drawing(width: Double) -> Drawing {
        let description = ChartDescription.describe(chart, strings: context.strings)
        guard let span = heatmap.span else {
            return context.noData(width: width, height: chart.height?.points ?? 100, description: description)
        }
        let values = heatmap.valuesByDay
        let known = values.values.compactMap { $0 }
        let low = heatmap.low ?? min(known.min() ?? 0, 0)
        let high = heatmap.high ?? max(known.max() ?? 1, low + 1e-9)
        let monday = span.first - HeatmapChartLayout.weekday(span.first)
        let weeks = (span.last - monday) / 7 + 1
        let canvas = RecordingCanvas()
        let text = context.text
        let tickFont = context.tickFont
        let labelWidth = (0..<7).map { text.metrics(weekdayName($0), tickFont).width }.max() ?? 0
        let cell = max(min((width - labelWidth - 6) / Double(weeks), 22), 4)
        let gap = max(cell * 0.12, 1)
        let top = context.lineHeight(tickFont) + 4
        let left = labelWidth + 6
        let accent = theme.seriesColor(0)
        // Weekday names on rows Monday, Wednesday, Friday (every other: they stay legible).
        for row in [0, 2, 4] {
            canvas.draw(
                text: text.item(weekdayName(row), font: tickFont, color: theme.muted, x: 0, centerY: top + (Double(row) + 0.5) * cell))
        }
        var lastMonthLabelEnd = -Double.infinity
        for week in 0..<weeks {
            let x = left + Double(week) * cell
            // The month's name over the week its first day falls in.
            for day in 0..<7 {
                let number = monday + week * 7 + day
                guard number >= span.first, number <= span.last else { continue }
                let (_, _, dayOfMonth) = ISODate.civil(fromDays: number)
                if dayOfMonth == 1 || number == span.first {
                    let name = context.numbers.dateString(Double(number) * 86_400, pattern: context.numbers.datePattern(skeleton: "MMM"))
                    let nameWidth = text.metrics(name, tickFont).width
                    if x >= lastMonthLabelEnd + 4 {
                        canvas.draw(text: text.item(name, font: tickFont, color: theme.muted, x: x, top: 0))
                        lastMonthLabelEnd = x + nameWidth
                    }
                }
            }
            canvas.beginGroup()
            for day in 0..<7 {
                let number = monday + week * 7 + day
                guard number >= span.first, number <= span.last else { continue }
                let square = Rect(x: x + gap / 2, y: top + Double(day) * cell + gap / 2, width: cell - gap, height: cell - gap)
                guard let entry = values[number], let value = entry else {
                    canvas.stroke(.rect(square), style: StrokeStyle(color: theme.axis, width: 0.6))
                    continue
                }
                let share = min(max((value - low) / (high - low), 0), 1)
                canvas.fill(.rect(square), color: accent.withAlpha(0.12 + 0.88 * share).composited(over: .white))
                if let missedAt = heatmap.missedAt, value <= missedAt {
                    // A missed day is crossed: told apart by shape, not by colour alone.
                    let inset = square.width * 0.22
                    let style = StrokeStyle(color: theme.threshold, width: max(cell * 0.1, 1.2), cap: .round)
                    canvas.line(
                        from: Point(square.x + inset, square.y + inset), to: Point(square.maxX - inset, square.maxY - inset), style: style)
                    canvas.line(
                        from: Point(square.maxX - inset, square.y + inset), to: Point(square.x + inset, square.maxY - inset), style: style)
                }
            }
            canvas.endGroup()
        }
        // The key: the shades' ends, a missed day, a day without data; an entry that does not fit the
        // line starts the next.
        var y = top + 7 * cell + 8
        let key = min(cell, 12)
        var x = left
        let written = ColumnFormat(chart.yAxis.format, values: [low, high], numbers: context.numbers)
        enum Mark {
            case shade(Double)
            case missed, empty
        }
        var entries: [(Mark, String)] = [(.shade(0), written(low)), (.shade(1), written(high))]
        if heatmap.missedAt != nil { entries.append((.missed, context.strings[.missed])) }
        entries.append((.empty, context.strings[.noData]))
        for (mark, label) in entries {
            let labelWidth = text.metrics(label, tickFont).width
            if x > left, x + key + 3 + labelWidth > width {
                x = left
                y += key + 6
            }
            let square = Rect(x: x, y: y, width: key, height: key)
            switch mark {
            case .shade(let share): canvas.fill(.rect(square), color: accent.withAlpha(0.12 + 0.88 * share).composited(over: .white))
            case .missed:
                canvas.fill(.rect(square), color: accent.withAlpha(0.12).composited(over: .white))
                let style = StrokeStyle(color: theme.threshold, width: 1.2, cap: .round)
                canvas.line(from: Point(square.x + 2.5, square.y + 2.5), to: Point(square.maxX - 2.5, square.maxY - 2.5), style: style)
                canvas.line(from: Point(square.maxX - 2.5, square.y + 2.5), to: Point(square.x + 2.5, square.maxY - 2.5), style: style)
            case .empty: canvas.stroke(.rect(square), style: StrokeStyle(color: theme.axis, width: 0.6))
            }
            canvas.draw(text: text.item(label, font: tickFont, color: theme.muted, x: x + key + 3, centerY: y + key / 2))
            x += key + 3 + labelWidth + 10
        }
        y += key + 4
        return canvas.drawing(size: Size(width, y), description: description)
    }

    /// Monday 0 … Sunday 6 of day number `day` (1970-01-01 was a Thursday).
    static func weekday(_ day: Int) -> Int { ((day + 3) % 7 + 7) % 7 }

    /// The language's short name of weekday `index` (Monday 0).
    private func weekdayName(_ index: Int) -> String {
        // 2026-01-05 was a Monday.
        let monday = 20_458
        return context.numbers.dateString(Double(monday + index) * 86_400, pattern: context.numbers.datePattern(skeleton: "EEE"))
    }
}
