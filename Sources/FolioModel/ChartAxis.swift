/// One axis of a chart: title, range, ticks, format, grid and scale.
public struct ChartAxis: Sendable, Hashable, Codable {
    /// Linear or base-10 logarithmic.
    public enum Scale: String, Sendable, Hashable, Codable, CaseIterable, NamedOption { case linear, log }

    /// What an axis's values are: names, numbers or dates.
    public enum ValueType: String, Sendable, Hashable, Codable, CaseIterable, NamedOption { case category, number, date }

    /// The axis title.
    public var title: String?
    /// The unit of its values (`mmol/L`), which the chart's text alternative writes after each value;
    /// by default the one a series' or the axis's title gives ("Weight (kg)", "mmol/L").
    public var unit: String?
    /// Lowest value shown; it only widens the data's range unless `clip` is on.
    public var min: Double?
    /// Highest value shown; it only widens the data's range unless `clip` is on.
    public var max: Double?
    /// Make `min` and `max` exact: the axis shows that range and nothing else, and data beyond it
    /// is cut off at the plot's edge (Core Plot's plot range) instead of widening the axis.
    public var clip: Bool
    /// Distance between ticks; nil picks a "nice" 1, 2 or 5 × 10ⁿ step.
    public var tickInterval: Double?
    /// Exactly these ticks, each optionally with its own label.
    public var ticks: [ChartTick]?
    /// How tick and value labels are written (decimals, percent, unit).
    public var format: ValueFormat?
    /// Draw grid lines at the ticks.
    public var grid: Bool
    /// Linear or logarithmic.
    public var scale: Scale
    /// The kind of the x values of a line or scatter chart, forcing what they are read as;
    /// nil reads numbers as numbers, ISO 8601 strings as dates and other strings as categories.
    public var type: ValueType?

    /// An axis with the given title, range, ticks, format and scale.
    public init(
        title: String? = nil, min: Double? = nil, max: Double? = nil, clip: Bool = false, tickInterval: Double? = nil,
        ticks: [ChartTick]? = nil, format: ValueFormat? = nil, grid: Bool = true, scale: Scale = .linear,
        type: ValueType? = nil
    ) {
        self.clip = clip
        self.title = title
        self.min = min
        self.max = max
        self.tickInterval = tickInterval
        self.ticks = ticks
        self.format = format
        self.grid = grid
        self.scale = scale
        self.type = type
    }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        title = try c.decodeIfPresent(.title)
        unit = try c.decodeIfPresent(.unit)
        min = try c.decodeIfPresent(.min)
        max = try c.decodeIfPresent(.max)
        tickInterval = try c.decodeIfPresent(.tickInterval)
        clip = try c.decode(.clip, default: false)
        ticks = try c.decodeIfPresent(.ticks)
        format = try c.decodeIfPresent(.format)
        grid = try c.decode(.grid, default: true)
        scale = try c.decode(.scale, default: .linear)
        type = try c.decodeIfPresent(.type)
    }
}
