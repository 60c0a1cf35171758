/// One axis of a chart: title, range, ticks, format, grid and scale.
public struct ChartAxis: Sendable, Hashable, Codable {
    /// Linear or base-10 logarithmic.
    public enum Scale: String, Sendable, Hashable, Codable, CaseIterable, NamedOption { case linear, log }

    /// What an axis's values are: names, numbers or dates.
    public enum ValueType: String, Sendable, Hashable, Codable, CaseIterable, NamedOption { case category, number, date }

    /// The axis title.
    public var title: String?
    /// Lowest value shown; it only widens the data's range.
    public var min: Double?
    /// Highest value shown; it only widens the data's range.
    public var max: Double?
    /// Distance between ticks; nil picks a "nice" 1, 2 or 5 × 10ⁿ step.
    public var tickInterval: Double?
    /// Exactly these ticks.
    public var ticks: [Double]?
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
        title: String? = nil, min: Double? = nil, max: Double? = nil, tickInterval: Double? = nil,
        ticks: [Double]? = nil, format: ValueFormat? = nil, grid: Bool = true, scale: Scale = .linear,
        type: ValueType? = nil
    ) {
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

    private enum CodingKeys: String, CodingKey { case title, min, max, tickInterval, ticks, format, grid, scale, type }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        title = try c.decodeIfPresent(String.self, forKey: .title)
        min = try c.decodeIfPresent(Double.self, forKey: .min)
        max = try c.decodeIfPresent(Double.self, forKey: .max)
        tickInterval = try c.decodeIfPresent(Double.self, forKey: .tickInterval)
        ticks = try c.decodeIfPresent([Double].self, forKey: .ticks)
        format = try c.decodeIfPresent(ValueFormat.self, forKey: .format)
        grid = try c.decodeIfPresent(Bool.self, forKey: .grid) ?? true
        scale = try c.decodeIfPresent(Scale.self, forKey: .scale) ?? .linear
        type = try c.decodeIfPresent(ValueType.self, forKey: .type)
    }
}
