import FolioModel

extension Subtitle: HTMLBlock {
    /// An `h2` with its anchor; an `h1` (styled as a subtitle) before the title or any section.
    func html(in writer: inout HTMLBodyWriter, path: String) throws -> HTML {
        if writer.belowTopHeading { return "<h2\(writer.anchorAttribute(id))>\(text)</h2>" }
        return "<h1 class=\"folio-subtitle\"\(writer.anchorAttribute(id))>\(text)</h1>"
    }
}
