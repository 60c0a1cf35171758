/// A target zone or limit, as CareKit's thresholds: drawn as a line or a band
/// with a label; values beyond it are highlighted.
public struct ChartThreshold: Sendable, Hashable, Codable {
    /// Which side of `value` is beyond the threshold, or a target range.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable, NamedOption {
        /// Values above `value` are beyond the threshold.
        case greaterThan
        /// Values below `value` are beyond the threshold.
        case lessThan
        /// Values between `value` and `upper` are the target zone; values outside are beyond it.
        case range
    }

    /// Above, below, or a target range.
    public var kind: Kind
    /// Where it is drawn, in data units.
    public var value: Double
    /// Upper end, for `range`.
    public var upper: Double?
    /// Its label, drawn beside it.
    public var label: String?
    /// Its colour.
    public var tint: Color?
    /// Highlight the points beyond the threshold (default true).
    public var highlight: Bool
    /// Title of the series or plot whose points it highlights; nil for all of them.
    public var series: String?

    /// A threshold of `kind` at `value`.
    public init(
        kind: Kind, value: Double, upper: Double? = nil, label: String? = nil, tint: Color? = nil,
        highlight: Bool = true, series: String? = nil
    ) {
        self.kind = kind
        self.value = value
        self.upper = upper
        self.label = label
        self.tint = tint
        self.highlight = highlight
        self.series = series
    }

    /// Whether `v` lies beyond the threshold.
    public func isBeyond(_ v: Double) -> Bool {
        switch kind {
        case .greaterThan: return v > value
        case .lessThan: return v < value
        case .range: return v < value || v > (upper ?? value)
        }
    }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        kind = try c.decode(.kind, default: .greaterThan)
        value = try c.decode(Double.self, forKey: .value)
        upper = try c.decodeIfPresent(.upper)
        label = try c.decodeIfPresent(.label)
        tint = try c.decodeIfPresent(.tint)
        highlight = try c.decode(.highlight, default: true)
        series = try c.decodeIfPresent(.series)
    }
}
