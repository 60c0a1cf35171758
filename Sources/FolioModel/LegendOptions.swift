/// Where the legend goes and what its swatches look like.
public struct LegendOptions: Sendable, Hashable, Codable {
    /// Where the legend goes; `none` hides it.
    public enum Position: String, Sendable, Hashable, Codable, CaseIterable, NamedOption { case bottom, top, right, none }
    /// The shape drawn before each entry.
    public enum Swatch: String, Sendable, Hashable, Codable, CaseIterable, NamedOption { case square, dot, line }

    /// Where the legend goes.
    public var position: Position
    /// The shape before each entry.
    public var swatch: Swatch

    /// Legend options.
    public init(position: Position = .bottom, swatch: Swatch = .square) {
        self.position = position
        self.swatch = swatch
    }

    /// No legend.
    public static let hidden = LegendOptions(position: .none)

    /// Decodes `true`/`false` or `{position, swatch}`.
    public init(from decoder: Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let shown = try? single.decode(Bool.self) {
            self.init(position: shown ? .bottom : .none)
            return
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            position: try c.decodeIfPresent(Position.self, forKey: .position) ?? .bottom,
            swatch: try c.decodeIfPresent(Swatch.self, forKey: .swatch) ?? .square)
    }
}
