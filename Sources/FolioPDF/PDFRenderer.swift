import CCairoPango
import FolioGraphics
import FolioModel
import Foundation

/// Renders a document to PDF with Cairo and Pango: flowables, pagination, then
/// every page with its header and "Page N of M" footer once the counts are known;
/// bookmarks, internal links, page labels, a structure tree and a layout report.
public struct PDFRenderer {
    /// Colours, fonts and sizes.
    public var theme: Theme
    /// Where image files may be read from.
    public var assets: AssetAccess

    /// A renderer with `theme` whose relative image paths start from `baseDirectory`.
    public init(theme: Theme = .standard, baseDirectory: URL? = nil) {
        self.init(theme: theme, assets: .files(relativeTo: baseDirectory))
    }

    /// A renderer with `theme` that reads image files as `assets` allows.
    public init(theme: Theme, assets: AssetAccess) {
        self.theme = theme
        self.assets = assets
    }

    /// What one render produced.
    public struct Result: Sendable {
        /// The PDF's bytes.
        public var data: Data
        /// Where every block went and what rules bent.
        public var report: LayoutReport
        /// The number of pages.
        public var pages: Int { report.pages }
    }

    /// The PDF's bytes, written to memory.
    public func render(_ document: Document) throws -> Data {
        try renderWithReport(document).data
    }

    /// The PDF's bytes and its number of pages.
    public func renderCountingPages(_ document: Document) throws -> (data: Data, pages: Int) {
        let result = try renderWithReport(document)
        return (result.data, result.pages)
    }

    /// The PDF and its layout report: `document` validated, its theme applied over `theme` and
    /// its images read as `assets` allows, then rendered.
    public func renderWithReport(_ document: Document) throws -> Result {
        try renderWithReport(try PreparedDocument(document, base: theme, assets: assets))
    }

