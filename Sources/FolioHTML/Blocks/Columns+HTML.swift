import FolioModel

extension Columns: HTMLBlock {
    /// A flex row of columns that grow by their shares and wrap on narrow screens.
    func html(in writer: inout HTMLBodyWriter, path: String) throws -> HTML {
        writer.style.add("folio-columns") { r in
            """
            \(r) .folio-columns{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start;margin:1em 0}
            \(r) .folio-column{display:block;min-width:0}
            \(r) .folio-column>figure,\(r) .folio-column>ul,\(r) .folio-column>aside{margin-top:0}
            """
        }
        var html: HTML = "<div class=\"folio-columns\">"
        for (index, (item, fraction)) in zip(items, fractions).enumerated() {
            let share = max(1, (fraction * 100).clampedInt())
            writer.style.add("folio-share-\(share)") { r in
                "\(r) .folio-share-\(share){flex:\(share) 1 \(number: ScreenChart.columnBasis)px}"
            }
            html += "<div class=\"folio-column folio-share-\(share)\">"
            html += try writer.html(for: item, path: "\(path).items[\(index)]")
            html += "</div>"
        }
        return html + "</div>"
    }
}
