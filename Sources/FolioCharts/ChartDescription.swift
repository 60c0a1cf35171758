import FolioModel

/// Text alternatives generated from chart data, for screen readers and PDF alt text.
public enum ChartDescription {
    /// The author's `alt`, or a summary of the data such as
    /// "Bar chart, Pain, 7 categories Mon–Sun. Pain from 1 (Wed) to 7 (Sat)."
    public static func describe(_ chart: Chart) -> String {
        if let alt = chart.alt, !alt.isEmpty { return alt }
        let title = chart.title.map { $0.isEmpty ? "" : ", \($0)" } ?? ""
        switch chart.body {
        case .bar(let bar): return self.bar(bar, chart: chart, title: title)
        case .line(let line): return self.line(line, chart: chart, title: title)
        case .pie(let pie):
            let percents = PieChartLayout.percentages(pie.segments.map(\.value))
            guard percents.contains(where: { $0 > 0 }) else { return "\(pie.donut ? "Donut" : "Pie") chart\(title): no data." }
            let parts = zip(pie.segments, percents).map { "\($0.title) \($1)%" }
            return "\(pie.donut ? "Donut" : "Pie") chart\(title). " + parts.joined(separator: ", ") + "."
        case .rings(let rings):
            let parts = rings.rings.map { "\($0.title) \(($0.value * 100).clampedInt())%" }
            return "Ring chart\(title). " + (parts.isEmpty ? "No data" : parts.joined(separator: ", ")) + "."
        case .range(let range):
            var parts = ["Range chart\(title)" + categories(range.categories)]
            for plot in range.plots {
                let values = plot.values.flatMap { $0 }
                guard let low = values.min(), let high = values.max() else { continue }
                let decimals = NumberFormat.decimals(for: values)
                parts.append(
                    "\(plot.title) from \(NumberFormat.string(low, decimals: decimals)) to \(NumberFormat.string(high, decimals: decimals))"
                )
            }
            return parts.joined(separator: ". ") + "."
        }
    }

    private static func categories(_ names: [String]) -> String {
        guard let first = names.first, let last = names.last else { return ", no data" }
        return names.count == 1 ? ", 1 category \(first)" : ", \(names.count) categories \(first)–\(last)"
    }

    private static func bar(_ bar: BarChart, chart: Chart, title: String) -> String {
        var parts = ["\(bar.stacked ? "Stacked bar" : "Bar") chart\(title)" + categories(bar.categories)]
        for series in bar.series {
            guard let low = series.values.indices.min(by: { series.values[$0] < series.values[$1] }),
                let high = series.values.indices.max(by: { series.values[$0] < series.values[$1] })
            else { continue }
            let decimals = NumberFormat.decimals(for: series.values)
            func value(_ i: Int) -> String {
                let category = i < bar.categories.count ? bar.categories[i] : "#\(i + 1)"
                return "\(NumberFormat.string(series.values[i], format: chart.yAxis.format, fallbackDecimals: decimals)) (\(category))"
            }
            parts.append("\(series.title) from \(value(low)) to \(value(high))")
        }
        return parts.joined(separator: ". ") + "."
    }

    private static func line(_ line: LineChart, chart: Chart, title: String) -> String {
        var parts: [String] = []
        let count = line.plots.map(\.values.count).max() ?? 0
        var head = "\(line.connect ? "Line" : "Scatter") chart\(title), \(count) point\(count == 1 ? "" : "s")"
        func xLabel(_ plot: LinePlot, _ index: Int) -> String {
            switch plot.x ?? line.x {
            case .categories(let names)?: return index < names.count ? names[index] : "#\(index + 1)"
            case .numbers(let values)?, .dates(let values)?:
                let fallback = NumberFormat.decimals(for: values)
                return NumberFormat.string(
                    values[index], format: chart.xAxis.format ?? (isDates(plot.x ?? line.x) ? .date(pattern: "MMM d HH:mm") : nil),
                    fallbackDecimals: fallback)
            case nil: return "#\(index + 1)"
            }
        }
        if let plot = line.plots.first, !plot.values.isEmpty {
            head += " from \(xLabel(plot, 0)) to \(xLabel(plot, plot.values.count - 1))"
        }
        parts.append(head)
        for plot in line.plots {
            let set = plot.values.enumerated().compactMap { i, v in v.map { (i, $0) } }
            guard let low = set.min(by: { $0.1 < $1.1 }), let high = set.max(by: { $0.1 < $1.1 }) else { continue }
            let decimals = NumberFormat.decimals(for: set.map(\.1))
            func value(_ v: (Int, Double)) -> String {
                "\(NumberFormat.string(v.1, format: chart.yAxis.format, fallbackDecimals: decimals)) (at \(xLabel(plot, v.0)))"
            }
            var part = "\(plot.title) from \(value(low)) to \(value(high))"
            let gaps = plot.values.filter { $0 == nil }.count
            if gaps > 0 { part += ", \(gaps) missing" }
            parts.append(part)
        }
        for threshold in chart.thresholds {
            let plots = line.plots.filter { threshold.series == nil || threshold.series == $0.title }
            let beyond = plots.flatMap { $0.values.compactMap { $0 } }.filter(threshold.isBeyond).count
            if beyond > 0 { parts.append("\(beyond) value\(beyond == 1 ? "" : "s") beyond \(threshold.label ?? "the threshold")") }
        }
        return parts.joined(separator: ". ") + "."
    }

    private static func isDates(_ x: XValues?) -> Bool {
        if case .dates? = x { return true }
        return false
    }
}
