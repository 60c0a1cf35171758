import ArgumentParser
import Folio

/// What `folio render` writes: a PDF, HTML, a PNG picture of each page, or the document's tables as
/// an XLSX workbook or CSV files.
enum RenderCommandFormat: String, CaseIterable, ExpressibleByArgument {
    case pdf, html, png, xlsx, csv

    /// Whether the format holds the document's tables only.
    var isSpreadsheet: Bool { self == .xlsx || self == .csv }
}
