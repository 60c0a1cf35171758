import FolioModel

extension ListBlock: HTMLBlock {
    /// An `ol` (from its `start`) or a `ul`: each text item an `li`, a nested list inside the item
    /// before it (an `li` of its own, without a marker, when it comes first).
    func html(in writer: inout HTMLBodyWriter, path: String) throws -> HTML {
        writer.style.add("list") { r in
            "\(r) ul,\(r) ol{margin:.3em 0 .6em;padding-inline-start:1.7em}\(r) li{margin:.15em 0}\(r) li>ul,\(r) li>ol{margin:.15em 0 .2em}\(r) li.folio-list-only{list-style:none}"
        }
        // A list runs the way its items' language does where they agree, else the report's (as in
        // the PDF): an Arabic list in an English report hangs its markers on the right.
        let directions = Set(texts.map { writer.direction(of: $0.plainText) })
        guard directions.count == 1, let direction = directions.first, direction != writer.documentDirection else {
            return html(with: writer)
        }
        return "<div\(writer.directionAttribute(direction))>\(html(with: writer))</div>"
    }

    /// The list's markup; nested lists by the same writer.
    func html(with writer: HTMLBodyWriter) -> HTML {
        var html: HTML = ordered ? (start == 1 ? "<ol>" : "<ol start=\"\(start)\">") : "<ul>"
        var itemOpen = false
        for item in items {
            switch item {
            case .text(let text):
                if itemOpen { html += "</li>" }
                html += "<li\(writer.languageAttribute(text.plainText, setsDirection: false))>\(writer.inline(text))"
                itemOpen = true
            case .list(let nested):
                if !itemOpen { html += "<li class=\"folio-list-only\">" }
                html += nested.html(with: writer)
                itemOpen = true
            }
        }
        if itemOpen { html += "</li>" }
        html += ordered ? "</ol>" : "</ul>"
        return html
    }
}
