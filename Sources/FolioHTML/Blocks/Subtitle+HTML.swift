import FolioModel

extension Subtitle: HTMLBlock {
    /// A heading with its anchor, one level below the section it is in (`HeadingLevels.subtitle`).
    func html(in writer: inout HTMLBodyWriter, path: String) throws -> HTML {
        writer.heading(
            level: writer.headings.subtitle,
            attributes:
                " class=\"folio-subtitle\"\(writer.anchorAttribute(writer.headingAnchor(id, path: path)))\(writer.languageAttribute(text))",
            "\(writer.typeset(text))"
        )
    }
}
