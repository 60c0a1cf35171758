import FolioFiles
import FolioHTML
import FolioPDF
import FolioPango
import Foundation

/// Starts loading the font configuration and the standard theme's common fonts on a thread of its
/// own, for a process about to render (`folio render`, a render worker): it overlaps reading the
/// arguments and the document.
package func startLoadingFonts() { PangoTextEngine.startLoadingFonts() }

/// What Folio renders a document as: a PDF or HTML. (A document's tables as an XLSX workbook or
/// CSV files are FolioSheets' `OutputFormat`.)
public enum RenderFormat: String, Sendable, CaseIterable {
    case pdf, html

    /// The media type of a file of this format.
    public var mediaType: String {
        switch self {
        case .pdf: return "application/pdf"
        case .html: return "text/html"
        }
    }
}

/// Options shared by every output.
public struct RenderOptions: Sendable {
    /// Folder relative image paths start from; usually the input file's folder.
    public var baseDirectory: URL?
    /// Where image files (and the theme's logo) may be read from; when nil, files relative to
    /// `baseDirectory` or absolute. A server sets `.confined` or `.embeddedOnly`.
    public var assets: AssetAccess?
    /// The theme under the document's own `theme` settings.
    public var theme: Theme
    /// HTML only: a whole page, an embeddable fragment, or a fragment in a declarative shadow root.
    public var html: HTMLRenderer.Output
    /// HTML only: the prefix of every element id; by default one derived from the document.
    public var idPrefix: String?
    /// HTML only: a Mustache page shell replacing the built-in one (see Templates/page.mustache).
    public var pageTemplate: String?
    /// PDF only: signs every PDF (PAdES baseline B-B) when set.
    public var signer: PDFSigner?
    /// PDF only: how many pages Cairo writes into one part before it is finished (see
    /// `PDFRenderer.pagesPerPart`); nil for the renderer's default. Tests set 1 to make every
    /// document a many-part one.
    package var pagesPerPart: Int?
    /// PDF only: the size of Cairo's output at which a part ends early (see
    /// `PDFRenderer.bytesPerPart`); nil for the renderer's default.
    package var bytesPerPart: Int?

    /// Options with a base folder for image paths, a theme and HTML settings.
    public init(
        baseDirectory: URL? = nil, theme: Theme = .standard, html: HTMLRenderer.Output = .page,
        idPrefix: String? = nil, pageTemplate: String? = nil
    ) {
        self.baseDirectory = baseDirectory
        self.theme = theme
        self.html = html
        self.idPrefix = idPrefix
        self.pageTemplate = pageTemplate
    }

    /// HTML fragment output, for embedding.
    public init(baseDirectory: URL? = nil, fragment: Bool) {
        self.init(baseDirectory: baseDirectory, html: fragment ? .fragment : .page)
    }
}

extension RenderOptions {
    /// The image access these options allow.
    var effectiveAssets: AssetAccess { assets ?? .files(relativeTo: baseDirectory) }
}

extension Document {
    /// The document validated once, its theme built and its images read once as `options` allow:
    /// render it in several formats with the `PreparedDocument` methods below.
    package func prepared(options: RenderOptions = RenderOptions()) throws -> PreparedDocument {
        try PreparedDocument(self, base: options.theme, assets: options.effectiveAssets)
    }

    /// The document as PDF bytes.
    public func pdf(options: RenderOptions = RenderOptions()) throws -> Data {
        try prepared(options: options).pdfWithReport(options: options).data
    }

    /// The HTML renderer for `options`, to ask for the output and its Content-Security-Policy.
    public func htmlRenderer(options: RenderOptions = RenderOptions()) throws -> HTMLRenderer {
        HTMLRenderer.forPage(page, options: options)
    }

    /// The HTML `options.html` asks for, with the Content-Security-Policy it works under.
    public func renderedHTML(options: RenderOptions = RenderOptions()) throws -> HTMLRenderer.Rendered {
        try prepared(options: options).renderedHTML(options: options)
    }

    /// The document as a self-contained HTML page, or the fragment `options.html` asks for.
    public func html(options: RenderOptions = RenderOptions()) throws -> String {
        try renderedHTML(options: options).html
    }

    /// The document as a self-contained HTML page.
    public var html: String {
        get throws { try html() }
    }

    /// The PDF and the layout report of its pagination.
    public func pdfWithReport(options: RenderOptions = RenderOptions()) throws -> PDFRenderer.Result {
        try prepared(options: options).pdfWithReport(options: options)
    }

    /// The document in `format` with its page count (nil for HTML, which has no pages).
    public func renderCountingPages(as format: RenderFormat, options: RenderOptions = RenderOptions()) throws -> (data: Data, pages: Int?) {
        try prepared(options: options).renderCountingPages(as: format, options: options)
    }

