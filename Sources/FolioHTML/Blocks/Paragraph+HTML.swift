import FolioModel

extension Paragraph: HTMLBlock {
    /// A `p` of inline runs, aligned by class; its Markdown list lines as `ul` or `ol` (`parts`).
    func html(in writer: inout HTMLBodyWriter, path: String) throws -> HTML {
        let alignment: HTML = align == .left ? "" : " class=\"folio-\(align.rawValue)\""
        var html = HTML()
        for part in parts {
            switch part {
            case .text(let text):
                let plain = text.plainText
                html +=
                    "<p\(alignment)\(writer.languageAttribute(plain, language: language))>\(writer.inline(text))</p>"
            case .list(let list):
                html += try list.html(in: &writer, path: path)
            }
        }
        return html
    }
}
