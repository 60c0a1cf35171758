import FolioModel

/// Colours and fonts shared by the PDF and the HTML output.
public struct Theme: Sendable, Hashable, Codable {
    /// The font family of all text.
    public var fontFamily: String
    /// Body text colour.
    public var text: Color
    /// Secondary text colour (captions, details).
    public var muted: Color
    /// Accent colour (links and highlights).
    public var accent: Color
    /// Colour of rules.
    public var rule: Color
    /// Colour of chart gridlines.
    public var grid: Color
    /// Colour of chart axes.
    public var axis: Color
    /// Background of metric tiles.
    public var tileBackground: Color
    /// Background of table header rows.
    public var tableHeaderBackground: Color
    /// Background of every second table row.
    public var zebraBackground: Color
    /// Series colours in order; distinguishable for colour-blind readers.
    public var palette: [Color]
    /// The bar of tip messages.
    public var tip = Message.Kind.tip.defaultTint
    /// The bar of alert messages.
    public var alert = Message.Kind.alert.defaultTint
    /// The bar of plain messages.
    public var plainMessage = Message.Kind.plain.defaultTint
    /// Threshold lines and bands without a tint of their own.
    public var threshold = Theme.hex("#C2410C")
    /// The colours of a table's highlight styles (`alert`, `warning`, `good`, `muted`): each style's text
    /// has at least 4.5:1 contrast on its background.
    public var highlights: [TableReport.HighlightStyle: HighlightColors] = [
        .alert: HighlightColors(text: Theme.hex("#B42318"), background: Theme.hex("#FDECEA")),
        .warning: HighlightColors(text: Theme.hex("#8A4B00"), background: Theme.hex("#FFF4D6")),
        .good: HighlightColors(text: Theme.hex("#16663A"), background: Theme.hex("#E6F4EA")),
        .muted: HighlightColors(text: Theme.hex("#60646C"), background: nil),
    ]

    /// A highlight style's colours: its text, and its cell's background (none: the row's own).
    public struct HighlightColors: Sendable, Hashable, Codable {
        /// The text colour.
        public var text: Color
        /// The background, or nil for none.
        public var background: Color?

        /// `text` on `background`.
        public init(text: Color, background: Color?) {
            self.text = text
            self.background = background
        }
    }

    /// A logo for the page header.
    package var logo: ImageData?

    /// Title size in points.
    public var titleSize: Double = 22
    /// Subtitle size in points.
    public var subtitleSize: Double = 14
    /// Body text size in points.
    public var bodySize: Double = 10
    /// Small text size in points (captions, footers, chart labels).
    public var smallSize: Double = 8
    /// Size of a metric tile's value in points.
    public var widgetValueSize: Double = 18

    /// The fonts the built-in layouts set most text in, in the order a report first uses them
    /// (title, heading, page header, metric tiles, body, tables, charts, captions): what a process
    /// about to render loads ahead of its first document (`PangoTextEngine.startLoadingFonts`).
    /// `FontPreloadTests` checks that the weekly summary sample uses no other.
    package var commonFonts: [FontSpec] {
        [
            font(titleSize, bold: true), font(subtitleSize, bold: true), font(smallSize + 0.5), font(widgetValueSize, bold: true),
            font(smallSize), font(bodySize), font(bodySize, bold: true), font(smallSize - 0.5, bold: true),
            font(smallSize, bold: true), font(bodySize + 1, bold: true), font(smallSize + 1, italic: true),
            font(bodySize - 0.5, bold: true), font(bodySize - 0.5),
        ]
    }

    /// The theme used when a document names none.
    public static let standard = Theme(
        fontFamily: FontSpec.defaultFamily,
        text: hex("#1C2024"), muted: hex("#60646C"), accent: hex("#3E63DD"), rule: hex("#CDCED6"),
        grid: hex("#DDDDE3"), axis: hex("#60646C"), tileBackground: hex("#F1F3F5"),
        tableHeaderBackground: hex("#E8E8EC"), zebraBackground: hex("#F7F7F9"),
        // Okabe–Ito colours, distinguishable with the common colour-vision deficiencies; the orange
        // and the sky blue darkened to 3:1 against white (WCAG 1.4.11: bars, lines, markers).
        palette: ["#0072B2", "#C48700", "#009E73", "#D55E00", "#CC79A7", "#4A9BC8", "#8C6D1F", "#60646C"].map(hex))

    /// A theme with every colour and the font family given.
    public init(
        fontFamily: String, text: Color, muted: Color, accent: Color, rule: Color, grid: Color, axis: Color,
        tileBackground: Color, tableHeaderBackground: Color, zebraBackground: Color, palette: [Color]
    ) {
        self.fontFamily = fontFamily
        self.text = text
        self.muted = muted
        self.accent = accent
        self.rule = rule
        self.grid = grid
        self.axis = axis
        self.tileBackground = tileBackground
        self.tableHeaderBackground = tableHeaderBackground
        self.zebraBackground = zebraBackground
        self.palette = palette
    }

    /// This theme with the values `spec` sets; `logo` is the spec's logo, already loaded
    /// (`applying(_:assets:field:)` in FolioInput checks the spec and reads the logo).
    package func applying(_ spec: ThemeSpec?, logo: ImageData?) -> Theme {
        guard let spec else { return self }
        var theme = self
        if let v = spec.accent { theme.accent = v }
        if let v = spec.text { theme.text = v }
        if let v = spec.muted {
            theme.muted = v
            theme.axis = v
        }
        if let v = spec.fontFamily { theme.fontFamily = v }
        if let v = spec.titleSize { theme.titleSize = v }
        if let v = spec.subtitleSize { theme.subtitleSize = v }
        if let v = spec.bodySize { theme.bodySize = v }
        if let v = spec.smallSize { theme.smallSize = v }
        if let v = spec.palette, !v.isEmpty { theme.palette = v }
        if let v = spec.tip { theme.tip = v }
        if let v = spec.alert { theme.alert = v }
        if let v = spec.threshold { theme.threshold = v }
        for (name, colors) in spec.highlights ?? [:] {
            guard let style = TableReport.HighlightStyle(rawValue: name) else { continue }
            theme.highlights[style] = HighlightColors(text: colors.text, background: colors.background)
        }
        if let logo { theme.logo = logo }
        return theme
    }

    /// The bar colour of `message`: its own tint, else the theme's colour for its kind.
    package func tint(of message: Message) -> Color {
        if let tint = message.tint { return tint }
        switch message.kind {
        case .tip: return tip
        case .alert: return alert
        case .plain: return plainMessage
        }
    }

    /// Colour of series `index`: the palette, then the palette lighter, darker and lighter
    /// still, so that `distinguishableColors` series never share a colour; beyond that the
    /// cycle repeats (the PDF layout report warns).
    package func seriesColor(_ index: Int) -> Color {
        let base = palette[index % palette.count]
        switch (index / palette.count) % Theme.shadeRounds {
        case 1: return base.lightened(0.5)
        case 2: return base.darkened(0.45)
        case 3: return base.lightened(0.75)
        default: return base
        }
    }

    /// How many times the palette is shaded before colours repeat.
    private static let shadeRounds = 4

    /// The number of series or segments that get colours of their own.
    package var distinguishableColors: Int { palette.count * Theme.shadeRounds }

    /// A font of the theme's family.
    package func font(_ size: Double, bold: Bool = false, italic: Bool = false) -> FontSpec {
        FontSpec(family: fontFamily, size: size, bold: bold, italic: italic)
    }

    private static func hex(_ text: String) -> Color { Color(parsing: text) ?? .black }
}
