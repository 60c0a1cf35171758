/// One element of a document's body, in reading order.
///
/// In JSON and YAML each block is an object whose `type` names the case:
/// `subtitle`, `paragraph`, `image`, `svg`, `table`, `chart`, `message`, `widgets`, `pageBreak`, `section`, `columns`, `barcode`, `list`, `pdf`, `contents`.
public enum Block: Sendable, Hashable, Codable {
    // The kinds with large models are kept out of line (`indirect`), so a block costs what its own
    // kind needs: a paragraph or subtitle 32 bytes, not the 464 of the largest kind (a document of
    // 70,000 paragraphs held 32 MB of elements array for nothing).
    case subtitle(Subtitle)
    case paragraph(Paragraph)
    indirect case image(ImageBlock)
    indirect case svg(SVGBlock)
    indirect case table(Table)
    indirect case chart(Chart)
    indirect case message(Message)
    indirect case widgets(Widgets)
    case pageBreak
    indirect case section(Section)
    indirect case columns(Columns)
    /// A block type of the app's own, built in Swift (`CustomElement`).
    indirect case custom(CustomBlock)
    /// A barcode (QR, Data Matrix, Code 128, PDF417, EAN-13) drawn as rectangles.
    indirect case barcode(Barcode)
    /// A bulleted or numbered list, lists nested in it.
    indirect case list(ListBlock)
    /// Pages of a PDF made elsewhere, placed whole or framed.
    indirect case pdf(AppendedPDF)
    /// A printed table of contents.
    indirect case contents(Contents)

    /// The `type` names accepted in documents.
    public static let typeNames = Kind.allCases.filter { $0 != .custom }.map(\.rawValue)

    /// The kind of this block.
    public var kind: Kind { content.map { type(of: $0).kind } ?? .pageBreak }

    /// The `type` name of this block.
    public var typeName: String { kind.rawValue }

    /// `type`, and `keepTogether`, which every block accepts (the kinds that split keep it).
    private enum CodingKeys: String, CodingKey { case type, keepTogether }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        // A block that never splits is kept together already: its `keepTogether` is checked and read.
        _ = try container.decodeIfPresent(Bool.self, forKey: .keepTogether)
        guard let kind = Kind(typeName: type), kind != .custom else {
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container,
                debugDescription: "unknown block type \"\(type)\"; expected one of: \(Block.typeNames.joined(separator: ", "))")
        }
        switch kind {
        case .subtitle: self = .subtitle(try Subtitle(from: decoder))
        case .paragraph: self = .paragraph(try Paragraph(from: decoder))
        case .image: self = .image(try ImageBlock(from: decoder))
        case .svg: self = .svg(try SVGBlock(from: decoder))
        case .table: self = .table(try Table(from: decoder))
        case .chart: self = .chart(try Chart(from: decoder))
        case .message: self = .message(try Message(from: decoder))
        case .widgets: self = .widgets(try Widgets(from: decoder))
        case .pageBreak: self = .pageBreak
        case .section: self = .section(try Section(from: decoder))
        case .columns: self = .columns(try Columns(from: decoder))
        case .custom: self = .custom(try CustomBlock(from: decoder))
        case .barcode: self = .barcode(try Barcode(from: decoder))
        case .list: self = .list(try ListBlock(from: decoder))
        case .pdf: self = .pdf(try AppendedPDF(from: decoder))
        case .contents: self = .contents(try Contents(from: decoder))
        }
    }

    /// Encodes the value as a document writes it.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(typeName, forKey: .type)
        try content?.encode(to: encoder)
    }
}

extension Block {
    /// The kinds of block, by their `type` name in documents.
    public enum Kind: String, Sendable, CaseIterable {
        case subtitle, paragraph, image, svg, table, chart, message, widgets, pageBreak, section, columns, custom, barcode, list, pdf,
            contents

        /// The kind a document's `type` names; `page-break` and `pagebreak` are accepted for `pageBreak`.
        public init?(typeName: String) {
            if typeName == "page-break" || typeName == "pagebreak" {
                self = .pageBreak
            } else {
                self.init(rawValue: typeName)
            }
        }
    }

    /// The block's model, or nil for a page break (which has none).
    package var content: (any BlockContent)? {
        switch self {
        case .subtitle(let value): return value
        case .paragraph(let value): return value
        case .image(let value): return value
        case .svg(let value): return value
        case .table(let value): return value
        case .chart(let value): return value
        case .message(let value): return value
        case .widgets(let value): return value
        case .pageBreak: return nil
        case .section(let value): return value
        case .columns(let value): return value
        case .custom(let value): return value
        case .barcode(let value): return value
        case .list(let value): return value
        case .pdf(let value): return value
        case .contents(let value): return value
        }
    }

    /// The text the block prints, plain, in reading order.
    package var textContent: [String] { content?.textContent ?? [] }
}
