/// A tick an author places on an axis: its value and, optionally, the label printed there
/// instead of the formatted number (`ticks: [0, {value: 5, label: "target"}]`).
public struct ChartTick: Sendable, Hashable, Codable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    /// Where the tick is, in the axis's units.
    public var value: Double
    /// Text printed at the tick; the axis format writes the value when nil.
    public var label: String?

    /// A tick at `value`, labelled `label` (or by the axis format).
    public init(_ value: Double, label: String? = nil) {
        self.value = value
        self.label = label
    }

    /// A tick written as a number literal.
    public init(floatLiteral value: Double) { self.init(value) }

    /// A tick written as an integer literal.
    public init(integerLiteral value: Int) { self.init(Double(value)) }

    private enum CodingKeys: String, CodingKey { case value, label }

    /// Decodes a bare number or `{value, label}`.
    public init(from decoder: Decoder) throws {
        if let number = try? decoder.singleValueContainer().decode(Double.self) {
            self.init(number)
            return
        }
        guard let c = try? decoder.container(keyedBy: CodingKeys.self) else {
            throw DecodingError.typeMismatch(
                ChartTick.self,
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "expected a number or {value, label}"))
        }
        self.init(
            try c.decode(Double.self, forKey: .value), label: try c.decodeIfPresent(LenientText.self, forKey: .label)?.value)
    }

    /// Encodes a bare number when unlabelled, else `{value, label}`.
    public func encode(to encoder: Encoder) throws {
        guard let label else {
            var single = encoder.singleValueContainer()
            try single.encode(value)
            return
        }
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(value, forKey: .value)
        try c.encode(label, forKey: .label)
    }
}
