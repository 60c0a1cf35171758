/// A chart block: what every chart family shares (title, caption, axes, legend,
/// thresholds, text alternative) and the family's own data in `body`.
///
/// For bar charts `xAxis` is the category axis and `yAxis` the value axis,
/// whatever the orientation.
public struct Chart: Sendable, Hashable, Codable {
    /// The chart family and its data.
    public enum Body: Sendable, Hashable {
        case bar(BarChart)
        case line(LineChart)
        case pie(PieChart)
        case rings(RingChart)
        case range(RangeChart)
        /// Measures against targets and ranges: bullets or dials.
        case measures(MeasureChart)
        /// Box plots of groups of values.
        case boxPlot(BoxPlotChart)
        /// A histogram of values.
        case histogram(HistogramChart)
        /// A calendar of daily values.
        case heatmap(HeatmapChart)
    }

    /// Heading above the chart.
    public var title: String?
    /// Text under the chart.
    public var caption: String?
    /// Plot height; each family picks a sensible default.
    public var height: Length?
    /// The least plot height the PDF may draw the chart at to keep it on the page it starts on,
    /// rather than move it whole to the next page and leave a gap (its text stays the same size).
    /// Without one, half its plot height (`defaultLeastPlotShare`); its `height` keeps it whole.
    public var minHeight: Length?
    /// The share of its plot height a chart without `minHeight` may be drawn at to stay on its page.
    public static let defaultLeastPlotShare = 0.5
    /// True keeps the chart and its data table on one page (a chart alone never splits).
    public var keepTogether: Bool?
    /// The horizontal axis: title, range, ticks, format.
    public var xAxis: ChartAxis
    /// The vertical axis: title, range, ticks, format, scale.
    public var yAxis: ChartAxis
    /// A second value axis on the trailing side, for line plots in another unit (`axis: secondary`).
    public var secondaryYAxis: ChartAxis?
    /// Where the legend goes and how its swatches look.
    public var legend: LegendOptions
    /// Target bands and lines drawn over the plot.
    public var thresholds: [ChartThreshold]
    /// Notes pointing at points of a bar, line or scatter chart.
    public var annotations: [ChartAnnotation] = []
    /// A text alternative written by the author; by default one is generated from the data.
    public var alt: String?
    /// HTML: add the data as a table in a `<details>` element under the chart.
    public var dataTable: Bool
    /// PDF: print that table under the chart too (false with `dataTable: html`).
    public var printsDataTable = true
    /// What the chart says when it has nothing to show (and its text alternative with it),
    /// instead of the language's "No data".
    public var noData: String?
    /// The chart family and its data.
    public var body: Body

    /// A chart of `body` with its title, caption, axes, legend, thresholds and text alternative.
    public init(
        title: String? = nil, caption: String? = nil, height: Length? = nil, xAxis: ChartAxis = ChartAxis(),
        yAxis: ChartAxis = ChartAxis(), legend: LegendOptions = LegendOptions(), thresholds: [ChartThreshold] = [],
        alt: String? = nil, dataTable: Bool = false, noData: String? = nil, secondaryYAxis: ChartAxis? = nil,
        _ body: Body
    ) {
        self.secondaryYAxis = secondaryYAxis
        self.noData = noData
        self.title = title
        self.caption = caption
        self.height = height
        self.xAxis = xAxis
        self.yAxis = yAxis
        self.legend = legend
        self.thresholds = thresholds
        self.alt = alt
        self.dataTable = dataTable
        self.body = body
    }

    /// A grouped (or stacked) bar chart, as CareKit's `OCKBarChart`.
    public static func bar(
        _ chart: BarChart, title: String? = nil, caption: String? = nil,
        xAxis: ChartAxis = ChartAxis(), yAxis: ChartAxis = ChartAxis()
    ) -> Chart {
        Chart(title: title, caption: caption, xAxis: xAxis, yAxis: yAxis, .bar(chart))
    }

    /// A line chart (or a scatter plot when its plots are not connected), as CareKit's
    /// `OCKLineChart` and ResearchKit's line graph.
    public static func line(
        _ chart: LineChart, title: String? = nil, caption: String? = nil,
        xAxis: ChartAxis = ChartAxis(), yAxis: ChartAxis = ChartAxis(), thresholds: [ChartThreshold] = []
    ) -> Chart {
        Chart(title: title, caption: caption, xAxis: xAxis, yAxis: yAxis, thresholds: thresholds, .line(chart))
    }

