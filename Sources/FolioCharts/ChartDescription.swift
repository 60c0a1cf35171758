import FolioModel

/// Text alternatives generated from chart data, for screen readers and PDF alt text.
public enum ChartDescription {
    /// "Bar chart, Pain and medication, 7 categories Mon–Sun. Pain from 1 (Wed) to 7 (Sat). …"
    public static func bar(chart: Chart, bar: BarChart) -> String {
        var parts: [String] = []
        var head = "Bar chart"
        if let title = chart.title, !title.isEmpty { head += ", \(title)" }
        let count = bar.categories.count
        if let first = bar.categories.first, let last = bar.categories.last {
            head += count == 1 ? ", 1 category \(first)" : ", \(count) categories \(first)–\(last)"
        }
        parts.append(head)
        for series in bar.series {
            let decimals = bar.decimals ?? NumberFormat.decimals(for: series.values)
            guard let low = series.values.indices.min(by: { series.values[$0] < series.values[$1] }),
                  let high = series.values.indices.max(by: { series.values[$0] < series.values[$1] }) else { continue }
            func value(_ i: Int) -> String {
                let category = i < bar.categories.count ? bar.categories[i] : "#\(i + 1)"
                return "\(NumberFormat.string(series.values[i], decimals: decimals)) (\(category))"
            }
            parts.append("\(series.title) from \(value(low)) to \(value(high))")
        }
        return parts.joined(separator: ". ") + "."
    }
}
