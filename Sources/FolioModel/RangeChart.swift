/// One plot of a discrete graph: per x a single value, a low–high range, or several points.
public struct RangePlot: Sendable, Hashable, Codable {
    /// The plot's name, shown in the legend.
    public var title: String
    /// One entry per category: `[v]`, `[low, high]` or `[v1, v2, …]` (an empty entry leaves a gap).
    public var values: [[Double]]
    /// Its colour; the palette's next colour when nil.
    public var tint: Color?

    /// A plot named `title` with one list of values per category.
    public init(title: String, values: [[Double]], tint: Color? = nil) {
        self.title = title
        self.values = values
        self.tint = tint
    }
}

/// ResearchKit's discrete graph (`ORKDiscreteGraphChartView`, `ORKValueRange`):
/// min–max ranges per x, optionally connected, several plots side by side.
public struct RangeChart: Sendable, Hashable, Codable {
    /// The category labels along the axis.
    public var categories: [String]
    /// The plots.
    public var plots: [RangePlot]
    /// Join the ranges' mid points from one x to the next.
    public var connected: Bool
    /// Draw every value as its own point (ResearchKit's multiple-point graph) instead of a low–high bar.
    public var multiplePoints: Bool

    /// A range chart of `plots` over `categories`.
    public init(categories: [String], plots: [RangePlot], connected: Bool = false, multiplePoints: Bool = false) {
        self.categories = categories
        self.plots = plots
        self.connected = connected
        self.multiplePoints = multiplePoints
    }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        categories = try c.decode([LenientText].self, forKey: .categories).map(\.value)
        plots = try c.decode([RangePlot].self, forKey: .plots)
        connected = try c.decode(.connected, default: false)
        multiplePoints = try c.decode(.multiplePoints, default: false)
    }
}
