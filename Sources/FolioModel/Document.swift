import Foundation

/// A report: a title, a running page header and footer, page setup, metadata and blocks.
///
/// Build it in Swift, or decode it from JSON or YAML with the same field names.
public struct Document: Sendable, Hashable, Codable {
    /// The title, at the top of the first page and in the PDF's metadata; may be empty (as CareKit
    /// allowed): then no title is shown, and the PDF and the HTML page are named by `displayTitle`.
    public var title: String
    /// The line at the top of every page (after the theme's logo); none when nil or empty.
    public var header: RunningLine?
    /// The line at the bottom of every page; without one, the title at the left and the
    /// language's "Page {page} of {pages}" at the right. `RunningLine.none` for no footer at all.
    public var footer: RunningLine?
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
    /// Password protection of the PDF (AES-256); none when nil.
    public var protection: Protection?
    /// A diagonal text behind every page's content; none when nil.
    public var watermark: Watermark?
    /// Files carried inside the PDF as associated files (the data it was made from); none by default.
    public var attachments: [Attachment] = []
    /// The text of each footnote, by the id rich text cites it with (`[^id]`); none by default.
    public var footnotes: [String: RichText] = [:]

    /// A document with its title, running header and footer, built-in word overrides, page setup (by default the paper
    /// of the language's region, 2 cm margins), metadata, theme and blocks. `header` is a text at the left of the header line; `footer` one at the right of the footer, beside the
    /// title (as in documents); set `header` and `footer` to a `RunningLine` for other places.
    public init(
        title: String = "", header: String? = nil, footer: String? = nil, strings: BuiltInStrings.Overrides = .init(),
        page: PageSetup? = nil, metadata: Metadata = Metadata(), theme: ThemeSpec? = nil, elements: [Block]
    ) {
        self.title = title
        self.header = header.map { RunningLine(left: $0) }
        self.footer = footer.map(RunningLine.titleBeside)
        self.strings = strings
        self.page = page ?? PageSetup(size: .standard(forLanguage: metadata.language))
        self.metadata = metadata
        self.theme = theme
        self.elements = elements
    }

    private enum PageSizeKey: String, CodingKey { case size }
    /// `$schema`: the JSON Schema an editor checks a JSON document with (`schema/folio-document.schema.json`).
    private enum EditorKey: String, CodingKey { case schema = "$schema" }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // Read so that a JSON document may name its schema for editors; it changes nothing.
        _ = try decoder.container(keyedBy: EditorKey.self).decodeIfPresent(String.self, forKey: .schema)
        title = try container.decode(.title, default: "")
        header = try container.decodeIfPresent(.header)
        // A footer given as one text is today's footer: the title at the left, the text at the right.
        if let text = try? container.decodeIfPresent(String.self, forKey: .footer) {
            footer = .titleBeside(text)
        } else {
            footer = try container.decodeIfPresent(.footer)
        }
        strings = try container.decode(.strings, default: .init())
        page = try container.decode(.page, default: PageSetup())
        metadata = try container.decode(.metadata, default: Metadata())
        // Without a size, the paper of the language's region: US Letter for en-US, A4 for most others.
        let sizeGiven = (try? container.nestedContainer(keyedBy: PageSizeKey.self, forKey: .page).contains(.size)) ?? false
        if !sizeGiven { page.size = .standard(forLanguage: metadata.language) }
        theme = try container.decodeIfPresent(.theme)
        elements = try container.decode(.elements, default: [])
        protection = try container.decodeIfPresent(.protection)
        watermark = try container.decodeIfPresent(.watermark)
        attachments = try container.decode(.attachments, default: [])
        footnotes = try container.decode(.footnotes, default: [:])
    }

    /// Every word Folio writes by itself in this document: its language's table with its overrides.
    package var builtInStrings: BuiltInStrings {
        BuiltInStrings.forLanguage(metadata.language).overridden(by: strings.entries)
    }

    /// The document's name where one is required (the PDF's title, the HTML `<title>`): the title,
    /// else the first subtitle or section title, else the language's word for "Report". Never empty.
    package func displayTitle(strings builtIn: BuiltInStrings) -> String {
        if !title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return title }
        for block in elements {
            if let heading = block.content?.heading, !heading.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return heading }
        }
        return builtIn[.report]
    }

    /// The footer as drawn: `footer`, or the title at the left and the language's
    /// "Page {page} of {pages}" at the right.
    package func footerLine(strings builtIn: BuiltInStrings) -> RunningLine {
        footer ?? .titleBeside(builtIn.pattern(.pageFooter))
    }

    /// What the placeholders of a header or footer stand for on a page (`numbering`), or without
    /// pages (HTML: only `{title}` and `{date}`).
    package func runningValues(_ numbering: PageNumbering?, date: String) -> [String: String] {
        var values = ["title": title, "date": date]
        if let numbering {
            values["page"] = String(numbering.page)
            values["pages"] = String(numbering.pages)
            values["sectionPage"] = String(numbering.page)
            values["sectionPages"] = String(numbering.pages)
            values["documentPage"] = String(numbering.documentPage)
            values["documentPages"] = String(numbering.documentPages)
        }
        return values
    }

    /// `{date}` of the header and footer: the render's `date` (`DocumentDate`) in the document's
    /// language, in UTC; computed only when a line uses it.
    package func runningDate(strings builtIn: BuiltInStrings, date: Date) -> String {
        let lines = [header, footerLine(strings: builtIn)].compactMap { $0 }
        guard lines.contains(where: { line in RunningLine.Slot.allCases.contains { line[$0]?.contains("{date}") == true } }) else {
            return ""
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: builtIn.localeIdentifier)
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateStyle = .medium
        formatter.timeStyle = .none
        return formatter.string(from: date)
    }
}
