/// One element of a document's body, in reading order.
///
/// In JSON and YAML each block is an object whose `type` names the case:
/// `subtitle`, `paragraph`, `image`, `table`, `chart`, `message`, `widgets`, `pageBreak`, `section`, `columns`.
public enum Block: Sendable, Hashable, Codable {
    case subtitle(Subtitle)
    case paragraph(Paragraph)
    case image(ImageBlock)
    case table(Table)
    case chart(Chart)
    case message(Message)
    case widgets(Widgets)
    case pageBreak
    case section(Section)
    case columns(Columns)

    /// The `type` names accepted in documents.
    public static let typeNames = ["subtitle", "paragraph", "image", "table", "chart", "message", "widgets", "pageBreak", "section", "columns"]

    /// The `type` name of this block.
    public var typeName: String {
        switch self {
        case .subtitle: return "subtitle"
        case .paragraph: return "paragraph"
        case .image: return "image"
        case .table: return "table"
        case .chart: return "chart"
        case .message: return "message"
        case .widgets: return "widgets"
        case .pageBreak: return "pageBreak"
        case .section: return "section"
        case .columns: return "columns"
        }
    }

    private enum CodingKeys: String, CodingKey { case type }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "subtitle": self = .subtitle(try Subtitle(from: decoder))
        case "paragraph": self = .paragraph(try Paragraph(from: decoder))
        case "image": self = .image(try ImageBlock(from: decoder))
        case "table": self = .table(try Table(from: decoder))
        case "chart": self = .chart(try Chart(from: decoder))
        case "message": self = .message(try Message(from: decoder))
        case "widgets": self = .widgets(try Widgets(from: decoder))
        case "pageBreak", "page-break", "pagebreak": self = .pageBreak
        case "section": self = .section(try Section(from: decoder))
        case "columns": self = .columns(try Columns(from: decoder))
        default:
            throw DecodingError.dataCorruptedError(forKey: .type, in: container,
                debugDescription: "unknown block type \"\(type)\"; expected one of: \(Block.typeNames.joined(separator: ", "))")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(typeName, forKey: .type)
        switch self {
        case .subtitle(let value): try value.encode(to: encoder)
        case .paragraph(let value): try value.encode(to: encoder)
        case .image(let value): try value.encode(to: encoder)
        case .table(let value): try value.encode(to: encoder)
        case .chart(let value): try value.encode(to: encoder)
        case .message(let value): try value.encode(to: encoder)
        case .widgets(let value): try value.encode(to: encoder)
        case .pageBreak: break
        case .section(let value): try value.encode(to: encoder)
        case .columns(let value): try value.encode(to: encoder)
        }
    }
}
