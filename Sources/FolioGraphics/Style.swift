import FolioModel

/// How a path's outline is drawn.
public struct StrokeStyle: Sendable, Hashable {
    public enum LineCap: Sendable, Hashable { case butt, round, square }

    public var color: Color
    public var width: Double
    /// Dash and gap lengths; empty for a solid line.
    public var dash: [Double]
    public var cap: LineCap

    public init(color: Color, width: Double = 1, dash: [Double] = [], cap: LineCap = .butt) {
        self.color = color
        self.width = width
        self.dash = dash
        self.cap = cap
    }
}

/// A font request: family, size in points, weight and slant.
public struct FontSpec: Sendable, Hashable {
    public var family: String
    public var size: Double
    public var bold: Bool
    public var italic: Bool

    public init(family: String = FontSpec.defaultFamily, size: Double, bold: Bool = false, italic: Bool = false) {
        self.family = family
        self.size = size
        self.bold = bold
        self.italic = italic
    }

    /// The family every default theme uses; DejaVu Sans ships with Debian.
    public static let defaultFamily = "DejaVu Sans"

    /// The same font at another size or weight.
    public func with(size: Double? = nil, bold: Bool? = nil) -> FontSpec {
        FontSpec(family: family, size: size ?? self.size, bold: bold ?? self.bold, italic: italic)
    }
}
