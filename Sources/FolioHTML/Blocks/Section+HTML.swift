import FolioModel

extension Section: HTMLBlock {
    /// A page break for print and the section's title as a heading: `h2` under the report's
    /// title, `h1` in a report without one.
    func html(in writer: inout HTMLBodyWriter, path: String) throws -> HTML {
        let level: HTML = writer.hasTitle ? "h2" : "h1"
        writer.inSection = true
        let anchor = writer.anchorAttribute(id)
        return "<div class=\"folio-page-break\"></div><\(level) class=\"folio-section-title\"\(anchor)>\(title)</\(level)>"
    }
}
