import FolioModel

/// A kind of block laid out into flowables. Each kind's layout is in its own file
/// (`Blocks/Paragraph+Layout.swift`); `FlowableBuilder` gives it the text engine, theme, width
/// and warnings, and a test asks every kind for one.
protocol LaidOutBlock: BlockContent {
    /// This block's flowables at `path` (such as `elements[3]`), laid out with `builder`.
    func flowables(in builder: FlowableBuilder, path: String) throws -> [Flowable]
}
