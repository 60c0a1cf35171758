/// A labelled straight line across the plot at a fixed value.
public struct ReferenceLine: Sendable, Hashable, Codable {
    /// Which axis the value is on.
    public enum Axis: String, Sendable, Hashable, Codable, CaseIterable, NamedOption {
        /// A horizontal line at a y value.
        case y
        /// A vertical line at an x value.
        case x
    }

    /// Which axis the value is on.
    public var axis: Axis
    /// Where the line is drawn, in data units.
    public var value: Double
    /// Its label.
    public var label: String?
    /// Its colour.
    public var tint: Color?
    /// Drawn dashed.
    public var dashed: Bool

    /// A line at `value` on `axis`.
    public init(axis: Axis = .y, value: Double, label: String? = nil, tint: Color? = nil, dashed: Bool = true) {
        self.axis = axis
        self.value = value
        self.label = label
        self.tint = tint
        self.dashed = dashed
    }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        axis = try c.decode(.axis, default: .y)
        value = try c.decode(Double.self, forKey: .value)
        label = try c.decodeIfPresent(.label)
        tint = try c.decodeIfPresent(.tint)
        dashed = try c.decode(.dashed, default: true)
    }
}
