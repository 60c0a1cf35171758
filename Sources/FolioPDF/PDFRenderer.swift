import CCairoPango
import Foundation
import FolioGraphics
import FolioModel

/// Renders a document to PDF with Cairo and Pango: flowables, pagination, then
/// every page with its header and "Page N of M" footer once the count is known.
public struct PDFRenderer {
    public var theme: Theme
    /// Folder that relative image paths start from.
    public var baseDirectory: URL?

    public init(theme: Theme = .standard, baseDirectory: URL? = nil) {
        self.theme = theme
        self.baseDirectory = baseDirectory
    }

    /// The PDF's bytes, written to memory.
    public func render(_ document: Document) throws -> Data {
        try renderCountingPages(document).data
    }

    /// The PDF's bytes and its number of pages.
    public func renderCountingPages(_ document: Document) throws -> (data: Data, pages: Int) {
        let sink = PDFSink()
        let pages = try render(document, into: sink)
        return (sink.data, pages)
    }

    /// Writes the PDF to `url` as it is produced.
    public func render(_ document: Document, to url: URL) throws {
        try render(document).write(to: url)
    }

    private func render(_ document: Document, into sink: PDFSink) throws -> Int {
        try document.validate()
        let text = PangoTextEngine()
        let (pageWidth, pageHeight) = document.page.pageSize
        let margins = document.page.margins
        let content = Rect(x: margins.left.points, y: margins.top.points,
                           width: pageWidth - margins.left.points - margins.right.points,
                           height: pageHeight - margins.top.points - margins.bottom.points)
        let builder = FlowableBuilder(text: text, theme: theme, width: content.width, baseDirectory: baseDirectory)
        let pages = Paginator(pageHeight: content.height).paginate(try builder.flowables(for: document))

        let unmanaged = Unmanaged.passRetained(sink)
        defer { unmanaged.release() }
        guard let surface = cairo_pdf_surface_create_for_stream({ closure, bytes, length in
            guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<PDFSink>.fromOpaque(closure).takeUnretainedValue().data.append(bytes, count: Int(length))
            return CAIRO_STATUS_SUCCESS
        }, unmanaged.toOpaque(), pageWidth, pageHeight) else {
            throw FolioError(path: "", "Cairo could not create a PDF surface")
        }
        defer { cairo_surface_destroy(surface) }
        setMetadata(document, on: surface)
        guard let cr = cairo_create(surface) else { throw FolioError(path: "", "Cairo could not create a context") }
        let canvas = CairoCanvas(cr: cr, text: text, images: ImageSurfaceCache())
        let decorations = PageDecorations(document: document, theme: theme, text: text, content: content,
                                          pageSize: Size(pageWidth, pageHeight))
        for (index, placements) in pages.enumerated() {
            decorations.draw(on: canvas, page: index + 1, of: pages.count)
            for placement in placements {
                placement.flowable.draw(on: canvas, at: Point(content.x, content.y + placement.y))
            }
            cairo_show_page(cr)
        }
        let status = cairo_status(cr)
        cairo_destroy(cr)
        cairo_surface_finish(surface)
        guard status == CAIRO_STATUS_SUCCESS, cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            throw FolioError(path: "", "Cairo failed to write the PDF: \(String(cString: cairo_status_to_string(status)))")
        }
        return pages.count
    }

    private func setMetadata(_ document: Document, on surface: OpaquePointer) {
        let meta = document.metadata
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, document.title)
        if let author = meta.author { cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_AUTHOR, author) }
        if let subject = meta.subject { cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_SUBJECT, subject) }
        if !meta.keywords.isEmpty {
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_KEYWORDS, meta.keywords.joined(separator: ", "))
        }
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "Folio")
        let date = PDFRenderer.creationDate(meta)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        let stamp = formatter.string(from: date)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, stamp)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_MOD_DATE, stamp)
    }

    /// The document's date, else `SOURCE_DATE_EPOCH`, else now.
    static func creationDate(_ meta: Metadata) -> Date {
        if let date = meta.creationDate { return date }
        if let epoch = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"], let seconds = Double(epoch) {
            return Date(timeIntervalSince1970: seconds)
        }
        return Date()
    }
}

/// Collects the PDF bytes Cairo writes.
final class PDFSink {
    var data = Data()
}
