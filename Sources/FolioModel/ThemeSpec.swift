/// Theme settings written in a document or a theme file; anything left out keeps
/// the default theme's value. The same theme drives the PDF and the HTML.
public struct ThemeSpec: Sendable, Hashable, Codable {
    /// Links, tips and the first series colour.
    public var accent: Color?
    /// Body text colour.
    public var text: Color?
    /// Secondary text: captions, axis labels, the page header.
    public var muted: Color?
    /// A font family Pango and browsers know, such as "DejaVu Sans" or "Noto Sans".
    public var fontFamily: String?
    /// Title size in points.
    public var titleSize: Double?
    /// Subtitle size in points.
    public var subtitleSize: Double?
    /// Body size in points.
    public var bodySize: Double?
    /// Small text size in points.
    public var smallSize: Double?
    /// Series colours, in order.
    public var palette: [Color]?
    /// A PNG or JPEG shown in the page header, relative to the file that names it.
    public var logo: String?
    /// The bar of tip messages.
    public var tip: Color?
    /// The bar of alert messages.
    public var alert: Color?
    /// Threshold lines and bands without a tint of their own.
    public var threshold: Color?
    /// A table's highlight styles' colours, by style (`alert: {text, background}`); a style not named keeps the base theme's.
    public var highlights: [String: HighlightSpec]?

    /// A highlight style's colours: its text, and its cell's background (none: the row's own).
    public struct HighlightSpec: Sendable, Hashable, Codable {
        /// The text colour.
        public var text: Color
        /// The background, or nil for none.
        public var background: Color?

        /// `text` on `background`.
        public init(text: Color, background: Color? = nil) {
            self.text = text
            self.background = background
        }
    }

    /// Theme settings; nil keeps the base theme's value.
    public init(
        accent: Color? = nil, text: Color? = nil, muted: Color? = nil, fontFamily: String? = nil,
        titleSize: Double? = nil, subtitleSize: Double? = nil, bodySize: Double? = nil, smallSize: Double? = nil,
        palette: [Color]? = nil, logo: String? = nil, tip: Color? = nil, alert: Color? = nil, threshold: Color? = nil
    ) {
        self.accent = accent
        self.text = text
        self.muted = muted
        self.fontFamily = fontFamily
        self.titleSize = titleSize
        self.subtitleSize = subtitleSize
        self.bodySize = bodySize
        self.smallSize = smallSize
        self.palette = palette
        self.logo = logo
        self.tip = tip
        self.alert = alert
        self.threshold = threshold
    }

    /// Checks sizes and the palette, naming the field.
    package func validate(path: String) throws {
        for (name, size) in [("titleSize", titleSize), ("subtitleSize", subtitleSize), ("bodySize", bodySize), ("smallSize", smallSize)] {
            if let size, !(size >= 4 && size <= 96) {
                throw FolioError(path: "\(path).\(name)", "font sizes must be between 4 and 96 points")
            }
        }
        if let palette, palette.isEmpty { throw FolioError(path: "\(path).palette", "the palette needs at least one colour") }
        for (name, spec) in (highlights ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard TableReport.HighlightStyle(rawValue: name) != nil else {
                throw FolioError(
                    path: "\(path).highlights.\(name)",
                    "unknown highlight style; expected one of: \(TableReport.HighlightStyle.optionNames.joined(separator: ", "))")
            }
            // WCAG 1.4.3: a flagged cell's words stay readable on its tint (and on the page where it has none).
            let ground = (spec.background ?? .white).composited(over: .white)
            if spec.text.composited(over: ground).contrast(with: ground) < 4.5 {
                throw FolioError(path: "\(path).highlights.\(name).text", "the text needs at least 4.5:1 contrast with its background")
            }
        }
        if let palette, palette.count > 256 { throw FolioError(path: "\(path).palette", "at most 256 colours") }
        if let fontFamily, !ThemeSpec.isSafeFontFamily(fontFamily) {
            throw FolioError(
                path: "\(path).fontFamily",
                "a font family is 1 to 100 letters, digits, spaces, hyphens, underscores or periods, such as \"DejaVu Sans\"")
        }
    }

    /// Whether `name` is a font family name Folio writes into CSS, SVG and Pango:
    /// letters, digits, spaces, hyphens, underscores and periods only.
    public static func isSafeFontFamily(_ name: String) -> Bool {
        let scalars = name.unicodeScalars
        return !scalars.isEmpty && scalars.count <= 100 && name.trimmingWhitespace() == name
            && scalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || " -_.".unicodeScalars.contains($0) }
    }
}
