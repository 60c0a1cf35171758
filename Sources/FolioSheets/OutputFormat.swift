import Folio
import Foundation

/// Every kind of file Folio's programs write a document as: a PDF, HTML, or the document's tables
/// as an XLSX workbook or CSV. (A program that only renders uses Folio's `RenderFormat`.)
public enum OutputFormat: String, Sendable, CaseIterable {
    case pdf, html, xlsx, csv

    /// The media type of a file of this format.
    public var mediaType: String {
        switch self {
        case .pdf: return RenderFormat.pdf.mediaType
        case .html: return RenderFormat.html.mediaType
        case .xlsx: return "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        case .csv: return "text/csv"
        }
    }

    /// The format Folio renders, for a PDF or HTML; nil for the spreadsheets.
    public var renderFormat: RenderFormat? { RenderFormat(rawValue: rawValue) }
}

extension PreparedDocument {
    /// The document in `format` with its page count (nil for HTML and spreadsheets, which have no
    /// pages); CSV holds one table (`Document.csvTables()` gives a file per table).
    package func renderInAnyFormat(as format: OutputFormat, options: RenderOptions) throws -> (data: Data, pages: Int?) {
        if let rendered = format.renderFormat { return try renderCountingPages(as: rendered, options: options) }
        if format == .xlsx { return (try document.xlsx(), nil) }
        let tables = try document.csvTables()
        guard tables.count == 1, let only = tables.first else {
            throw FolioError(
                path: "elements", "the document has \(tables.count) tables and a CSV file holds one: ask for xlsx, a sheet per table")
        }
        return (only, nil)
    }
}