    /// The PDF and its layout report of a document already validated and with its files read.
    package func renderWithReport(_ prepared: PreparedDocument) throws -> Result {
        let document = prepared.document
        let theme = prepared.theme
        let text = PangoTextEngine(rightToLeft: document.builtInStrings.isRightToLeft)
        let (pageWidth, pageHeight) = document.page.pageSize
        let margins = document.page.margins
        let content = Rect(
            x: margins.left.points, y: margins.top.points,
            width: pageWidth - margins.left.points - margins.right.points,
            height: pageHeight - margins.top.points - margins.bottom.points)
        let images = ImageSurfaceCache()
        let strings = document.builtInStrings
        let builder = FlowableBuilder(text: text, theme: theme, strings: strings, width: content.width, prepared: prepared, images: images)
        let items = try builder.items(for: document)
        let (pages, pageWarnings) = Paginator(pageHeight: content.height).paginate(items)
        let sections = document.elements.compactMap { block -> Section? in
            if case .section(let section) = block { return section }
            return nil
        }
        let numbering = PDFRenderer.numbering(of: pages)

        let sink = PDFSink()
        guard
            let pdfSurface = CairoSurface(
                cairo_pdf_surface_create_for_stream(
                    { closure, bytes, length in
                        guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
                        Unmanaged<PDFSink>.fromOpaque(closure).takeUnretainedValue().data.append(bytes, count: Int(length))
                        return CAIRO_STATUS_SUCCESS
                    }, Unmanaged.passUnretained(sink).toOpaque(), pageWidth, pageHeight), writingTo: sink)
        else {
            throw FolioError(path: "", "Cairo could not create a PDF surface")
        }
        let surface = pdfSurface.pointer
        setMetadata(document, on: surface)
        guard let context = CairoContext(surface: pdfSurface) else { throw FolioError(path: "", "Cairo could not create a context") }
        let cr = context.pointer
        // The context (and with it the surface and its sink) lives until the end of this scope and is
        // destroyed then, also when a render stops early.
        defer { withExtendedLifetime(context) {} }
        let canvas = CairoCanvas(cr: cr, text: text, images: images)
        let navigation = Navigation(surface: surface)
        canvas.navigation = navigation
        canvas.tagsStructure = document.metadata.tagged
        let decorations = PageDecorations(
            document: document, strings: strings, theme: theme, text: text, content: content,
            pageSize: Size(pageWidth, pageHeight))
        let decorationWarnings = numbering.last.map { decorations.warnings(lastPage: $0) } ?? []
        for (index, page) in pages.enumerated() {
            try RenderDeadline.check()
            navigation.page = index + 1
            if page.section >= 0, let label = sections[page.section].label {
                navigation.setPageLabel("\(label)-\(numbering[index].page)")
            }
            decorations.draw(on: canvas, numbering: numbering[index])
            for placement in page.placements {
                try RenderDeadline.check(at: "drawing \(builder.sources[placement.source].path) on page \(index + 1)")
                placement.flowable.draw(on: canvas, at: Point(content.x, content.y + placement.y))
            }
            cairo_show_page(cr)
        }
        let status = cairo_status(cr)
        cairo_surface_finish(surface)
        guard status == CAIRO_STATUS_SUCCESS, cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            let failing = status != CAIRO_STATUS_SUCCESS ? status : cairo_surface_status(surface)
            throw FolioError(path: "", "Cairo failed to write the PDF: \(String(cString: cairo_status_to_string(failing)))")
        }
        try RenderDeadline.check(at: "finishing the PDF")
        let data = try PDFFinisher(document: document, structure: canvas.structure, date: PDFRenderer.creationDate(document.metadata))
            .finish(sink.data)
        return Result(
            data: data,
            report: report(
                pages: pages, sources: builder.sources,
                warnings: decorationWarnings + builder.warnings, pageWarnings: pageWarnings))
    }

    /// Section-relative and document page numbers of every page.
    static func numbering(of pages: [PageContent]) -> [PageNumbering] {
        var counts: [Int: Int] = [:]
        for page in pages { counts[page.section, default: 0] += 1 }
        var seen: [Int: Int] = [:]
        return pages.enumerated().map { index, page in
            seen[page.section, default: 0] += 1
            return PageNumbering(
                page: seen[page.section] ?? 1, pages: counts[page.section] ?? 1,
                documentPage: index + 1, documentPages: pages.count)
        }
    }

    private func report(
        pages: [PageContent], sources: [FlowableBuilder.Source], warnings: [LayoutReport.Warning],
        pageWarnings: [Paginator.Warning]
    ) -> LayoutReport {
        var blocks = sources.map { LayoutReport.Block(path: $0.path, type: $0.type, pages: []) }
        for (index, page) in pages.enumerated() {
            for placement in page.placements {
                if blocks[placement.source].pages.last != index + 1 { blocks[placement.source].pages.append(index + 1) }
                if let table = placement.flowable as? TableFlowable, !table.range.isEmpty {
                    if blocks[placement.source].rows == nil { blocks[placement.source].rows = [] }
                    blocks[placement.source].rows?.append([table.range.lowerBound, table.range.upperBound - 1])
                }
            }
        }
        let paginatorWarnings = pageWarnings.map {
            LayoutReport.Warning(kind: $0.kind, path: sources[$0.source].path, page: $0.page, message: $0.message)
        }
        return LayoutReport(pages: pages.count, blocks: blocks.filter { !$0.pages.isEmpty }, warnings: warnings + paginatorWarnings)
    }

    private func setMetadata(_ document: Document, on surface: OpaquePointer) {
        let meta = document.metadata
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, document.displayTitle(strings: document.builtInStrings))
        if let author = meta.author { cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_AUTHOR, author) }
        if let subject = meta.subject { cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_SUBJECT, subject) }
        if !meta.keywords.isEmpty {
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_KEYWORDS, meta.keywords.joined(separator: ", "))
        }
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "Folio")
        let date = PDFRenderer.creationDate(meta)
        let stamp = ISODate.dateTime(date.timeIntervalSince1970)
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
