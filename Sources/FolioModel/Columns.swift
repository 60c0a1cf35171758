/// Blocks side by side, such as a pie chart beside activity rings; they stay on one
/// page together. In HTML the columns stack on narrow screens.
public struct Columns: Sendable, Hashable, Codable {
    /// The blocks, left to right: charts, images, paragraphs, messages, widgets or subtitles.
    public var items: [Block]
    /// Relative widths, one per item (`[2, 1]`); equal by default.
    public var widths: [Double]?

    /// `items` side by side, in `widths` proportions (equal when nil).
    public init(_ items: [Block], widths: [Double]? = nil) {
        self.items = items
        self.widths = widths
    }

    /// Each item's share of the width, adding up to 1.
    public var fractions: [Double] {
        let raw =
            widths.map { $0.count == items.count ? $0 : Array(repeating: 1, count: items.count) }
            ?? Array(repeating: 1, count: items.count)
        let total = raw.reduce(0, +)
        return raw.map { total > 0 ? $0 / total : 1 / Double(max(items.count, 1)) }
    }
}

extension Columns: BlockContent {
    /// `columns`.
    package static let kind = Block.Kind.columns
    /// Widths match the items; items are blocks that can stand in a column.
    package func validate(path: String) throws {
        if items.isEmpty { throw FolioError(path: "\(path).items", "columns need at least one item") }
        if let widths {
            if widths.count != items.count {
                throw FolioError(path: "\(path).widths", "has \(widths.count) widths for \(items.count) items")
            }
            if let bad = widths.firstIndex(where: { !($0 > 0) || !($0 <= 1000) }) {
                throw FolioError(path: "\(path).widths[\(bad)]", "widths must be numbers above 0 and at most 1000")
            }
        }
        for (index, item) in items.enumerated() {
            // A page break has no content, and cannot stand in a column either.
            guard let content = item.content, type(of: content).standsInColumns else {
                throw FolioError(path: "\(path).items[\(index)]", "a \(item.typeName) cannot stand in a column")
            }
            try item.validate(path: "\(path).items[\(index)]")
        }
    }
    /// The items' text, column by column.
    package var textContent: [String] { items.flatMap(\.textContent) }
    /// The items, in their columns.
    package var nestedBlocks: [(block: Block, field: String)] { items.enumerated().map { ($0.element, "items[\($0.offset)]") } }
    /// Columns do not nest.
    package static var standsInColumns: Bool { false }
}
