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
        /// Values drawn as a small line under the value (the week's readings), with their last value
        /// and range in words; nil is a gap.
        public var sparkline: [Double?]?

        /// A tile showing `value` under `title`.
        public init(title: String, value: String, detail: String? = nil, tint: Color? = nil, sparkline: [Double?]? = nil) {
            self.title = title
            self.value = value
            self.detail = detail
            self.tint = tint
            self.sparkline = sparkline
        }

        /// Decodes the value from a document, as written in JSON or YAML.
        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            title = try container.decode(LenientText.self, forKey: .title).value
            value = try container.decode(LenientText.self, forKey: .value).value
            detail = try container.decodeIfPresent(LenientText.self, forKey: .detail)?.value
            tint = try container.decodeIfPresent(.tint)
            sparkline = try container.decodeIfPresent(.sparkline)
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
        for (index, item) in items.enumerated() {
            guard let values = item.sparkline else { continue }
            if values.count > 1000 {
                throw FolioError(path: "\(path).items[\(index)].sparkline", "has \(values.count) values; at most 1,000")
            }
            if let bad = values.firstIndex(where: { $0.map { !$0.isFinite || abs($0) > InputLimits.magnitude } ?? false }) {
                throw FolioError(path: "\(path).items[\(index)].sparkline[\(bad)]", "must be a finite number between -1e15 and 1e15")
            }
        }
    }
    /// Each tile's title, value and detail.
    package var textContent: [String] { items.flatMap { [$0.title, $0.value] + [$0.detail].compactMap { $0 } } }
}