    /// The document in `format`, as bytes.
    public func render(as format: RenderFormat, options: RenderOptions = RenderOptions()) throws -> Data {
        try renderCountingPages(as: format, options: options).data
    }
}

extension Document {
    /// Writes the document to `url` as `format`, or as the file's extension says (`.html` or
    /// `.htm` for HTML, anything else PDF): to a temporary file in the same folder renamed into
    /// place, so a reader never sees a half-written file; only a regular file is replaced.
    public func write(to url: URL, format: RenderFormat? = nil, options: RenderOptions = RenderOptions()) throws {
        let chosen = format ?? (["html", "htm"].contains(url.pathExtension.lowercased()) ? .html : .pdf)
        try AtomicFile.write(try render(as: chosen, options: options), to: url)
    }

    /// The document in `format`, rendered on a thread of Dispatch's global pool so that a
    /// server's tasks and event loops keep running meanwhile (rendering is synchronous,
    /// CPU-bound work); a cancelled task is answered with `CancellationError` before rendering
    /// starts. Bound a render's time with `RenderDeadline`.
    public func rendered(as format: RenderFormat, options: RenderOptions = RenderOptions()) async throws -> Data {
        try Task.checkCancellation()
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(with: Result { try self.render(as: format, options: options) })
            }
        }
    }
}

extension PreparedDocument {
    /// Each page as a PNG picture at `dpi` pixels per inch with its text in reading order, handed
    /// to `page` one at a time; the layout report of its pagination.
    package func pagePictures(dpi: Double, page: (RasterRenderer.Page) throws -> Void) throws -> LayoutReport {
        try RasterRenderer(dpi: dpi).render(self, page: page)
    }

    /// The PDF and the layout report of its pagination, signed by `signer` when there is one.
    package func pdfWithReport(signer: PDFSigner? = nil) throws -> PDFRenderer.Result {
        var options = RenderOptions()
        options.signer = signer
        return try pdfWithReport(options: options)
    }

    /// The PDF and the layout report of its pagination, as `options` ask (signer, part sizes; the
    /// theme and images are this document's).
    package func pdfWithReport(options: RenderOptions) throws -> PDFRenderer.Result {
        var renderer = PDFRenderer(theme: theme, assets: .embeddedOnly)
        renderer.signer = options.signer
        if let pagesPerPart = options.pagesPerPart { renderer.pagesPerPart = pagesPerPart }
        if let bytesPerPart = options.bytesPerPart { renderer.bytesPerPart = bytesPerPart }
        return try renderer.renderWithReport(self)
    }

    /// The HTML `options.html` asks for, with the Content-Security-Policy it works under
    /// (the theme and images are this document's; `options` gives the HTML settings).
    package func renderedHTML(options: RenderOptions) throws -> HTMLRenderer.Rendered {
        try HTMLRenderer.forPage(document.page, options: options).renderWithStyle(self, as: options.html)
    }

    /// The PDF written to the file descriptor `fd` as it is made (a long document's file is never
    /// held in memory whole), with its layout report, size and digest, as `options` ask.
    package func writePDF(to fd: Int32, options: RenderOptions) throws -> PDFRenderer.Result {
        var renderer = PDFRenderer(theme: theme, assets: .embeddedOnly)
        renderer.signer = options.signer
        if let pagesPerPart = options.pagesPerPart { renderer.pagesPerPart = pagesPerPart }
        if let bytesPerPart = options.bytesPerPart { renderer.bytesPerPart = bytesPerPart }
        return try renderer.render(self, to: fd)
    }

    /// The document in `format` with its page count (nil for HTML, which has no pages).
    package func renderCountingPages(as format: RenderFormat, options: RenderOptions) throws -> (data: Data, pages: Int?) {
        switch format {
        case .pdf:
            let result = try pdfWithReport(options: options)
            return (result.data, result.pages)
        case .html: return (Data(try renderedHTML(options: options).html.utf8), nil)
        }
    }
}

extension HTMLRenderer {
    /// The renderer for a page setup: charts as wide as its text column, with the HTML settings
    /// of `options`.
    static func forPage(_ page: PageSetup, options: RenderOptions) -> HTMLRenderer {
        let (width, _) = page.pageSize
        let chartWidth = width - page.margins.left.points - page.margins.right.points
        return HTMLRenderer(
            measurer: ScreenTextMeasurer.forCurrentThread(), theme: options.theme, assets: options.effectiveAssets, chartWidth: chartWidth,
            idPrefix: options.idPrefix, pageTemplate: options.pageTemplate)
    }
}
