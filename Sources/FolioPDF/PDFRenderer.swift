import CCairoPango
import Crypto
import FolioFiles
import FolioGraphics
import FolioInput
import FolioLayout
import FolioModel
import FolioPango
import Foundation

/// Renders a document to PDF with Cairo and Pango: flowables, pagination, then
/// every page with its header and "Page N of M" footer once the counts are known;
/// bookmarks, internal links, page labels, a structure tree and a layout report.
public struct PDFRenderer {
    /// Colours, fonts and sizes.
    public var theme: Theme
    /// Where image files may be read from.
    public var assets: AssetAccess
    /// Signs every PDF when set (PAdES baseline B-B).
    public var signer: PDFSigner?
    /// How many pages Cairo writes into one part: the finishing step holds one part's structure
    /// at a time, so memory does not grow with a long document's structure tree.
    package var pagesPerPart = 64
    /// A part also ends after the page that brings Cairo's output for it to this many bytes, so a
    /// part of dense or image-heavy pages is not tens of megabytes (each part repeats its fonts'
    /// subsets, so parts are not made smaller than this needs).
    package var bytesPerPart = 1 << 20
    /// The laid-out blocks' size up to which a document keeps its pages (`DocumentLayout.keptBytes`);
    /// beyond, each page is paginated again when drawn. Tests set 0 to fill every page again.
    package var keptLayoutBytes = DocumentLayout.keptBytes

    /// A renderer with `theme` whose relative image paths start from `baseDirectory`.
    public init(theme: Theme = .standard, baseDirectory: URL? = nil) {
        self.init(theme: theme, assets: .files(relativeTo: baseDirectory))
    }

    /// A renderer with `theme` that reads image files as `assets` allows.
    public init(theme: Theme, assets: AssetAccess) {
        self.theme = theme
        self.assets = assets
    }

    /// Lets Cairo write its streams uncompressed for the finishing step to compress once (with
    /// libdeflate), instead of Cairo compressing page content with zlib and the finishing step
    /// inflating it and compressing it again: about a tenth of a tagged page's time. The finished
    /// PDF is the same either way. It sets `CAIRO_DEBUG_PDF` in the process's environment (Cairo 1.16
    /// reads it as it makes each PDF surface), so call it once at start-up, before other threads
    /// run, in a process where Cairo's other PDFs (if it makes any without Folio) may be
    /// uncompressed. `folio` does; its render workers inherit it.
    public static func compressStreamsOnce() {
        setenv("CAIRO_DEBUG_PDF", "1", 1)
    }

    /// What one render produced.
    public struct Result: Sendable {
        /// The PDF's bytes.
        public var data: Data
        /// Where every block went and what rules bent.
        public var report: LayoutReport
        /// The number of pages.
        public var pages: Int { report.pages }
        /// The SHA-256 of `data` when the finishing step could take it while writing (continued from
        /// the digest of the body taken for the file identifier, or for a signed file with the
        /// signature's own); nil for a file encrypted and not signed (qpdf writes it again).
        package var sha256: [UInt8]?
        /// The PDF's size in bytes (`data`'s, or those written to a file descriptor).
        package var byteCount = 0
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

    /// The PDF and its layout report of a document already validated and with its files read:
    /// laid out by `DocumentLayout` (with Pango), each page's frame replayed onto Cairo as it is
    /// made, `pagesPerPart` pages to a Cairo surface, each part finished for PDF/UA as soon as it
    /// is written and the parts joined into one file.
    package func renderWithReport(_ prepared: PreparedDocument) throws -> Result {
        try renderWithReport(prepared, outputFD: -1)
    }

    /// The PDF of a prepared document written to the file descriptor `fd` as it is made, so that
    /// memory never holds the whole file (a long document's is tens of megabytes); an encrypted or
    /// signed PDF (written again once whole) is made in memory and then written. The result's
    /// `data` is empty; `byteCount` says how many bytes were written.
    package func render(_ prepared: PreparedDocument, to fd: Int32) throws -> Result {
        let streams = prepared.document.protection == nil && signer == nil
        var result = try renderWithReport(prepared, outputFD: streams ? fd : -1)
        if !streams {
            do {
                try AtomicFile.writeAll(result.data, to: fd)
            } catch let error as FolioError {
                throw FolioError(path: "", "cannot write the PDF: \(error.message)")
            }
            if result.sha256 == nil { result.sha256 = Array(SHA256.hash(data: result.data)) }
            result.byteCount = result.data.count
            result.data = Data()
        }
        return result
    }

    private func renderWithReport(_ prepared: PreparedDocument, outputFD: Int32) throws -> Result {
        let document = prepared.document
        let text = PangoTextEngine.forCurrentThread(rightToLeft: document.builtInStrings.isRightToLeft)
        text.setLanguage(document.metadata.language)
        let finisher = try PDFFinisher(
            document: document, date: prepared.date, signer: signer, outputFD: outputFD, attachments: prepared.attachedFiles)
        // A long document's parts are finished on a second thread while the next one is drawn.
        let pipeline = PartPipeline(finisher: finisher)
        defer { pipeline.close() }
        // The layout (its blocks and shaped text) is let go of before the file is finished.
        let (report, outlines) = try drawPages(of: prepared, text: text, pipeline: pipeline)
        let data = try finisher.finish(outlines: outlines)
        return Result(data: data, report: report, sha256: finisher.fileDigest, byteCount: outputFD >= 0 ? finisher.written : data.count)
    }

