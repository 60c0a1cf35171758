import FolioModel

/// How a path's outline is drawn.
package struct StrokeStyle: Sendable, Hashable {
    /// How a line's ends are drawn.
    package enum LineCap: Sendable, Hashable { case butt, round, square }

    /// The line colour.
    package var color: Color
    /// The line width in points.
    package var width: Double
    /// Dash and gap lengths; empty for a solid line.
    package var dash: [Double]
    /// How the ends are drawn.
    package var cap: LineCap

    /// A stroke of `color` and `width`, dashed by `dash` (on, off, … in points).
    package init(color: Color, width: Double = 1, dash: [Double] = [], cap: LineCap = .butt) {
        self.color = color
        self.width = width
        self.dash = dash
        self.cap = cap
    }
}

/// A font request: family, size in points, weight and slant.
package struct FontSpec: Sendable, Hashable {
    /// The font family (a fontconfig name or list).
    package var family: String
    /// The size in points.
    package var size: Double
    /// Bold weight.
    package var bold: Bool
    /// Italic style.
    package var italic: Bool

    /// A font of `family` at `size` points.
    package init(family: String = FontSpec.defaultFamily, size: Double, bold: Bool = false, italic: Bool = false) {
        self.family = family
        self.size = size
        self.bold = bold
        self.italic = italic
    }

    /// The family every default theme uses; DejaVu Sans ships with Debian.
    package static let defaultFamily = "DejaVu Sans"

    /// The same font at another size or weight.
    package func with(size: Double? = nil, bold: Bool? = nil) -> FontSpec {
        FontSpec(family: family, size: size ?? self.size, bold: bold ?? self.bold, italic: italic)
    }
}
