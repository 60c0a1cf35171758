import Foundation

/// A report: a title, a running page header and footer, page setup, metadata and blocks.
///
/// Build it in Swift, or decode it from JSON or YAML with the same field names.
public struct Document: Sendable, Hashable, Codable {
    /// The title, at the top of the first page and in the PDF's metadata.
    public var title: String
    /// Text at the top of every page.
    public var header: String?
    /// Text at the bottom right of every page; `{page}` and `{pages}` are replaced. Without
    /// one, the language's "Page {page} of {pages}".
    public var footer: String?
    /// Built-in words replaced for this document, over its language's table.
    public var strings: BuiltInStrings.Overrides
    /// Paper size, orientation and margins.
    public var page: PageSetup
    /// Author, subject, keywords, language, date, tagging.
    public var metadata: Metadata
    /// Colours, fonts, sizes and logo for this document, over the default theme.
    public var theme: ThemeSpec?
    /// The blocks, in reading order.
    public var elements: [Block]

    /// A document with its title, running header and footer, built-in word overrides, page setup, metadata, theme and blocks.
    public init(
        title: String, header: String? = nil, footer: String? = nil, strings: BuiltInStrings.Overrides = .init(),
        page: PageSetup = PageSetup(), metadata: Metadata = Metadata(), theme: ThemeSpec? = nil, elements: [Block]
    ) {
        self.title = title
        self.header = header
        self.footer = footer
        self.strings = strings
        self.page = page
        self.metadata = metadata
        self.theme = theme
        self.elements = elements
    }

    private enum CodingKeys: String, CodingKey { case title, header, footer, strings, page, metadata, theme, elements }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        header = try container.decodeIfPresent(String.self, forKey: .header)
        footer = try container.decodeIfPresent(String.self, forKey: .footer)
        strings = try container.decodeIfPresent(BuiltInStrings.Overrides.self, forKey: .strings) ?? .init()
        page = try container.decodeIfPresent(PageSetup.self, forKey: .page) ?? PageSetup()
        metadata = try container.decodeIfPresent(Metadata.self, forKey: .metadata) ?? Metadata()
        theme = try container.decodeIfPresent(ThemeSpec.self, forKey: .theme)
        elements = try container.decodeIfPresent([Block].self, forKey: .elements) ?? []
    }

    /// Every word Folio writes by itself in this document: its language's table with its overrides.
    package var builtInStrings: BuiltInStrings {
        BuiltInStrings.forLanguage(metadata.language).overridden(by: strings.entries)
    }

    /// The footer text for a page: `{page}` and `{pages}` count within the page's section
    /// (the whole document without sections), `{documentPage}` and `{documentPages}` the whole document.
    package func footerText(_ numbering: PageNumbering, strings builtIn: BuiltInStrings) -> String {
        (footer ?? builtIn[.pageFooter]).replacingOccurrences(of: "{documentPages}", with: String(numbering.documentPages))
            .replacingOccurrences(of: "{documentPage}", with: String(numbering.documentPage))
            .replacingOccurrences(of: "{pages}", with: String(numbering.pages))
            .replacingOccurrences(of: "{page}", with: String(numbering.page))
    }
}
