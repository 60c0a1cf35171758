import FolioGraphics
import FolioModel
import Foundation

/// Text alternatives generated from chart data, for screen readers and PDF alt text,
/// in the document's language.
package enum ChartDescription {
    /// The author's `alt` (trimmed), or, when there is none or it is blank, a summary of the data
    /// such as "Bar chart, Pain, 7 categories Mon–Sun. Pain from 1 (Wed) to 7 (Sat)."
    package static func describe(_ chart: Chart, strings: BuiltInStrings) -> String {
        if let alt = chart.alt?.trimmingCharacters(in: .whitespacesAndNewlines), !alt.isEmpty { return alt }
        let body = describeData(chart, strings: strings)
        guard !chart.annotations.isEmpty else { return body }
        // The notes after the data: "Notes: Started metformin at Nov 3."
        let numbers = NumberFormat(strings)
        let notes = chart.annotations.compactMap { annotation -> String? in
            guard let at = chart.annotationPoint(annotation) else { return nil }
            var place = annotation.at
            if case .line(let line) = chart.body,
                case .dates? = (annotation.series.flatMap { name in line.plots.first { $0.title == name } } ?? line.plots.first)?.x
                    ?? line.x
            {
                place = numbers.dateString(at.x, pattern: numbers.datePattern(skeleton: "yMMMd"))
            }
            return "\(annotation.text) " + strings.format(.at, ["x": place])
        }
        return sentences([body, strings.format(.notes, ["notes": notes.joined(separator: "; ")])])
    }

    /// The summary of the chart's data.
    private static func describeData(_ chart: Chart, strings: BuiltInStrings) -> String {
        let numbers = NumberFormat(strings)
        let title = chart.title.map { $0.isEmpty ? "" : ", \($0)" } ?? ""
        switch chart.body {
        case .bar(let bar): return self.bar(bar, chart: chart, title: title, strings: strings, numbers: numbers)
        case .line(let line): return self.line(line, chart: chart, title: title, strings: strings, numbers: numbers)
        case .pie(let pie): return self.pie(pie, chart: chart, title: title, strings: strings, numbers: numbers)
        case .rings(let rings): return self.rings(rings, chart: chart, title: title, strings: strings, numbers: numbers)
        case .range(let range): return self.range(range, chart: chart, title: title, strings: strings, numbers: numbers)
        case .measures(let measures): return self.measures(measures, chart: chart, title: title, strings: strings, numbers: numbers)
        case .boxPlot(let boxes): return self.boxPlot(boxes, chart: chart, title: title, strings: strings, numbers: numbers)
        case .histogram(let histogram): return self.histogram(histogram, chart: chart, title: title, strings: strings, numbers: numbers)
        case .heatmap(let heatmap): return self.heatmap(heatmap, chart: chart, title: title, strings: strings, numbers: numbers)
        }
    }

    /// A pie or donut chart: each segment's share.
    private static func pie(_ pie: PieChart, chart: Chart, title: String, strings: BuiltInStrings, numbers: NumberFormat) -> String {
        let kind = strings[pie.donut ? .donutChart : .pieChart] + title
        let percents = PieChartLayout.percentages(pie.segments.map(\.value))
        guard percents.contains(where: { $0 > 0 }) else { return "\(kind): \(strings[.noData])." }
        return sentences([kind, segments(pie.segments.map(\.title), percents: percents, strings: strings)])
    }

    /// Rings: each ring's share of its whole.
    private static func rings(_ rings: RingChart, chart: Chart, title: String, strings: BuiltInStrings, numbers: NumberFormat) -> String {
        let parts = rings.rings.map { "\($0.title) \(($0.value * 100).clampedInt())%" }
        return sentences([strings[.ringChart] + title, parts.isEmpty ? strings[.noData] : parts.joined(separator: ", ")])
    }

    /// A range chart: each plot's low and high, and the readings past a threshold.
    private static func range(_ range: RangeChart, chart: Chart, title: String, strings: BuiltInStrings, numbers: NumberFormat) -> String {
        var parts = [strings[.rangeChart] + title + categories(range.categories, strings: strings)]
        for plot in range.plots {
            let values = plot.values.flatMap { $0 }
            guard let low = values.min(), let high = values.max() else { continue }
            let decimals = NumberFormat.decimals(for: values)
            let unit = ValueUnit.of(seriesTitle: plot.title, axis: chart.yAxis)
            func written(_ value: Double) -> String {
                ValueUnit.appending(unit, to: numbers.string(value, decimals: decimals), format: nil)
            }
            parts.append(strings.format(.lowHigh, ["name": plot.title, "low": written(low), "high": written(high)]))
        }
        // Each reading of a day is a value a threshold may highlight.
        let readings = range.plots.map { plot in
            (title: plot.title, values: plot.values.flatMap { $0.map(Optional.some) }, axis: chart.yAxis, secondary: false)
        }
        let days = range.plots.map { plot in plot.values.enumerated().flatMap { day, values in values.map { _ in day } } }
        parts += crossings(chart, readings, strings: strings, numbers: numbers) { plot, index in
            let day = days[plot][index]
            return day < range.categories.count ? range.categories[day] : "#\(day + 1)"
        }
        return sentences(parts)
    }

    /// Bullets or gauges: each measure against its target and in its range.
    private static func measures(_ measures: MeasureChart, chart: Chart, title: String, strings: BuiltInStrings, numbers: NumberFormat)
        -> String
    {
        var parts = [strings[measures.style == .bullet ? .bulletChart : .gaugeChart] + title]
        for measure in measures.measures {
            let written = MeasureText(measure: measure, numbers: numbers)
            var sentence: String
            if let target = measure.target {
                sentence = strings.format(
                    .againstTarget, ["name": measure.title, "value": written.value, "target": written.number(target)])
                let side: BuiltInStrings.Key = measure.value > target ? .aboveTarget : measure.value < target ? .belowTarget : .onTarget
                sentence += ", " + strings[side]
            } else {
                sentence = "\(measure.title) \(written.value)"
            }
            if let band = measure.bandIndex, !measure.bands.isEmpty {
                sentence += ", " + strings.format(.inRange, ["range": written.range(band)])
            }
            parts.append(sentence)
        }
        return sentences(parts)
    }

    /// Box plots: each group's median, quartiles, whiskers, count and outliers.
    private static func boxPlot(_ boxes: BoxPlotChart, chart: Chart, title: String, strings: BuiltInStrings, numbers: NumberFormat)
        -> String
    {
        var parts = [strings[.boxPlot] + title]
        let unit = ValueUnit.of(seriesTitle: nil, axis: chart.yAxis)
        for group in boxes.groups {
            guard let stats = BoxStatistics(group.values) else {
                parts.append("\(group.title): \(strings[.noData])")
                continue
            }
            let column = ColumnFormat(chart.yAxis.format, values: group.values, numbers: numbers)
            func written(_ value: Double) -> String { ValueUnit.appending(unit, to: column.statistic(value), format: nil) }
            var sentence = strings.format(
                .boxSummary,
                [
                    "name": group.title, "median": written(stats.median), "lower": written(stats.lowerQuartile),
                    "upper": written(stats.upperQuartile), "low": written(stats.lowerWhisker), "high": written(stats.upperWhisker),
                ])
            sentence += ", " + strings.format(.valueCount, ["count": numbers.grouped(String(stats.count))])
            if stats.outliers.count == 1, let only = stats.outliers.first {
                sentence += ", " + strings.format(.oneOutlier, ["value": written(only)])
            } else if !stats.outliers.isEmpty {
                // At most ten outliers are named; the data table has them all.
                let named = stats.outliers.prefix(10).map(written).joined(separator: ", ") + (stats.outliers.count > 10 ? ", …" : "")
                sentence += ", " + strings.format(.outliers, ["count": String(stats.outliers.count), "values": named])
            }
            parts.append(sentence)
        }
        return sentences(parts)
    }

    /// A histogram: its bins, their width and the fullest one.
    private static func histogram(_ histogram: HistogramChart, chart: Chart, title: String, strings: BuiltInStrings, numbers: NumberFormat)
        -> String
    {
        let kind = strings[.histogram] + title
        guard let bins = HistogramBins(histogram) else { return "\(kind): \(strings[.noData])." }
        let edges = (0...bins.counts.count).map(bins.lower)
        let column = ColumnFormat(chart.xAxis.format, values: edges + [bins.width], numbers: numbers)
        let unit = ValueUnit.of(seriesTitle: nil, axis: chart.xAxis)
        func written(_ value: Double) -> String { ValueUnit.appending(unit, to: column(value), format: nil) }
        var summary =
            strings.format(
                .histogramBins,
                [
                    "count": numbers.grouped(String(histogram.values.count)), "bins": String(bins.counts.count),
                    "width": written(bins.width), "low": column(bins.start), "high": written(bins.lower(bins.counts.count)),
                ]) + (bins.bySturges ? " (\(strings[.sturgesRule]))" : "")
        if let most = bins.counts.indices.max(by: { bins.counts[$0] < bins.counts[$1] }) {
            let range = "\(column(bins.lower(most)))–\(written(bins.lower(most + 1)))"
            summary += ", " + strings.format(.mostIn, ["range": range, "count": String(bins.counts[most])])
        }
        return sentences([kind, summary])
    }

    /// A calendar of daily values: its days, the days missed and without data, the mean.
    private static func heatmap(_ heatmap: HeatmapChart, chart: Chart, title: String, strings: BuiltInStrings, numbers: NumberFormat)
        -> String
    {
        let kind = strings[.heatmap] + title
        guard let span = heatmap.span else { return "\(kind): \(strings[.noData])." }
        let values = heatmap.valuesByDay
        func day(_ number: Int) -> String {
            numbers.dateString(Double(number) * 86_400, pattern: numbers.datePattern(skeleton: "MMMd"))
        }
        func year(_ number: Int) -> String {
            numbers.dateString(Double(number) * 86_400, pattern: numbers.datePattern(skeleton: "yMMMd"))
        }
        let all = Array(span.first...span.last)
        var parts = [
            kind,
            strings.format(.daySpan, ["count": numbers.grouped(String(all.count)), "first": day(span.first), "last": year(span.last)]),
        ]
        // The days missed and the days without data, each named (at most 31, the data table has all).
        func listed(_ days: [Int], many: BuiltInStrings.Key, one: BuiltInStrings.Key) -> String? {
            guard let first = days.first else { return nil }
            if days.count == 1 { return strings.format(one, ["day": day(first)]) }
            let names = days.prefix(31).map(day).joined(separator: ", ") + (days.count > 31 ? ", …" : "")
            return strings.format(many, ["count": String(days.count), "days": names])
        }
        var counts: [String] = []
        if let missedAt = heatmap.missedAt {
            let missed = all.filter { if let value = values[$0] ?? nil { value <= missedAt } else { false } }
            counts.append(listed(missed, many: .missedDays, one: .oneMissedDay) ?? strings[.noneMissed])
        }
        if let none = listed(all.filter { (values[$0] ?? nil) == nil }, many: .daysWithoutData, one: .oneDayWithoutData) {
            counts.append(none)
        }
        let known = all.compactMap { values[$0] ?? nil }
        if !known.isEmpty {
            let mean = known.reduce(0, +) / Double(known.count)
            let column = ColumnFormat(chart.yAxis.format, values: known, numbers: numbers)
            counts.append(strings.format(.meanValue, ["value": column.statistic(mean)]))
        }
        parts.append(counts.joined(separator: "; "))
        return sentences(parts)
    }

    /// `parts` as sentences: joined by ". " and ended by ".", without a second stop after one that
    /// ends in an abbreviation's ("de lun. à dim.", not "dim..").
    static func sentences(_ parts: [String]) -> String {
        var text = ""
        for part in parts where !part.isEmpty {
            if !text.isEmpty { text += text.hasSuffix(".") ? " " : ". " }
            text += part
        }
        return text.hasSuffix(".") ? text : text + "."
    }

    /// The most segments a description names one by one.
    static let segmentsNamed = 8

    /// "Steps 60%, Tasks 25%" for a few segments; for many, the largest (in the pie's order)
    /// and the rest counted: "S1 7%, …, 10 other segments with 61% together". A description
    /// that lists sixteen numbers reads as data, not as language; the data table has them all.
    private static func segments(_ titles: [String], percents: [Int], strings: BuiltInStrings) -> String {
        let all = Array(zip(titles, percents))
        guard all.count > segmentsNamed else { return all.map { "\($0) \($1)%" }.joined(separator: ", ") }
        let named = Set(all.indices.sorted { (all[$0].1, $1) > (all[$1].1, $0) }.prefix(segmentsNamed - 1))
        let listed = all.indices.filter(named.contains).map { "\(all[$0].0) \(all[$0].1)%" }
        let rest = all.indices.filter { !named.contains($0) }
        let restPercent = rest.reduce(0) { $0 + all[$1].1 }
        return (listed + [strings.format(.otherSegments, ["count": String(rest.count), "percent": String(restPercent)])])
            .joined(separator: ", ")
    }

    private static func categories(_ names: [String], strings: BuiltInStrings) -> String {
        guard let first = names.first, let last = names.last else { return ", " + strings[.noData] }
        if names.count == 1 { return ", " + strings.format(.oneCategory, ["name": first]) }
        return ", " + strings.format(.categories, ["count": String(names.count), "first": first, "last": last])
    }

    private static func bar(_ bar: BarChart, chart: Chart, title: String, strings: BuiltInStrings, numbers: NumberFormat) -> String {
        let stacked = bar.stacked || bar.series.contains { $0.stack != nil }
        var parts = [strings[stacked ? .stackedBarChart : .barChart] + title + categories(bar.categories, strings: strings)]
        func category(_ i: Int) -> String { i < bar.categories.count ? bar.categories[i] : "#\(i + 1)" }
        for series in bar.series {
            let set = series.values.enumerated().compactMap { i, v in v.map { (i, $0) } }
            let name = series.title.isEmpty ? (chart.yAxis.title ?? strings[.value]) : series.title
            let gaps = series.values.indices.filter { series.values[$0] == nil }
            guard let low = set.min(by: { $0.1 < $1.1 }), let high = set.max(by: { $0.1 < $1.1 }) else {
                if !series.values.isEmpty { parts.append("\(name): \(strings[.noData])") }
                continue
            }
            let decimals = NumberFormat.decimals(for: set.map(\.1))
            let unit = ValueUnit.of(seriesTitle: series.title, axis: chart.yAxis)
            // Every category that reaches the value, not the first alone ("5 (Tue, Thu)").
            func value(_ v: (Int, Double)) -> String {
                let tied = ChartDescription.named(set.filter { $0.1 == v.1 }.map(\.0), label: category)
                let written = numbers.string(v.1, format: chart.yAxis.format, fallbackDecimals: decimals)
                return "\(ValueUnit.appending(unit, to: written, format: chart.yAxis.format)) (\(tied))"
            }
            parts.append(
                strings.format(.lowHigh, ["name": name, "low": value(low), "high": value(high)])
                    + missing(gaps, label: category, strings: strings))
        }
        let plotted = bar.series.map { (title: $0.title, values: $0.values, axis: chart.yAxis, secondary: false) }
        parts += crossings(chart, plotted, strings: strings, numbers: numbers) { _, index in category(index) }
        return sentences(parts)
    }

    /// For each highlighting threshold with values beyond it: "Above 100 bpm: 3 values (at 10:00, 10:05, 10:10, …)",
    /// or, without a label, what it is: "above 10 mmol/L: 1 value (Sat)". `place` names value `index`
    /// of series `series` (a category, an x value); `describePlaces` words the list ("at 7:00, 7:10").
    private static func crossings(
        _ chart: Chart, _ series: [(title: String, values: [Double?], axis: ChartAxis, secondary: Bool)], strings: BuiltInStrings,
        numbers: NumberFormat, place: (_ series: Int, _ index: Int) -> String, describePlaces: (String) -> String = { $0 }
    ) -> [String] {
        chart.thresholds.compactMap { threshold in
            // As the chart highlights them: a threshold naming no series is on the first axis's.
            let applies = series.indices.filter { index in
                threshold.highlight && (threshold.series.map { $0 == series[index].title } ?? !series[index].secondary)
            }
            var places: [String] = []
            var count = 0
            for s in applies {
                for (index, value) in series[s].values.enumerated() {
                    guard let value, threshold.isBeyond(value) else { continue }
                    count += 1
                    if places.count < 4 { places.append(place(s, index)) }
                }
            }
            guard count > 0, let first = applies.first else { return nil }
            let axis = series[first].axis
            let unit = ValueUnit.of(seriesTitle: series[first].title, axis: axis)
            let limits = [threshold.value] + (threshold.upper.map { [$0] } ?? [])
            let decimals = NumberFormat.decimals(for: limits)
            func written(_ value: Double) -> String {
                ValueUnit.appending(unit, to: numbers.string(value, format: axis.format, fallbackDecimals: decimals), format: axis.format)
            }
            let phrase: String
            switch threshold.kind {
            case .greaterThan: phrase = strings.format(.aboveValue, ["value": written(threshold.value)])
            case .lessThan: phrase = strings.format(.belowValue, ["value": written(threshold.value)])
            case .range:
                let low = numbers.string(threshold.value, format: axis.format, fallbackDecimals: decimals)
                phrase = strings.format(.outsideRange, ["low": low, "high": written(threshold.upper ?? threshold.value)])
            }
            // The label, and what it means unless it says its value ("Above 105 bpm"; "Goal, above 8000").
            let label = threshold.label?.trimmingCharacters(in: .whitespaces) ?? ""
            let saysItsValue =
                threshold.kind != .range && label.contains(numbers.string(threshold.value, format: axis.format, fallbackDecimals: decimals))
            let name = label.isEmpty ? phrase.prefix(1).uppercased() + phrase.dropFirst() : saysItsValue ? label : "\(label), \(phrase)"

            let counted =
                count == 1
                ? strings.format(.oneValueBeyond, ["threshold": name])
                : strings.format(.valuesBeyond, ["count": String(count), "threshold": name])
            let listed = places.prefix(3).joined(separator: ", ") + (count > 3 ? ", …" : "")
            return "\(counted) (\(describePlaces(listed)))"
        }
    }

    /// "Tue, Thu" for the places a value is reached, at most three named: "Mon, Tue, Wed, …".
    static func named(_ indices: [Int], label: (Int) -> String) -> String {
        indices.prefix(3).map(label).joined(separator: ", ") + (indices.count > 3 ? ", …" : "")
    }

    /// ", No data (Tue, Thu)" for a few missing values, ", 12 missing" for many, "" for none.
    private static func missing(_ indices: [Int], label: (Int) -> String, strings: BuiltInStrings) -> String {
        if indices.isEmpty { return "" }
        if indices.count <= 6 { return ", \(strings[.noData]) (\(indices.map(label).joined(separator: ", ")))" }
        return ", " + strings.format(.missing, ["count": String(indices.count)])
    }

    private static func line(_ line: LineChart, chart: Chart, title: String, strings: BuiltInStrings, numbers: NumberFormat) -> String {
        var parts: [String] = []
        let count = line.plots.map(\.values.count).max() ?? 0
        let points = count == 1 ? strings[.onePoint] : strings.format(.points, ["count": String(count)])
        var head = strings[line.connect ? .lineChart : .scatterChart] + title + ", " + points
        func xLabel(_ plot: LinePlot, _ index: Int) -> String {
            switch plot.x ?? line.x {
            case .categories(let names)?: return index < names.count ? names[index] : "#\(index + 1)"
            case .numbers(let values)?, .dates(let values)?:
                let fallback = NumberFormat.decimals(for: values)
                return numbers.string(
                    values[index], format: chart.xAxis.format ?? (isDates(plot.x ?? line.x) ? .date(pattern: "MMM d HH:mm") : nil),
                    fallbackDecimals: fallback)
            case nil: return "#\(index + 1)"
            }
        }
        if let plot = line.plots.first, !plot.values.isEmpty {
            head = strings.format(.fromTo, ["name": head, "low": xLabel(plot, 0), "high": xLabel(plot, plot.values.count - 1)])
        }
        parts.append(head)
        for plot in line.plots {
            let set = plot.values.enumerated().compactMap { i, v in v.map { (i, $0) } }
            guard let low = set.min(by: { $0.1 < $1.1 }), let high = set.max(by: { $0.1 < $1.1 }) else { continue }
            let decimals = NumberFormat.decimals(for: set.map(\.1))
            let axis = self.axis(of: plot, in: chart)
            let unit = ValueUnit.of(seriesTitle: plot.title, axis: axis)
            func value(_ v: (Int, Double)) -> String {
                let tied = ChartDescription.named(set.filter { $0.1 == v.1 }.map(\.0)) { xLabel(plot, $0) }
                let written = numbers.string(v.1, format: axis.format, fallbackDecimals: decimals)
                return ValueUnit.appending(unit, to: written, format: axis.format) + " (" + strings.format(.at, ["x": tied]) + ")"
            }
            let name = plot.title.isEmpty ? (chart.yAxis.title ?? strings[.value]) : plot.title
            let gaps = plot.values.indices.filter { plot.values[$0] == nil }
            parts.append(
                strings.format(.lowHigh, ["name": name, "low": value(low), "high": value(high)])
                    + missing(gaps, label: { xLabel(plot, $0) }, strings: strings))
        }
        let plotted = line.plots.map {
            (title: $0.title, values: $0.values, axis: axis(of: $0, in: chart), secondary: $0.axis == .secondary)
        }
        parts += crossings(
            chart, plotted, strings: strings, numbers: numbers, place: { plot, index in xLabel(line.plots[plot], index) },
            describePlaces: { strings.format(.at, ["x": $0]) })
        return sentences(parts)
    }

    /// The value axis `plot` is drawn against: the second one for `axis: secondary`.
    private static func axis(of plot: LinePlot, in chart: Chart) -> ChartAxis {
        plot.axis == .secondary ? chart.secondaryYAxis ?? chart.yAxis : chart.yAxis
    }

    private static func isDates(_ x: XValues?) -> Bool {
        if case .dates? = x { return true }
        return false
    }
}
