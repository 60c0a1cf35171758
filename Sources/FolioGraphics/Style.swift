import FolioModel

/// How a path's outline is drawn.
public struct StrokeStyle: Sendable, Hashable {
    /// How a line's ends are drawn.
    public enum LineCap: Sendable, Hashable { case butt, round, square }

    /// The line colour.
    public var color: Color
    /// The line width in points.
    public var width: Double
    /// Dash and gap lengths; empty for a solid line.
    public var dash: [Double]
    /// How the ends are drawn.
    public var cap: LineCap

    /// A stroke of `color` and `width`, dashed by `dash` (on, off, … in points).
    public init(color: Color, width: Double = 1, dash: [Double] = [], cap: LineCap = .butt) {
        self.color = color
        self.width = width
        self.dash = dash
        self.cap = cap
    }
}

/// A font request: family, size in points, weight and slant.
public struct FontSpec: Sendable, Hashable {
    /// The font family (a fontconfig name or list).
    public var family: String
    /// The size in points.
    public var size: Double
    /// Bold weight.
    public var bold: Bool
    /// Italic style.
    public var italic: Bool

    /// A font of `family` at `size` points.
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
