import FolioModel

extension Section: HTMLBlock {
    /// A page break for print and the section's title as a heading.
    func html(in writer: inout HTMLBodyWriter, path: String) throws -> HTML {
        "<div class=\"folio-page-break\"></div><h2 class=\"folio-section-title\"\(writer.anchorAttribute(id))>\(title)</h2>"
    }
}
