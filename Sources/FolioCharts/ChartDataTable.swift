import FolioGraphics
import FolioModel

/// A chart's data as a table, for readers who cannot see the drawing.
package struct ChartDataTable: Sendable, Hashable {
    /// The column headings.
    package var header: [String]
    /// The rows, one per category or point, values formatted as the chart's axis says.
    package var rows: [[String]]

    /// The data as a table block, captioned `caption`: its cells escaped, so a name such as `*A*`
    /// prints as written (cells read markup), its values aligned right.
    package func table(caption: String? = nil) -> Table {
        Table(
            header: header.map(RichText.escaped), rows: rows.map { $0.map(RichText.escaped) },
            align: [.left] + Array(repeating: .right, count: Swift.max(header.count - 1, 0)), zebra: true, caption: caption)
    }

    /// The table for `chart`: one row per category, x position, slice or ring, headed and
    /// formatted in `strings`' language (each column's numbers with the decimals the whole column
    /// needs, decided once).
    package init(_ chart: Chart, strings: BuiltInStrings) {
        let numbers = NumberFormat(strings)
        switch chart.body {
        case .bar(let bar): (header, rows) = Self.bar(bar, chart: chart, strings: strings, numbers: numbers)
        case .line(let line): (header, rows) = Self.line(line, chart: chart, strings: strings, numbers: numbers)
        case .pie(let pie):
            header = [strings[.segment], strings[.value], strings[.share]]
            let percents = PieChartLayout.percentages(pie.segments.map(\.value))
            let format = ColumnFormat(nil, values: pie.segments.map(\.value), numbers: numbers)
            rows = zip(pie.segments, percents).map { [$0.title, format($0.value), "\($1)%"] }
        case .rings(let rings):
            header = [strings[.ring], strings[.progress]]
            rows = rings.rings.map { [$0.title, "\(($0.value * 100).clampedInt())%"] }
        case .range(let range): (header, rows) = Self.range(range, chart: chart, strings: strings, numbers: numbers)
        case .boxPlot(let boxes): (header, rows) = Self.boxPlot(boxes, chart: chart, strings: strings, numbers: numbers)
        case .histogram(let histogram): (header, rows) = Self.histogram(histogram, chart: chart, strings: strings, numbers: numbers)
        case .heatmap(let heatmap): (header, rows) = Self.heatmap(heatmap, chart: chart, strings: strings, numbers: numbers)
        case .measures(let measures):
            header = [strings[.measure], strings[.value], strings[.target], strings[.ranges]]
            rows = measures.measures.map { measure in
                let written = MeasureText(measure: measure, numbers: numbers)
                return [
                    measure.title, written.value, measure.target.map(written.number) ?? "",
                    measure.bands.indices.map(written.range).joined(separator: "; "),
                ]
            }
        }
    }

    /// Bars: a row per category, a column per series; a cell says what the bar says (the series'
    /// value label, else the value, else "No data").
    private static func bar(_ bar: BarChart, chart: Chart, strings: BuiltInStrings, numbers: NumberFormat) -> (
        header: [String], rows: [[String]]
    ) {
        let header =
            [chart.xAxis.title ?? strings[.category]]
            + bar.series.map { $0.title.isEmpty ? (chart.yAxis.title ?? strings[.value]) : $0.title }
        let columns = bar.series.map { ColumnFormat(chart.yAxis.format, values: $0.values.compactMap { $0 }, numbers: numbers) }
        let rows = bar.categories.enumerated().map { c, name in
            [name]
                + zip(bar.series, columns).map { series, format in
                    if let labels = series.valueLabels, c < labels.count, let label = labels[c] { return label }
                    return series.value(at: c).map { format($0) } ?? strings[.noData]
                }
        }
        return (header, rows)
    }

    /// Lines: a row per x position (a category, a number or a date), a column per plot.
    private static func line(_ line: LineChart, chart: Chart, strings: BuiltInStrings, numbers: NumberFormat) -> (
        header: [String], rows: [[String]]
    ) {
        let header =
            [chart.xAxis.title ?? "x"]
            + line.plots.map { $0.title.isEmpty ? (chart.yAxis.title ?? strings[.value]) : $0.title }
        let count = line.plots.map(\.values.count).max() ?? 0
        let positions = line.plots.first { $0.values.count == count }?.x ?? line.x
        let columns = line.plots.map { ColumnFormat(chart.yAxis.format, values: $0.values.compactMap { $0 }, numbers: numbers) }
        let xFormat: ColumnFormat?
        switch positions {
        case .numbers(let values)?: xFormat = ColumnFormat(chart.xAxis.format, values: values, numbers: numbers)
        case .dates?: xFormat = ColumnFormat(chart.xAxis.format ?? .date(pattern: "yyyy-MM-dd HH:mm"), values: [], numbers: numbers)
        default: xFormat = nil
        }
        let rows = (0..<count).map { i in
            let x: String
            switch positions {
            case .categories(let names)?: x = i < names.count ? names[i] : ""
            case .numbers(let values)?, .dates(let values)?: x = xFormat.map { $0(values[i]) } ?? ""
            case nil: x = String(i + 1)
            }
            return [x]
                + zip(line.plots, columns).map { plot, format in
                    i < plot.values.count ? plot.values[i].map { format($0) } ?? strings[.noData] : ""
                }
        }
        return (header, rows)
    }

    /// Ranges: a row per category, each plot's low–high (or its points).
    private static func range(_ range: RangeChart, chart: Chart, strings: BuiltInStrings, numbers: NumberFormat) -> (
        header: [String], rows: [[String]]
    ) {
        let header = [chart.xAxis.title ?? strings[.category]] + range.plots.map(\.title)
        let columns = range.plots.map { ColumnFormat(chart.yAxis.format, values: $0.values.flatMap { $0 }, numbers: numbers) }
        let rows = range.categories.enumerated().map { c, name in
            [name]
                + zip(range.plots, columns).map { plot, format in
                    let entry = plot.values[c].sorted()
                    if entry.count == 2 && !range.multiplePoints { return "\(format(entry[0]))–\(format(entry[1]))" }
                    return entry.map { format($0) }.joined(separator: ", ")
                }
        }
        return (header, rows)
    }

    /// Box plots: a row per group with its count, five numbers and outliers.
    private static func boxPlot(_ boxes: BoxPlotChart, chart: Chart, strings: BuiltInStrings, numbers: NumberFormat) -> (
        header: [String], rows: [[String]]
    ) {
        let header = [
            chart.xAxis.title ?? strings[.category], strings[.count], strings[.minimum], strings[.lowerQuartile], strings[.median],
            strings[.upperQuartile], strings[.maximum], strings[.outlierValues],
        ]
        let rows = boxes.groups.map { group in
            guard let stats = BoxStatistics(group.values) else { return [group.title, "0", "", "", "", "", "", ""] }
            let column = ColumnFormat(chart.yAxis.format, values: group.values, numbers: numbers)
            return [
                group.title, String(stats.count), column(stats.minimum), column.statistic(stats.lowerQuartile),
                column.statistic(stats.median), column.statistic(stats.upperQuartile), column(stats.maximum),
                stats.outliers.map { column($0) }.joined(separator: ", "),
            ]
        }
        return (header, rows)
    }

    /// A histogram: a row per bin with its count.
    private static func histogram(_ histogram: HistogramChart, chart: Chart, strings: BuiltInStrings, numbers: NumberFormat) -> (
        header: [String], rows: [[String]]
    ) {
        let header = [chart.xAxis.title ?? strings[.bin], strings[.count]]
        guard let bins = HistogramBins(histogram) else { return (header, []) }
        let column = ColumnFormat(chart.xAxis.format, values: (0...bins.counts.count).map(bins.lower), numbers: numbers)
        let rows = bins.counts.enumerated().map { index, count in
            ["\(column(bins.lower(index)))–\(column(bins.lower(index + 1)))", String(count)]
        }
        return (header, rows)
    }

    /// A calendar: a row per day of its span, a day without data and a missed day said so.
    private static func heatmap(_ heatmap: HeatmapChart, chart: Chart, strings: BuiltInStrings, numbers: NumberFormat) -> (
        header: [String], rows: [[String]]
    ) {
        let header = [strings[.date], chart.yAxis.title ?? strings[.value]]
        guard let span = heatmap.span else { return (header, []) }
        let values = heatmap.valuesByDay
        let column = ColumnFormat(chart.yAxis.format, values: values.values.compactMap { $0 }, numbers: numbers)
        let rows = (span.first...span.last).map { day in
            let date = numbers.dateString(Double(day) * 86_400, pattern: numbers.datePattern(skeleton: "yMMMEd"))
            guard let value = values[day] ?? nil else { return [date, strings[.noData]] }
            let written = column(value)
            if let missedAt = heatmap.missedAt, value <= missedAt { return [date, "\(written) (\(strings[.missed]))"] }
            return [date, written]
        }
        return (header, rows)
    }
}
