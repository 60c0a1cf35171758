import FolioModel

/// A chart's data as a table, for readers who cannot see the drawing.
public struct ChartDataTable: Sendable, Hashable {
    public var header: [String]
    public var rows: [[String]]

    /// The table for `chart`: one row per category, x position, slice or ring.
    public init(_ chart: Chart) {
        func number(_ value: Double, _ format: ValueFormat?, _ values: [Double]) -> String {
            NumberFormat.string(value, format: format, fallbackDecimals: NumberFormat.decimals(for: values))
        }
        switch chart.body {
        case .bar(let bar):
            header = [chart.xAxis.title ?? "Category"] + bar.series.map(\.title)
            rows = bar.categories.enumerated().map { c, name in
                [name] + bar.series.map { number($0.values[c], chart.yAxis.format, $0.values) }
            }
        case .line(let line):
            header = [chart.xAxis.title ?? "x"] + line.plots.map(\.title)
            let count = line.plots.map(\.values.count).max() ?? 0
            let reference = line.plots.first { $0.values.count == count }
            rows = (0..<count).map { i in
                let x: String
                switch reference?.x ?? line.x {
                case .categories(let names)?: x = i < names.count ? names[i] : ""
                case .numbers(let values)?: x = number(values[i], chart.xAxis.format, values)
                case .dates(let values)?: x = NumberFormat.string(values[i], format: chart.xAxis.format ?? .date(pattern: "yyyy-MM-dd HH:mm"), fallbackDecimals: 0)
                case nil: x = String(i + 1)
                }
                return [x] + line.plots.map { plot in
                    i < plot.values.count ? plot.values[i].map { number($0, chart.yAxis.format, plot.values.compactMap { $0 }) } ?? "–" : ""
                }
            }
        case .pie(let pie):
            header = ["Segment", "Value", "Share"]
            let percents = PieChartLayout.percentages(pie.segments.map(\.value))
            rows = zip(pie.segments, percents).map { [$0.title, number($0.value, nil, pie.segments.map(\.value)), "\($1)%"] }
        case .rings(let rings):
            header = ["Ring", "Progress"]
            rows = rings.rings.map { [$0.title, "\(Int(($0.value * 100).rounded()))%"] }
        case .range(let range):
            header = [chart.xAxis.title ?? "Category"] + range.plots.map(\.title)
            rows = range.categories.enumerated().map { c, name in
                [name] + range.plots.map { plot in
                    let entry = plot.values[c].sorted()
                    let values = plot.values.flatMap { $0 }
                    if entry.count == 2 {
                        return "\(number(entry[0], chart.yAxis.format, values))–\(number(entry[1], chart.yAxis.format, values))"
                    }
                    return entry.map { number($0, chart.yAxis.format, values) }.joined(separator: ", ")
                }
            }
        }
    }
}
