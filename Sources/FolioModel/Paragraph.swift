/// Body text with inline **bold**, *italic*, links and line breaks.
public struct Paragraph: Sendable, Hashable, Codable {
    /// How lines sit between the margins.
    public enum Alignment: String, Sendable, Hashable, Codable, CaseIterable, NamedOption {
        case left, center, right, justify
    }

    /// The text, with **bold**, *italic* and links.
    public var text: RichText
    /// Left, right, centred or justified.
    public var align: Alignment
    /// The paragraph's language when it is not the document's (a BCP 47 tag such as `fr` or
    /// `zh-Hant`): a screen reader reads it in that language. Found from the script where it leaves
    /// no doubt (Arabic, Chinese, Japanese, Korean, Hebrew, Greek in a document of another).
    public var language: String?
    /// True moves the paragraph whole to the next page rather than split its lines over two.
    public var keepTogether: Bool?

    /// A paragraph of `text`.
    public init(_ text: RichText, align: Alignment = .left) {
        self.text = text
        self.align = align
    }

    /// A paragraph of `text`, read as markup.
    public init(_ text: String, align: Alignment = .left) {
        self.init(RichText(text), align: align)
    }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        text = try container.decode(RichText.self, forKey: .text)
        align = try container.decode(.align, default: .left)
        language = try container.decodeIfPresent(.language)
        keepTogether = try container.decodeIfPresent(.keepTogether)
    }
}

extension Paragraph: BlockContent {
    /// `paragraph`.
    package static let kind = Block.Kind.paragraph
    /// Checks the paragraph's links.
    package func validate(path: String) throws {
        try text.validateLinks(path: "\(path).text")
        if let language, !Metadata.isLanguageTag(language) {
            throw FolioError(path: "\(path).language", "\"\(language)\" is not a BCP 47 language tag such as en, fr-CA or zh-Hant")
        }
    }
    /// The paragraph's text without markup (its list lines without their markers).
    package var textContent: [String] {
        parts.flatMap { part -> [String] in
            switch part {
            case .text(let text): return [text.plainText]
            case .list(let list): return list.textContent
            }
        }
    }
    /// Its text, whose internal links must name an anchor.
    package var linkedTexts: [(text: RichText, field: String)] { [(text, "text")] }
    /// Whether `keepTogether` is true.
    package var keepsTogether: Bool { keepTogether ?? false }
}
