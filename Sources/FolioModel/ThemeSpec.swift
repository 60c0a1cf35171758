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
