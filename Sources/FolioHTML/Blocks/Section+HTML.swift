import FolioModel

extension Section: HTMLBlock {
    /// A page break for print and the section's title as a heading (`HeadingLevels.section`: `h2`
    /// under the report's title, `h1` in a report without one).
    func html(in writer: inout HTMLBodyWriter, path: String) throws -> HTML {
        writer.headings.inSection = true
        let heading = writer.heading(
            level: writer.headings.section,
            attributes:
                " class=\"folio-section-title\"\(writer.anchorAttribute(writer.headingAnchor(id, path: path)))\(writer.languageAttribute(title))",
            "\(writer.typeset(title))")
        return "<div class=\"folio-page-break\"></div>\(heading)"
    }
}