    /// A pie or donut chart, as ResearchKit's pie chart.
    public static func pie(_ chart: PieChart, title: String? = nil, caption: String? = nil) -> Chart {
        Chart(title: title, caption: caption, .pie(chart))
    }

    /// Nested activity rings, as CareKit's rings.
    public static func rings(_ chart: RingChart, title: String? = nil, caption: String? = nil) -> Chart {
        Chart(title: title, caption: caption, .rings(chart))
    }

    /// A range (discrete) graph, as ResearchKit's discrete graph.
    public static func range(
        _ chart: RangeChart, title: String? = nil, caption: String? = nil,
        xAxis: ChartAxis = ChartAxis(), yAxis: ChartAxis = ChartAxis()
    ) -> Chart {
        Chart(title: title, caption: caption, xAxis: xAxis, yAxis: yAxis, .range(chart))
    }

    /// The `kind` names accepted in documents.
    package static let kinds = [
        "bar", "line", "scatter", "pie", "donut", "rings", "range", "bullet", "gauge", "boxplot", "histogram", "heatmap",
    ]

    /// Where annotation `annotation` points: its x position (a category's index, an x number, a date's
    /// seconds) and its value; nil when the chart has no such x, or no value there to point at.
    package func annotationPoint(_ annotation: ChartAnnotation) -> (x: Double, y: Double)? {
        switch body {
        case .bar(let bar):
            guard let index = bar.categories.firstIndex(of: annotation.at) else { return nil }
            let series = annotation.series.flatMap { name in bar.series.first { $0.title == name } } ?? bar.series.first
            guard let y = annotation.y ?? series.flatMap({ index < $0.values.count ? $0.values[index] : nil }) else { return nil }
            return (Double(index), y)
        case .line(let line):
            let plot = annotation.series.flatMap { name in line.plots.first { $0.title == name } } ?? line.plots.first
            let x: Double
            switch plot?.x ?? line.x {
            case .categories(let names)?:
                guard let index = names.firstIndex(of: annotation.at) else { return nil }
                x = Double(index)
            case .numbers?:
                guard let number = Double(annotation.at), number.isFinite else { return nil }
                x = number
            case .dates?:
                guard let seconds = ISODate.parse(annotation.at) else { return nil }
                x = seconds
            case nil:
                // Values by position: `at` is the position, from 1.
                guard let position = Int(annotation.at), position >= 1 else { return nil }
                x = Double(position - 1)
            }
            if let y = annotation.y { return (x, y) }
            guard let plot else { return nil }
            let xs = line.xPositions(of: plot)
            guard let index = xs.firstIndex(of: x), index < plot.values.count, let y = plot.values[index] else { return nil }
            return (x, y)
        default: return nil
        }
    }

