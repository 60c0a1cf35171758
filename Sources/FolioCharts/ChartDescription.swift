import FolioModel
import Foundation

/// Text alternatives generated from chart data, for screen readers and PDF alt text,
/// in the document's language.
package enum ChartDescription {
    /// The author's `alt` (trimmed), or, when there is none or it is blank, a summary of the data
    /// such as "Bar chart, Pain, 7 categories Mon–Sun. Pain from 1 (Wed) to 7 (Sat)."
    package static func describe(_ chart: Chart, strings: BuiltInStrings) -> String {
        if let alt = chart.alt?.trimmingCharacters(in: .whitespacesAndNewlines), !alt.isEmpty { return alt }
        let numbers = NumberFormat(strings)
        let title = chart.title.map { $0.isEmpty ? "" : ", \($0)" } ?? ""
        switch chart.body {
        case .bar(let bar): return self.bar(bar, chart: chart, title: title, strings: strings, numbers: numbers)
        case .line(let line): return self.line(line, chart: chart, title: title, strings: strings, numbers: numbers)
        case .pie(let pie):
            let kind = strings[pie.donut ? .donutChart : .pieChart] + title
            let percents = PieChartLayout.percentages(pie.segments.map(\.value))
            guard percents.contains(where: { $0 > 0 }) else { return "\(kind): \(strings[.noData])." }
            return "\(kind). " + segments(pie.segments.map(\.title), percents: percents, strings: strings) + "."
        case .rings(let rings):
            let parts = rings.rings.map { "\($0.title) \(($0.value * 100).clampedInt())%" }
            return strings[.ringChart] + title + ". " + (parts.isEmpty ? strings[.noData] : parts.joined(separator: ", ")) + "."
        case .range(let range):
            var parts = [strings[.rangeChart] + title + categories(range.categories, strings: strings)]
            for plot in range.plots {
                let values = plot.values.flatMap { $0 }
                guard let low = values.min(), let high = values.max() else { continue }
                let decimals = NumberFormat.decimals(for: values)
                parts.append(
                    strings.format(
                        .lowHigh,
                        [
                            "name": plot.title, "low": numbers.string(low, decimals: decimals),
                            "high": numbers.string(high, decimals: decimals),
                        ]))
            }
            return parts.joined(separator: ". ") + "."
        }
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
            // Every category that reaches the value, not the first alone ("5 (Tue, Thu)").
            func value(_ v: (Int, Double)) -> String {
                let tied = ChartDescription.named(set.filter { $0.1 == v.1 }.map(\.0), label: category)
                return "\(numbers.string(v.1, format: chart.yAxis.format, fallbackDecimals: decimals)) (\(tied))"
            }
            parts.append(
                strings.format(.lowHigh, ["name": name, "low": value(low), "high": value(high)])
                    + missing(gaps, label: category, strings: strings))
        }
        return parts.joined(separator: ". ") + "."
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
            func value(_ v: (Int, Double)) -> String {
                let tied = ChartDescription.named(set.filter { $0.1 == v.1 }.map(\.0)) { xLabel(plot, $0) }
                return numbers.string(v.1, format: chart.yAxis.format, fallbackDecimals: decimals) + " ("
                    + strings.format(.at, ["x": tied]) + ")"
            }
            let name = plot.title.isEmpty ? (chart.yAxis.title ?? strings[.value]) : plot.title
            let gaps = plot.values.indices.filter { plot.values[$0] == nil }
            parts.append(
                strings.format(.lowHigh, ["name": name, "low": value(low), "high": value(high)])
                    + missing(gaps, label: { xLabel(plot, $0) }, strings: strings))
        }
        for threshold in chart.thresholds {
            let plots = line.plots.filter { threshold.series == nil || threshold.series == $0.title }
            let beyond = plots.flatMap { $0.values.compactMap { $0 } }.filter(threshold.isBeyond).count
            guard beyond > 0 else { continue }
            let name = threshold.label ?? strings[.theThreshold]
            parts.append(
                beyond == 1
                    ? strings.format(.oneValueBeyond, ["threshold": name])
                    : strings.format(.valuesBeyond, ["count": String(beyond), "threshold": name]))
        }
        return parts.joined(separator: ". ") + "."
    }

    private static func isDates(_ x: XValues?) -> Bool {
        if case .dates? = x { return true }
        return false
    }
}
