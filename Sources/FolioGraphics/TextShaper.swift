import FolioModel

/// Text laid out by the text engine: measured once, drawn as measured. Layout keeps it in page
/// frames; the backend that made it draws it (Folio's one engine is Pango, in FolioPango).
package protocol ShapedText: AnyObject {
    /// Logical width, height and first baseline, in points.
    var metrics: TextMetrics { get }
    /// Every line's logical extents in the text's own coordinates, top to bottom.
    var lineExtents: [Rect] { get }
    /// Characters no installed font could draw.
    var unknownGlyphCount: Int { get }
    /// Those characters (the first few), for naming their scripts.
    var unknownCharacters: [Unicode.Scalar] { get }
    /// The text as laid out (line breaks as the engine placed them) up to the end of line
    /// `index`, for cutting a text to its first lines.
    func text(throughLine index: Int) -> String
    /// Each link's target and the line it starts on (a footnote citation's line, for its page).
    var linkLines: [(url: String, line: Int)] { get }
}

extension ShapedText {
    /// An engine that cannot say which characters it could not draw says none.
    package var unknownCharacters: [Unicode.Scalar] { [] }

    /// Text without links has none.
    package var linkLines: [(url: String, line: Int)] { [] }
}

/// Shapes and measures text: single lines and wrapped rich text, as the PDF draws them.
/// Layout asks it for everything text-related, so layout itself needs no text engine.
package protocol TextShaper: TextMeasurer {
    /// One line of plain text.
    func singleLine(_ text: String, font: FontSpec) -> ShapedText
    /// Rich text wrapped at `width` points, aligned as asked (`justify` stretches every line
    /// but the last), links in `linkColor`, lines `lineSpacing` apart (1 is the font's own), set in
    /// `direction` (the start of its lines, where `left` alignment puts them; nil: its first letter's).
    func wrapped(
        _ runs: [TextRun], font: FontSpec, width: Double, alignment: Paragraph.Alignment, linkColor: Color?,
        lineSpacing: Double, direction: TextDirection?
    ) -> ShapedText
    /// The width of `text` on one unwrapped line, without keeping a layout (a table's columns).
    func lineWidth(_ text: String, font: FontSpec) -> Double
    /// The height of plain `text` wrapped at `width`, without keeping a layout (a table's rows).
    func wrappedHeight(_ text: String, font: FontSpec, width: Double, alignment: Paragraph.Alignment, lineSpacing: Double) -> Double
    /// `runs` with the break opportunities of `language`'s hyphenation (soft hyphens), or as they are
    /// when the engine has no dictionary of it.
    func hyphenated(_ runs: [TextRun], language: String) -> [TextRun]
}

extension TextShaper {
    /// No hyphenation: the runs as they are.
    package func hyphenated(_ runs: [TextRun], language: String) -> [TextRun] { runs }
}

extension TextShaper {
    /// Rich text wrapped at `width`, left-aligned (at its lines' start) unless asked, lines 1.25
    /// apart, in `direction` (nil: its first letter's).
    package func paragraph(
        _ runs: [TextRun], font: FontSpec, width: Double, alignment: Paragraph.Alignment = .left, linkColor: Color? = nil,
        lineSpacing: Double = 1.25, direction: TextDirection? = nil
    ) -> ShapedText {
        wrapped(runs, font: font, width: width, alignment: alignment, linkColor: linkColor, lineSpacing: lineSpacing, direction: direction)
    }
}

extension Table.Alignment {
    /// The paragraph alignment of a table column's alignment.
    package var paragraphAlignment: Paragraph.Alignment {
        switch self {
        case .left: return .left
        case .center: return .center
        case .right: return .right
        }
    }
}
