/// A labelled straight line across the plot at a fixed value.
public struct ReferenceLine: Sendable, Hashable, Codable {
    public enum Axis: String, Sendable, Hashable, Codable, CaseIterable, NamedOption {
        /// A horizontal line at a y value.
        case y
        /// A vertical line at an x value.
        case x
    }

    public var axis: Axis
    public var value: Double
    public var label: String?
    public var tint: Color?
    public var dashed: Bool

    public init(axis: Axis = .y, value: Double, label: String? = nil, tint: Color? = nil, dashed: Bool = true) {
        self.axis = axis
        self.value = value
        self.label = label
        self.tint = tint
        self.dashed = dashed
    }

    private enum CodingKeys: String, CodingKey { case axis, value, label, tint, dashed }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        axis = try c.decodeIfPresent(Axis.self, forKey: .axis) ?? .y
        value = try c.decode(Double.self, forKey: .value)
        label = try c.decodeIfPresent(String.self, forKey: .label)
        tint = try c.decodeIfPresent(Color.self, forKey: .tint)
        dashed = try c.decodeIfPresent(Bool.self, forKey: .dashed) ?? true
    }
}
