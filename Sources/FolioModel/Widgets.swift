/// A row of key-metric tiles, each a title over a large value.
public struct Widgets: Sendable, Hashable, Codable {
    /// One tile.
    public struct Item: Sendable, Hashable, Codable {
        /// The tile's label.
        public var title: String
        /// The metric, as text.
        public var value: String
        /// Optional small text under the value, such as a unit or trend.
        public var detail: String?
        /// The tile's accent colour.
        public var tint: Color?

        /// A tile showing `value` under `title`.
        public init(title: String, value: String, detail: String? = nil, tint: Color? = nil) {
            self.title = title
            self.value = value
            self.detail = detail
            self.tint = tint
        }

        /// Decodes the value from a document, as written in JSON or YAML.
        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            title = try container.decode(LenientText.self, forKey: .title).value
            value = try container.decode(LenientText.self, forKey: .value).value
            detail = try container.decodeIfPresent(LenientText.self, forKey: .detail)?.value
            tint = try container.decodeIfPresent(.tint)
        }
    }

    /// The tiles, left to right.
    public var items: [Item]
    /// A row of `items`.
    public init(_ items: [Item]) { self.items = items }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws {
        items = try decoder.container(keyedBy: CodingKeys.self).decode([Item].self, forKey: .items)
    }
}

extension Widgets: BlockContent {
    /// `widgets`.
    package static let kind = Block.Kind.widgets
    /// A row holds 1 to 64 tiles.
    package func validate(path: String) throws {
        if items.isEmpty {
            throw FolioError(path: "\(path).items", "a widgets row needs at least one item")
        }
        if items.count > 64 {
            throw FolioError(path: "\(path).items", "has \(items.count) tiles; at most 64 are allowed")
        }
    }
    /// Each tile's title, value and detail.
    package var textContent: [String] { items.flatMap { [$0.title, $0.value] + [$0.detail].compactMap { $0 } } }
}
