/// One slice of a pie or one ring: a title, a value and a tint.
public struct ChartSegment: Sendable, Hashable, Codable {
    /// The segment's name.
    public var title: String
    /// Its value; segments are drawn in proportion.
    public var value: Double
    /// Its colour; the palette's next colour when nil.
    public var tint: Color?

    /// A segment named `title` of `value`.
    public init(title: String, value: Double, tint: Color? = nil) {
        self.title = title
        self.value = value
        self.tint = tint
    }
}

/// Pie and donut charts (ResearchKit's `ORKPieChartView`).
public struct PieChart: Sendable, Hashable, Codable {
    /// The segments, clockwise from the top by default.
    public var segments: [ChartSegment]
    /// A hole in the middle, for a donut.
    public var donut: Bool
    /// Slices run clockwise from 12 o'clock (false: counter-clockwise).
    public var clockwise: Bool
    /// Large text in the centre of a donut, or above the pie.
    public var centerTitle: String?
    /// Smaller text under `centerTitle`.
    public var centerText: String?
    /// Print each slice's percentage outside it.
    public var percentLabels: Bool
    /// Indexes of slices pulled out of the pie.
    public var explode: [Int]
    /// A donut's ring width as a fraction of its radius, 0.1 to 1 (1 fills the hole); nil is 0.42.
    public var ringWidth: Double?

    /// A pie (or donut) chart of `segments`.
    public init(
        segments: [ChartSegment], donut: Bool = false, clockwise: Bool = true, centerTitle: String? = nil,
        centerText: String? = nil, percentLabels: Bool = true, explode: [Int] = [], ringWidth: Double? = nil
    ) {
        self.ringWidth = ringWidth
        self.segments = segments
        self.donut = donut
        self.clockwise = clockwise
        self.centerTitle = centerTitle
        self.centerText = centerText
        self.percentLabels = percentLabels
        self.explode = explode
    }

    private enum CodingKeys: String, CodingKey { case segments, clockwise, centerTitle, centerText, percentLabels, explode, ringWidth }

    init(from decoder: Decoder, donut: Bool) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        segments = try c.decode([ChartSegment].self, forKey: .segments)
        self.donut = donut
        clockwise = try c.decode(.clockwise, default: true)
        centerTitle = try c.decodeIfPresent(LenientText.self, forKey: .centerTitle)?.value
        centerText = try c.decodeIfPresent(LenientText.self, forKey: .centerText)?.value
        percentLabels = try c.decode(.percentLabels, default: true)
        explode = try c.decode(.explode, default: [])
        ringWidth = try c.decodeIfPresent(.ringWidth)
    }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws { try self.init(from: decoder, donut: false) }

    /// Encodes the value as a document writes it.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(segments, forKey: .segments)
        try c.encode(clockwise, forKey: .clockwise)
        try c.encodeIfPresent(centerTitle, forKey: .centerTitle)
        try c.encodeIfPresent(centerText, forKey: .centerText)
        try c.encode(percentLabels, forKey: .percentLabels)
        try c.encode(explode, forKey: .explode)
        try c.encodeIfPresent(ringWidth, forKey: .ringWidth)
    }
}