    /// The family's name, as written in `kind`.
    public var kind: String {
        switch body {
        case .bar: return "bar"
        case .line(let line): return line.connect ? "line" : "scatter"
        case .pie(let pie): return pie.donut ? "donut" : "pie"
        case .rings: return "rings"
        case .range: return "range"
        case .measures(let measures): return measures.style.rawValue
        case .boxPlot: return "boxplot"
        case .histogram: return "histogram"
        case .heatmap: return "heatmap"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case kind, title, caption, height, minHeight, keepTogether, xAxis, yAxis, secondaryYAxis, legend, thresholds, alt, dataTable, noData
        case annotations
    }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        title = try c.decodeIfPresent(.title)
        caption = try c.decodeIfPresent(.caption)
        height = try c.decodeIfPresent(.height)
        minHeight = try c.decodeIfPresent(.minHeight)
        keepTogether = try c.decodeIfPresent(.keepTogether)
        xAxis = try c.decode(.xAxis, default: ChartAxis())
        yAxis = try c.decode(.yAxis, default: ChartAxis())
        secondaryYAxis = try c.decodeIfPresent(.secondaryYAxis)
        legend = try c.decode(.legend, default: LegendOptions())
        thresholds = try c.decode(.thresholds, default: [])
        alt = try c.decodeIfPresent(.alt)
        let placement = try c.decode(.dataTable, default: ChartDataTablePlacement.none)
        dataTable = placement != .none
        printsDataTable = placement != .html
        noData = try c.decodeIfPresent(.noData)
        annotations = try c.decode(.annotations, default: [])
        let kind = try c.decodeIfPresent(String.self, forKey: .kind) ?? "bar"
        switch kind {
        case "bar": body = .bar(try BarChart(from: decoder))
        case "line": body = .line(try LineChart(from: decoder, connect: true))
        case "scatter": body = .line(try LineChart(from: decoder, connect: false))
        case "pie": body = .pie(try PieChart(from: decoder, donut: false))
        case "donut": body = .pie(try PieChart(from: decoder, donut: true))
        case "rings": body = .rings(try RingChart(from: decoder))
        case "range": body = .range(try RangeChart(from: decoder))
        case "bullet": body = .measures(try MeasureChart(from: decoder, style: .bullet))
        case "gauge": body = .measures(try MeasureChart(from: decoder, style: .gauge))
        case "boxplot": body = .boxPlot(try BoxPlotChart(from: decoder))
        case "histogram": body = .histogram(try HistogramChart(from: decoder))
        case "heatmap": body = .heatmap(try HeatmapChart(from: decoder))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: c,
                debugDescription: "unknown chart kind \"\(kind)\"; expected one of: \(Chart.kinds.joined(separator: ", "))")
        }
        if let type = xAxis.type, case .line(var line) = body {
            // The axis type decides what the x values are read as.
            line.x = try line.x?.coerced(to: type, codingPath: c.codingPath + [FieldKey("x")])
            for index in line.plots.indices {
                line.plots[index].x = try line.plots[index].x?.coerced(
                    to: type, codingPath: c.codingPath + [FieldKey("plots"), IndexKey(index), FieldKey("x")])
            }
            body = .line(line)
        }
    }

    /// Encodes the value as a document writes it.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encodeIfPresent(title, forKey: .title)
        try c.encodeIfPresent(caption, forKey: .caption)
        try c.encodeIfPresent(height, forKey: .height)
        try c.encodeIfPresent(minHeight, forKey: .minHeight)
        try c.encodeIfPresent(keepTogether, forKey: .keepTogether)
        try c.encode(xAxis, forKey: .xAxis)
        try c.encode(yAxis, forKey: .yAxis)
        try c.encodeIfPresent(secondaryYAxis, forKey: .secondaryYAxis)
        try c.encode(legend, forKey: .legend)
        try c.encode(thresholds, forKey: .thresholds)
        try c.encodeIfPresent(alt, forKey: .alt)
        try c.encode(
            dataTable ? (printsDataTable ? ChartDataTablePlacement.everywhere : .html) : ChartDataTablePlacement.none, forKey: .dataTable)
        try c.encodeIfPresent(noData, forKey: .noData)
        if !annotations.isEmpty { try c.encode(annotations, forKey: .annotations) }
        switch body {
        case .bar(let value): try value.encode(to: encoder)
        case .line(let value): try value.encode(to: encoder)
        case .pie(let value): try value.encode(to: encoder)
        case .rings(let value): try value.encode(to: encoder)
        case .range(let value): try value.encode(to: encoder)
        case .measures(let value): try value.encode(to: encoder)
        case .boxPlot(let value): try value.encode(to: encoder)
        case .histogram(let value): try value.encode(to: encoder)
        case .heatmap(let value): try value.encode(to: encoder)
        }
    }
}

/// One named sequence of values in a bar chart, drawn in its tint (CareKit's `OCKBarSeries`).
public struct ChartSeries: Sendable, Hashable, Codable {
    /// The series name, shown in the legend; an empty title has no legend entry.
    public var title: String
    /// One value per category; nil is a missing value: no bar, and "no data" in the text alternative.
    public var values: [Double?]
    /// Text printed at each bar instead of its formatted value (OCKBarSeries' value labels,
    /// such as "N/A", "30%", "10°"); a nil entry prints the value.
    public var valueLabels: [String?]?
    /// Its colour; the palette's next colour when nil.
    public var tint: Color?
    /// A colour per bar (nil entries use `tint`), to single out bars; the legend shows `tint`.
    public var tints: [Color?]?
    /// Series with the same stack name are stacked on each other, and different stacks stand
    /// side by side in each category (grouped and stacked at once).
    public var stack: String?

