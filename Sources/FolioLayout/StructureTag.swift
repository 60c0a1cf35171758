/// The standard PDF structure types Folio tags content with (ISO 32000-1, 14.8.4). Only
/// standard types are used, so the structure tree needs no role map.
package enum StructureTag: String, Sendable {
    case heading1 = "H1"
    case heading2 = "H2"
    case heading3 = "H3"
    case heading4 = "H4"
    case heading5 = "H5"
    case heading6 = "H6"
    case paragraph = "P"
    case division = "Div"
    case figure = "Figure"
    case caption = "Caption"
    case table = "Table"
    case tableRow = "TR"
    case headerCell = "TH"
    case dataCell = "TD"
    /// A report table's row groups: its header row, its body rows, its total rows.
    case tableHead = "THead"
    case tableBody = "TBody"
    case tableFoot = "TFoot"
    /// A list, its items, an item's label (bullet or number) and its body.
    case list = "L"
    case listItem = "LI"
    case label = "Lbl"
    case listBody = "LBody"
    /// A table of contents and its entries.
    case tableOfContents = "TOC"
    case tableOfContentsItem = "TOCI"
    /// A footnote, at the foot of the page that cites it (the PDF's finishing step gives it its /ID).
    case note = "Note"
    /// Text that shares its element with links (see the PDF exporter's text drawing).
    case span = "Span"
    /// A passage in another language while drawing: the finishing step makes it a `Span` with its
    /// `/Lang` (Cairo names only standard types, and Folio draws no quotation as `Quote`).
    case passage = "Quote"

    /// Whether the element holds running text whose language it may name (P, H1–H6).
    package var holdsText: Bool {
        [.paragraph, .heading1, .heading2, .heading3, .heading4, .heading5, .heading6].contains(self)
    }

    /// The heading tag of `level` (1–6; deeper levels are H6).
    package static func heading(_ level: Int) -> StructureTag {
        switch level {
        case ...1: return .heading1
        case 2: return .heading2
        case 3: return .heading3
        case 4: return .heading4
        case 5: return .heading5
        default: return .heading6
        }
    }
}
