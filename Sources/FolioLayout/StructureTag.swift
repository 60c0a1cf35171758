/// The standard PDF structure types Folio tags content with (ISO 32000-1, 14.8.4). Only
/// standard types are used, so the structure tree needs no role map.
package enum StructureTag: String, Sendable {
    case heading1 = "H1"
    case heading2 = "H2"
    case paragraph = "P"
    case division = "Div"
    case figure = "Figure"
    case caption = "Caption"
    case table = "Table"
    case tableRow = "TR"
    case headerCell = "TH"
    case dataCell = "TD"
    /// Text that shares its element with links (see the PDF exporter's text drawing).
    case span = "Span"
}
