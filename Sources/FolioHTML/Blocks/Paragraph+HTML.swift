import FolioModel

extension Paragraph: HTMLBlock {
    /// A `p` of inline runs, aligned by class.
    func html(in writer: inout HTMLBodyWriter, path: String) throws -> HTML {
        let alignment: HTML = align == .left ? "" : " class=\"folio-\(align.rawValue)\""
        return "<p\(alignment)\(writer.neutralDirection(text.runs.map(\.text).joined()))>\(writer.inline(text))</p>"
    }
}
