import FolioGraphics
import FolioModel

extension Message: HTMLBlock {
    /// A note with its tint, its label in words ("Tip:"), its title and text.
    func html(in writer: inout HTMLBodyWriter, path: String) throws -> HTML {
        let tintColor = writer.theme.tint(of: self)
        let tint = writer.style.tintClass(tintColor)
        // Links keep 4.5:1 contrast on the message's tinted background (the accent alone may not).
        let link = writer.theme.accent.readable(on: tintColor.lightened(0.9))
        writer.style.add("\(tint)-links") { r in "\(r) .\(identifier: tint) a{color:\(link)}" }
        var html: HTML = "<aside class=\"folio-message folio-message-\(kind.rawValue) \(tint)\" role=\"note\">"
        html += "<p class=\"folio-message-title\"><strong>"
        if let label = kind.label(in: writer.strings) { html += "\(label + writer.strings.labelSeparator)" }
        html += "\(writer.typeset(title))</strong></p>"
        if !text.runs.isEmpty { html += "<p>\(writer.inline(text))</p>" }
        return html + "</aside>"
    }
}
