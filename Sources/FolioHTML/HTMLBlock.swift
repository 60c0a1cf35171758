import FolioModel

/// A kind of block written as HTML. Each kind's writer is in its own file
/// (`Blocks/Paragraph+HTML.swift`); it writes through the `HTML` type (every interpolated string
/// escaped) and adds the style rules it needs to the writer's `style`. A test asks every kind for one.
protocol HTMLBlock: BlockContent {
    /// This block at `path` (such as `elements[3]`) as HTML, written with `writer`.
    func html(in writer: inout HTMLBodyWriter, path: String) throws -> HTML
}
