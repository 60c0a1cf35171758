/// A highlighted note, like CareKit's tip: a title, text and a kind that sets icon and tint.
public struct Message: Sendable, Hashable, Codable {
    /// What the message is, conveyed by a label as well as by colour.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable, NamedOption {
        case tip, alert, plain

        /// Word shown before the title so the kind does not rely on colour, in `strings`' language.
        public func label(in strings: BuiltInStrings) -> String? {
            switch self {
            case .tip: return strings[.tip]
            case .alert: return strings[.alert]
            case .plain: return nil
            }
        }

        /// The kind's colour in the standard theme (a theme's `tip` and `alert` replace it).
        public var defaultTint: Color {
            switch self {
            case .tip: return Color(parsing: "#3E63DD") ?? .black
            case .alert: return Color(parsing: "#CE2C31") ?? .black
            case .plain: return Color(parsing: "#60646C") ?? .black
            }
        }
    }

    /// The heading, after the kind's word ("Tip:").
    public var title: String
    /// The body, with **bold**, *italic* and links.
    public var text: RichText
    /// Tip, alert or another kind; sets the word and the default colour.
    public var kind: Kind
    /// The bar's colour; the kind's colour when nil.
    public var tint: Color?
    /// True moves the message whole to the next page rather than split it over two.
    public var keepTogether: Bool?

    /// A message of `kind` with `title` and `text`.
    public init(title: String, text: RichText, kind: Kind = .tip, tint: Color? = nil) {
        self.title = title
        self.text = text
        self.kind = kind
        self.tint = tint
    }

    /// The tint given, or the kind's default.
    public var effectiveTint: Color { tint ?? kind.defaultTint }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(.title, default: "")
        text = try container.decode(.text, default: RichText(""))
        kind = try container.decode(.kind, default: .tip)
        tint = try container.decodeIfPresent(.tint)
        keepTogether = try container.decodeIfPresent(.keepTogether)
    }
}

extension Message: BlockContent {
    /// `message`.
    package static let kind = Block.Kind.message
    /// Checks the message's links.
    package func validate(path: String) throws {
        try text.validateLinks(path: "\(path).text")
    }
    /// The message's title and text without markup.
    package var textContent: [String] { [title, text.plainText] }
    /// Its text, whose internal links must name an anchor.
    package var linkedTexts: [(text: RichText, field: String)] { [(text, "text")] }
    /// Whether `keepTogether` is true.
    package var keepsTogether: Bool { keepTogether ?? false }
}
