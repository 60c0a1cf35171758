import FolioModel

/// A kind of block written as HTML. Each kind's writer is in its own file
/// (`Blocks/Paragraph+HTML.swift`); it writes through the `HTML` type (every interpolated string
/// escaped) and adds the style rules it needs to the writer's `style`.
protocol HTMLBlock: BlockContent {
    /// This block at `path` (such as `elements[3]`) as HTML, written with `writer`.
    func html(in writer: inout HTMLBodyWriter, path: String) throws -> HTML
}

extension Block {
    /// This block's HTML writer, or nil for a page break. A switch, not a cast to `HTMLBlock`: a new
    /// kind does not compile until it has its HTML end (as `laidOut` demands its layout).
    var htmlWritten: (any HTMLBlock)? {
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
}
