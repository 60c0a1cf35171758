/// A bulleted or numbered list: each item is rich text or a list nested in the item before it.
///
/// In documents: `{type: list, ordered: true, items: ["Walk", "Stretch", {items: ["Neck", "Arms"]}]}`.
/// A paragraph's lines that start with `- ` or `1. ` are read as a list too (`Paragraph.parts`).
public struct ListBlock: Sendable, Hashable, Codable {
    /// One entry of a list.
    public enum Item: Sendable, Hashable, Codable {
        /// An item's text, with **bold**, *italic* and links.
        case text(RichText)
        /// A list inside the item before it (or an item of its own when it comes first).
        case list(ListBlock)

        /// Decodes a string as text and an object as a nested list.
        public init(from decoder: Decoder) throws {
            if let text = try? decoder.singleValueContainer().decode(String.self) {
                self = .text(RichText(text))
            } else if (try? decoder.container(keyedBy: ListBlock.CodingKeys.self)) != nil {
                self = .list(try ListBlock(from: decoder))
            } else {
                throw DecodingError.typeMismatch(
                    String.self,
                    DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "expected text or a nested list {items: […]}"))
            }
        }

        /// Encodes the text as a string, a nested list as an object.
        public func encode(to encoder: Encoder) throws {
            switch self {
            case .text(let text): try text.encode(to: encoder)
            case .list(let list): try list.encode(to: encoder)
            }
        }
    }

    /// Numbered (1., 2., …) or bulleted.
    public var ordered: Bool
    /// The number of the first item of a numbered list.
    public var start: Int
    /// The items, in order.
    public var items: [Item]
    /// True moves the list whole to the next page rather than split it over two.
    public var keepTogether: Bool?

    /// A list of `items`, numbered from `start` when `ordered`.
    public init(ordered: Bool = false, start: Int = 1, items: [Item]) {
        self.ordered = ordered
        self.start = start
        self.items = items
    }

    /// A list of plain-markup `texts`.
    public init(ordered: Bool = false, _ texts: [String]) {
        self.init(ordered: ordered, items: texts.map { .text(RichText($0)) })
    }

    fileprivate enum CodingKeys: String, CodingKey { case type, ordered, start, items, keepTogether }

    /// Decodes the value from a document, as written in JSON or YAML; a nested list may say `type: list`.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let type = try container.decodeIfPresent(String.self, forKey: .type), type != Block.Kind.list.rawValue {
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "a list's item is text or a list, not a \"\(type)\"")
        }
        ordered = try container.decode(.ordered, default: false)
        start = try container.decode(.start, default: 1)
        items = try container.decode([Item].self, forKey: .items)
        keepTogether = try container.decodeIfPresent(.keepTogether)
    }

    /// Encodes the value as a document writes it (without its `type`, which the block writes).
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if ordered { try container.encode(ordered, forKey: .ordered) }
        if start != 1 { try container.encode(start, forKey: .start) }
        try container.encode(items, forKey: .items)
        try container.encodeIfPresent(keepTogether, forKey: .keepTogether)
    }

    /// How deep lists may nest.
    public static let maximumDepth = 8

    /// The label of item number `index` (0 the first text item) at nesting `depth` (0 the outermost):
    /// "3." in a numbered list; •, ◦, ▪ by depth in a bulleted one.
    public func label(ofItem index: Int, depth: Int) -> String {
        if ordered {
            let (number, overflow) = start.addingReportingOverflow(index)
            return overflow ? "" : "\(number)."
        }
        return ["•", "◦", "▪"][depth % 3]
    }

    /// The texts of the list and the lists in it, in reading order.
    package var texts: [RichText] {
        items.flatMap { item -> [RichText] in
            switch item {
            case .text(let text): return [text]
            case .list(let list): return list.texts
            }
        }
    }

    /// Checks nesting, counts, numbers and links under `path`.
    package func validate(path: String, depth: Int = 0) throws {
        guard depth < ListBlock.maximumDepth else {
            throw FolioError(path: path, "lists may nest \(ListBlock.maximumDepth) deep at most")
        }
        guard !items.isEmpty else { throw FolioError(path: "\(path).items", "expected at least one item") }
        guard items.count <= InputLimits.tableRows else {
            throw FolioError(path: "\(path).items", "at most \(InputLimits.tableRows) items, not \(items.count)")
        }
        guard (0...1_000_000_000).contains(start) else {
            throw FolioError(path: "\(path).start", "expected a number from 0 to 1000000000, not \(start)")
        }
        for (index, item) in items.enumerated() {
            switch item {
            case .text(let text): try text.validateLinks(path: "\(path).items[\(index)]")
            case .list(let list): try list.validate(path: "\(path).items[\(index)]", depth: depth + 1)
            }
        }
    }
}

extension ListBlock: BlockContent {
    /// `list`.
    package static let kind = Block.Kind.list
    /// Whether `keepTogether` is true.
    package var keepsTogether: Bool { keepTogether ?? false }
    /// Checks nesting, counts, numbers and links.
    package func validate(path: String) throws { try validate(path: path, depth: 0) }
    /// The items' text without markup, in reading order.
    package var textContent: [String] { texts.map(\.plainText) }
    /// Its items, whose internal links must name an anchor, with their fields (`items[1].items[0]`).
    package var linkedTexts: [(text: RichText, field: String)] { linkedTexts(under: "items") }

    private func linkedTexts(under field: String) -> [(text: RichText, field: String)] {
        items.enumerated().flatMap { index, item -> [(text: RichText, field: String)] in
            switch item {
            case .text(let text): return [(text, "\(field)[\(index)]")]
            case .list(let list): return list.linkedTexts(under: "\(field)[\(index)].items")
            }
        }
    }
}

extension ListBlock: BlockConvertible {
    /// The list as a block.
    public var block: Block { .list(self) }
}
