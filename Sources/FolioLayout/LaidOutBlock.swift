import FolioModel

/// A kind of block laid out into flowables. Each kind's layout is in its own file
/// (`Blocks/Paragraph+Layout.swift`); `FlowableBuilder` gives it the text engine, theme, width
/// and warnings, and a test asks every kind for one.
protocol LaidOutBlock: BlockContent {
    /// This block's flowables at `path` (such as `elements[3]`), laid out with `builder`.
    func flowables(in builder: FlowableBuilder, path: String) throws -> [Flowable]
}

extension Block {
    /// This block's layout, or nil for a page break. A switch, not a cast to `LaidOutBlock`: the
    /// compiler points to it when a kind is added, and a cold process does not scan every protocol
    /// conformance the first time it meets each kind (a dynamic cast's cost).
    var laidOut: (any LaidOutBlock)? {
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
