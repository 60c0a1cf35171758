/// Blocks side by side, such as a pie chart beside activity rings; they stay on one
/// page together. In HTML the columns stack on narrow screens.
public struct Columns: Sendable, Hashable, Codable {
    /// The blocks, left to right: charts, images, paragraphs, messages, widgets or subtitles.
    public var items: [Block]
    /// Relative widths, one per item (`[2, 1]`); equal by default.
    public var widths: [Double]?

    public init(_ items: [Block], widths: [Double]? = nil) {
        self.items = items
        self.widths = widths
    }

    /// Each item's share of the width, adding up to 1.
    public var fractions: [Double] {
        let raw = widths.map { $0.count == items.count ? $0 : Array(repeating: 1, count: items.count) }
            ?? Array(repeating: 1, count: items.count)
        let total = raw.reduce(0, +)
        return raw.map { total > 0 ? $0 / total : 1 / Double(max(items.count, 1)) }
    }
}
