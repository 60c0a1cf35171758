import FolioModel

extension AppendedPDF: HTMLBlock {
    /// The appended pages are the PDF's: the page says what they hold with their title as a heading
    /// (one level below the section, as a subtitle) and their text alternative (without one, each
    /// page's text, a paragraph each).
    func html(in writer: inout HTMLBodyWriter, path: String) throws -> HTML {
        var html = writer.heading(
            level: writer.headings.subtitle,
            attributes:
                " class=\"folio-subtitle\"\(writer.anchorAttribute(writer.headingAnchor(nil, path: path)))\(writer.languageAttribute(shownTitle))",
            "\(writer.typeset(shownTitle))")
        if let texts = try writer.prepared.appendedPDF(at: path).pageTexts {
            for text in texts { html += "<p class=\"folio-appended\"\(writer.languageAttribute(text))>\(text)</p>" }
        } else {
            html += "<p class=\"folio-appended\">\(alt)</p>"
        }
        return html
    }
}