    /// A series named `title` with `values`, optionally labelled, coloured per bar and stacked.
    public init(
        title: String = "", values: [Double?], valueLabels: [String?]? = nil, tint: Color? = nil,
        tints: [Color?]? = nil, stack: String? = nil
    ) {
        self.title = title
        self.values = values
        self.valueLabels = valueLabels
        self.tint = tint
        self.tints = tints
        self.stack = stack
    }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        title = try c.decodeIfPresent(LenientText.self, forKey: .title)?.value ?? ""
        values = try c.decode([Double?].self, forKey: .values)
        valueLabels = try c.decodeIfPresent([LenientText?].self, forKey: .valueLabels)?.map { $0?.value }
        tint = try c.decodeIfPresent(.tint)
        tints = try c.decodeIfPresent(.tints)
        stack = try c.decodeIfPresent(LenientText.self, forKey: .stack)?.value
    }

    /// The value at `index` that is set, or nil.
    package func value(at index: Int) -> Double? { index < values.count ? values[index] : nil }
}

/// Bars per category, one per series side by side or stacked, with value labels.
public struct BarChart: Sendable, Hashable, Codable {
    /// Bars rising from the x axis, or lying along rows as in CareKit.
    public enum Orientation: String, Sendable, Hashable, Codable, CaseIterable, NamedOption { case vertical, horizontal }

    /// The category labels along the axis.
    public var categories: [String]
    /// A second, smaller line under each category title (horizontal bars), as in CareKit.
    public var categorySubtitles: [String]?
    /// The series, side by side (or stacked).
    public var series: [ChartSeries]
    /// Vertical (bars rise) or horizontal (bars extend to the right).
    public var orientation: Orientation
    /// Stack the series on each other (ResearchKit's value stacks) instead of grouping them;
    /// series' `stack` names make several stacks side by side.
    public var stacked: Bool
    /// Print each bar's value (or its series' value label) at its end, in the series colour.
    public var valueLabels: Bool

    /// A bar chart of `series` over `categories`.
    public init(
        categories: [String], categorySubtitles: [String]? = nil, series: [ChartSeries],
        orientation: Orientation = .vertical, stacked: Bool = false, valueLabels: Bool = true
    ) {
        self.categories = categories
        self.categorySubtitles = categorySubtitles
        self.series = series
        self.orientation = orientation
        self.stacked = stacked
        self.valueLabels = valueLabels
    }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        categories = try c.decode([LenientText].self, forKey: .categories).map(\.value)
        categorySubtitles = try c.decodeIfPresent([LenientText].self, forKey: .categorySubtitles)?.map(\.value)
        series = try c.decode([ChartSeries].self, forKey: .series)
        orientation = try c.decode(.orientation, default: .vertical)
        stacked = try c.decode(.stacked, default: false)
        valueLabels = try c.decode(.valueLabels, default: true)
    }
}

extension Chart: BlockContent {
    /// `chart`.
    package static let kind = Block.Kind.chart
    /// Whether `keepTogether` is true.
    package var keepsTogether: Bool { keepTogether ?? false }
    /// The title, caption, axis titles, threshold labels and the data's names (categories,
    /// series, plots, segments, rings); which of them a chart draws depends on its options.
    package var textContent: [String] {
        var texts = [title, caption, xAxis.title, yAxis.title, secondaryYAxis?.title].compactMap { $0 }
        texts += thresholds.compactMap(\.label)
        texts += [xAxis, yAxis, secondaryYAxis ?? ChartAxis()].flatMap { ($0.ticks ?? []).compactMap(\.label) }
        texts += annotations.map(\.text)
        switch body {
        case .bar(let bar):
            texts += bar.categories + (bar.categorySubtitles ?? []) + bar.series.map(\.title)
            texts += bar.series.flatMap { ($0.valueLabels ?? []).compactMap { $0 } }
        case .line(let line):
            if case .categories(let names) = line.x { texts += names }
            texts += line.plots.map(\.title) + line.referenceLines.compactMap(\.label)
        case .pie(let pie): texts += pie.segments.map(\.title) + [pie.centerTitle, pie.centerText].compactMap { $0 }
        case .rings(let rings): texts += rings.rings.map(\.title) + [rings.centerLabel].compactMap { $0 }
        case .range(let range): texts += range.categories + range.plots.map(\.title)
        case .measures(let measures):
            texts += measures.measures.flatMap { [$0.title] + ($0.bandLabels ?? []) + [$0.unit].compactMap { $0 } }
        case .boxPlot(let boxes): texts += boxes.groups.map(\.title)
        case .histogram, .heatmap: break
        }
        return texts
    }
}
