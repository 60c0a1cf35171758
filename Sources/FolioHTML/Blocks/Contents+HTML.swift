import FolioModel

extension Contents: HTMLBlock {
    /// A `nav` named by its heading, holding nested ordered lists of links to the document's headings
    /// down to `depth` (a web page has no page numbers: the links are the way there).
    /// Each link is a target at least 24 px high (WCAG 2.2, 2.5.8): a phone's thumb finds it.
    func html(in writer: inout HTMLBodyWriter, path: String) throws -> HTML {
        writer.style.add("contents") { r in
            "\(r) nav.folio-contents ol{list-style:none;margin:.2em 0;padding-inline-start:0}\(r) nav.folio-contents ol ol{padding-inline-start:1.2em}\(r) nav.folio-contents li{margin:.25em 0}\(r) nav.folio-contents>ol>li>a{font-weight:600}\(r) nav.folio-contents a{display:inline-block;min-height:24px;line-height:24px}"
        }
        let shownTitle = title ?? writer.strings[.contents]
        let headingID = writer.ids.next("contents")
        var html: HTML = "<nav class=\"folio-contents\" aria-labelledby=\"\(headingID)\">"
        html += writer.heading(
            level: writer.headings.subtitle, attributes: " id=\"\(headingID)\" class=\"folio-subtitle\"", "\(writer.typeset(shownTitle))")
        let listed = writer.prepared.document.headingEntries.filter { $0.depth <= depth }
        let top = listed.map(\.depth).min() ?? 1
        // One open `li` flag per open list, deepest last.
        var open: [Bool] = []
        for entry in listed {
            let level = entry.depth - top + 1
            while open.count > level {
                if open.removeLast() { html += "</li>" }
                html += "</ol>"
            }
            while open.count < level {
                if let last = open.last, !last {
                    html += "<li>"
                    open[open.count - 1] = true
                }
                html += "<ol>"
                open.append(false)
            }
            if open.last == true { html += "</li>" }
            html += "<li><a href=\"#\(writer.anchorID(entry.anchor))\">\(writer.typeset(entry.text))</a>"
            open[open.count - 1] = true
        }
        while let last = open.popLast() {
            if last { html += "</li>" }
            html += "</ol>"
        }
        return html + "</nav>"
    }
}
