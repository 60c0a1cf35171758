/// A chart block: a title, a caption and one of the chart families.
public struct Chart: Sendable, Hashable, Codable {
    /// The chart family and its data.
    public enum Body: Sendable, Hashable {
        case bar(BarChart)
    }

    public var title: String?
    public var caption: String?
    /// Plot height; each family picks a sensible default.
    public var height: Length?
    public var body: Body

    public init(title: String? = nil, caption: String? = nil, height: Length? = nil, _ body: Body) {
        self.title = title; self.caption = caption; self.height = height; self.body = body
    }

    /// A grouped bar chart, as CareKit's `OCKBarChart`.
    public static func bar(_ chart: BarChart, title: String? = nil, caption: String? = nil) -> Chart {
        Chart(title: title, caption: caption, .bar(chart))
    }

    private enum CodingKeys: String, CodingKey { case kind, title, caption, height }

    /// Chart families known to the decoder.
    public static let kinds = ["bar"]

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        caption = try container.decodeIfPresent(String.self, forKey: .caption)
        height = try container.decodeIfPresent(Length.self, forKey: .height)
        let kind = try container.decodeIfPresent(String.self, forKey: .kind) ?? "bar"
        switch kind {
        case "bar": body = .bar(try BarChart(from: decoder))
        default:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: container,
                debugDescription: "unknown chart kind \"\(kind)\"; expected one of: \(Chart.kinds.joined(separator: ", "))")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(caption, forKey: .caption)
        try container.encodeIfPresent(height, forKey: .height)
        switch body {
        case .bar(let bar):
            try container.encode("bar", forKey: .kind)
            try bar.encode(to: encoder)
        }
    }
}

/// One named sequence of values in a chart, drawn in its tint.
public struct ChartSeries: Sendable, Hashable, Codable {
    public var title: String
    public var values: [Double]
    public var tint: Color?

    public init(title: String, values: [Double], tint: Color? = nil) {
        self.title = title; self.values = values; self.tint = tint
    }
}

/// Bars grouped per category, one bar per series, with value labels, axis titles and a legend.
public struct BarChart: Sendable, Hashable, Codable {
    /// Bars rising from the x axis, or lying along rows as in CareKit.
    public enum Orientation: String, Sendable, Hashable, Codable { case vertical, horizontal }

    public var categories: [String]
    public var series: [ChartSeries]
    public var orientation: Orientation
    /// Print each bar's value at its end, in the series colour.
    public var valueLabels: Bool
    /// Digits after the decimal point in value labels and ticks; nil picks from the data.
    public var decimals: Int?
    public var xAxisTitle: String?
    public var yAxisTitle: String?
    public var legend: Bool
    /// Lowest and highest value on the scale; they only widen the data's range.
    public var min: Double?
    public var max: Double?

    public init(categories: [String], series: [ChartSeries], orientation: Orientation = .vertical,
                valueLabels: Bool = true, decimals: Int? = nil, xAxisTitle: String? = nil,
                yAxisTitle: String? = nil, legend: Bool = true, min: Double? = nil, max: Double? = nil) {
        self.categories = categories; self.series = series; self.orientation = orientation
        self.valueLabels = valueLabels; self.decimals = decimals; self.xAxisTitle = xAxisTitle
        self.yAxisTitle = yAxisTitle; self.legend = legend; self.min = min; self.max = max
    }

    private enum CodingKeys: String, CodingKey {
        case categories, series, orientation, valueLabels, decimals, xAxisTitle, yAxisTitle, legend, min, max
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        categories = try container.decode([String].self, forKey: .categories)
        series = try container.decode([ChartSeries].self, forKey: .series)
        orientation = try container.decodeIfPresent(Orientation.self, forKey: .orientation) ?? .vertical
        valueLabels = try container.decodeIfPresent(Bool.self, forKey: .valueLabels) ?? true
        decimals = try container.decodeIfPresent(Int.self, forKey: .decimals)
        xAxisTitle = try container.decodeIfPresent(String.self, forKey: .xAxisTitle)
        yAxisTitle = try container.decodeIfPresent(String.self, forKey: .yAxisTitle)
        legend = try container.decodeIfPresent(Bool.self, forKey: .legend) ?? true
        min = try container.decodeIfPresent(Double.self, forKey: .min)
        max = try container.decodeIfPresent(Double.self, forKey: .max)
    }
}