    /// Lays out `prepared` and draws its pages, part after part, into `pipeline`: the layout report
    /// and the bookmarks.
    private func drawPages(of prepared: PreparedDocument, text: PangoTextEngine, pipeline: PartPipeline) throws -> (
        report: LayoutReport, outlines: [PDFFinisher.Outline]
    ) {
        let document = prepared.document
        let images = ImageSurfaceCache()
        // A long document's pagination lets go of what each page laid out: the heap gives it back.
        let layout = try DocumentLayout(
            prepared, shaper: text, pictures: images, keptBytes: keptLayoutBytes, compact: folio_return_free_memory)
        let navigation = Navigation(pageHeight: layout.pageSize.height)
        let partSize = max(pagesPerPart, 1)
        var first = 0
        while first < layout.pageCount {
            let pages = first..<min(first + partSize, layout.pageCount)
            // Cairo's surface (with the part's structure tree) is gone before the part is finished.
            let part = try drawPart(
                pages, of: layout, document: document, date: prepared.date, text: text, images: images, navigation: navigation)
            try RenderDeadline.check(at: "finishing the PDF")
            try pipeline.submit(part.pdf, structure: part.structure, last: part.end == layout.pageCount)
            first = part.end
        }
        try pipeline.finishAll()
        return (layout.report, navigation.outlines)
    }

    /// Draws `pages` of `layout` onto a new Cairo PDF surface, or the first of them up to the one
    /// that brings Cairo's output to `bytesPerPart`, and finishes the surface: Cairo's PDF of those
    /// pages, what the canvas recorded for the finishing step, and the page after the last drawn.
    private func drawPart(
        _ pages: Range<Int>, of layout: DocumentLayout, document: Document, date: Date, text: PangoTextEngine, images: ImageSurfaceCache,
        navigation: Navigation
    ) throws -> (pdf: Data, structure: StructureRecord, end: Int) {
        let sink = PDFSink()
        guard
            let pdfSurface = CairoSurface(
                cairo_pdf_surface_create_for_stream(
                    folio_byte_sink_write, sink.pointer, layout.pageSize.width, layout.pageSize.height), writingTo: sink)
        else {
            throw NativeLibraryError(.cairo, operation: "creating the PDF surface", status: nil, reason: "no surface")
        }
        let surface = pdfSurface.pointer
        setMetadata(document, date: date, on: surface)
        try CairoStatus.require(cairo_surface_status(pdfSurface.pointer), while: "creating the PDF surface")
        guard let context = CairoContext(surface: pdfSurface) else {
            throw NativeLibraryError(.cairo, operation: "creating a drawing context", status: nil, reason: "no context")
        }
        let cr = context.pointer
        // The context (and with it the surface and its sink) lives until the end of this scope and is
        // destroyed then, also when a render stops early.
        defer {
            navigation.surface = nil
            withExtendedLifetime(context) {}
        }
        let canvas = CairoCanvas(cr: cr, text: text, images: images)
        navigation.surface = surface
        canvas.navigation = navigation
        canvas.tagsStructure = document.metadata.tagged
        var end = pages.lowerBound
        var shownWidth = layout.pageSize.width
        navigation.pageHeight = layout.pageSize.height
        while end < pages.upperBound {
            try RenderDeadline.check()
            navigation.page = end + 1
            if let label = layout.pageLabel(ofPage: end) { navigation.setPageLabel(label) }
            let frame = try layout.frame(ofPage: end)
            // A whole page of an appended PDF keeps its size; the pages after it the document's.
            let size = frame.size ?? layout.pageSize
            if size.height != navigation.pageHeight || size.width != shownWidth {
                cairo_pdf_surface_set_size(surface, size.width, size.height)
                navigation.pageHeight = size.height
                shownWidth = size.width
            }
            frame.replay(on: canvas)
            layout.discardPage(end)
            cairo_show_page(cr)
            end += 1
            if sink.pointer.pointee.length >= bytesPerPart { break }
        }
        let status = cairo_status(cr)
        cairo_surface_finish(surface)
        try CairoStatus.require(status, while: "drawing the PDF")
        try CairoStatus.require(cairo_surface_status(surface), while: "writing the PDF")
        var structure = canvas.structure
        structure.pictures = images.storedPictures
        return (sink.takeData(), structure, end)
    }

    private func setMetadata(_ document: Document, date: Date, on surface: OpaquePointer) {
        let meta = document.metadata
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, document.displayTitle(strings: document.builtInStrings))
        if let author = meta.author { cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_AUTHOR, author) }
        if let subject = meta.subject { cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_SUBJECT, subject) }
        if !meta.keywords.isEmpty {
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_KEYWORDS, meta.keywords.joined(separator: ", "))
        }
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "Folio")
        let stamp = ISODate.dateTime(date.timeIntervalSince1970)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, stamp)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_MOD_DATE, stamp)
    }
}

/// Collects the PDF bytes Cairo writes, in C (`folio_byte_sink`): Cairo writes a tagged page in
/// thousands of small pieces, too many to append to a Swift `Data` one at a time.
final class PDFSink {
    /// The sink Cairo's write function appends to.
    let pointer: UnsafeMutablePointer<folio_byte_sink>

    init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: folio_byte_sink(data: nil, length: 0, capacity: 0))
    }

    deinit {
        folio_byte_sink_clear(pointer)
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    /// The bytes written so far, handed over without a copy (the `Data` frees them); the sink is empty after.
    func takeData() -> Data {
        guard let bytes = pointer.pointee.data else { return Data() }
        let data = Data(bytesNoCopy: bytes, count: pointer.pointee.length, deallocator: .free)
        pointer.pointee = folio_byte_sink(data: nil, length: 0, capacity: 0)
        return data
    }
}
