import FolioGraphics
import FolioModel

extension Message: HTMLBlock {
    /// A note with its tint, its label in words ("Tip:"), its title and text.
    func html(in writer: inout HTMLBodyWriter, path: String) throws -> HTML {
        let tint = writer.style.tintClass(writer.theme.tint(of: self))
        var html: HTML = "<aside class=\"folio-message folio-message-\(kind.rawValue) \(tint)\" role=\"note\">"
        html += "<p class=\"folio-message-title\"><strong>"
        if let label = kind.label(in: writer.strings) { html += "\(label + writer.strings.labelSeparator)" }
        html += "\(title)</strong></p>"
        if !text.runs.isEmpty { html += "<p>\(writer.inline(text))</p>" }
        return html + "</aside>"
    }
}
