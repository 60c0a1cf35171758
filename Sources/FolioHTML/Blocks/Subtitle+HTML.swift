import FolioModel

extension Subtitle: HTMLBlock {
    /// An `h2` with its anchor.
    func html(in writer: inout HTMLBodyWriter, path: String) throws -> HTML {
        "<h2\(writer.anchorAttribute(id))>\(text)</h2>"
    }
}
