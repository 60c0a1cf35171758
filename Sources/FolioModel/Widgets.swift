/// A row of key-metric tiles, each a title over a large value.
public struct Widgets: Sendable, Hashable, Codable {
    /// One tile.
    public struct Item: Sendable, Hashable, Codable {
        public var title: String
        public var value: String
        /// Optional small text under the value, such as a unit or trend.
        public var detail: String?
        public var tint: Color?

        public init(title: String, value: String, detail: String? = nil, tint: Color? = nil) {
            self.title = title; self.value = value; self.detail = detail; self.tint = tint
        }

        private enum CodingKeys: String, CodingKey { case title, value, detail, tint }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            title = try container.decode(LenientText.self, forKey: .title).value
            value = try container.decode(LenientText.self, forKey: .value).value
            detail = try container.decodeIfPresent(LenientText.self, forKey: .detail)?.value
            tint = try container.decodeIfPresent(Color.self, forKey: .tint)
        }
    }

    public var items: [Item]
    public init(_ items: [Item]) { self.items = items }

    private enum CodingKeys: String, CodingKey { case items }

    public init(from decoder: Decoder) throws {
        items = try decoder.container(keyedBy: CodingKeys.self).decode([Item].self, forKey: .items)
    }
}
