/// A table of text cells with an optional header row, repeated on every page it spans.
public struct Table: Sendable, Hashable, Codable {
    /// Horizontal alignment of a column's cells.
    public enum Alignment: String, Sendable, Hashable, Codable {
        case left, center, right
    }

    /// Column titles, or nil for a table without a header row.
    public var header: [String]?
    /// Data rows; short rows are padded with empty cells.
    public var rows: [[String]]
    /// Alignment per column; missing entries are `left`.
    public var align: [Alignment]
    /// Shade every other row.
    public var zebra: Bool
    public var caption: String?
    /// Caption over the parts after a page break, such as "Medications (continued)"; none by default.
    public var continuedCaption: String?
    /// Column widths: points or lengths, percentages of the width (`"25%"`), or nil for "from the content".
    public var widths: [ColumnWidth]?

    /// One column's width.
    public enum ColumnWidth: Sendable, Hashable, Codable {
        case fixed(Length)
        case percent(Double)
        case auto

        public init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                let trimmed = text.trimmingWhitespace()
                if trimmed == "auto" { self = .auto; return }
                if trimmed.hasSuffix("%"), let value = Double(trimmed.dropLast()), value > 0, value <= 100 {
                    self = .percent(value)
                    return
                }
            }
            self = .fixed(try container.decode(Length.self))
        }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .fixed(let length): try container.encode(length)
            case .percent(let value): try container.encode("\(value)%")
            case .auto: try container.encode("auto")
            }
        }
    }

    public init(header: [String]? = nil, rows: [[String]], align: [Alignment] = [], zebra: Bool = true,
                caption: String? = nil, continuedCaption: String? = nil, widths: [ColumnWidth]? = nil) {
        self.header = header; self.rows = rows; self.align = align; self.zebra = zebra; self.caption = caption
        self.continuedCaption = continuedCaption; self.widths = widths
    }

    /// Number of columns: the widest of the header and the rows.
    public var columnCount: Int {
        rows.reduce(header?.count ?? 0) { max($0, $1.count) }
    }

    /// The alignment of column `index`.
    public func alignment(ofColumn index: Int) -> Alignment {
        index < align.count ? align[index] : .left
    }

    /// `row` padded with empty cells to `count` (compute `columnCount` once: it reads every row).
    public static func padded(_ row: [String], to count: Int) -> [String] {
        row.count >= count ? row : row + Array(repeating: "", count: count - row.count)
    }

    private enum CodingKeys: String, CodingKey { case header, rows, align, zebra, caption, continuedCaption, widths }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        header = try container.decodeIfPresent(LenientRow.self, forKey: .header)?.cells
        rows = try container.decode([LenientRow].self, forKey: .rows).map(\.cells)
        align = try container.decodeIfPresent([Alignment].self, forKey: .align) ?? []
        zebra = try container.decodeIfPresent(Bool.self, forKey: .zebra) ?? true
        caption = try container.decodeIfPresent(String.self, forKey: .caption)
        if let flag = try? container.decodeIfPresent(Bool.self, forKey: .continuedCaption) {
            continuedCaption = flag ? "\(caption ?? "") (continued)".trimmingWhitespace() : nil
        } else {
            continuedCaption = try container.decodeIfPresent(String.self, forKey: .continuedCaption)
        }
        widths = try container.decodeIfPresent([ColumnWidth].self, forKey: .widths)
    }
}
