import FolioHTML
import FolioPDF
import Foundation

/// The output kinds Folio writes.
public enum OutputFormat: String, Sendable, CaseIterable {
    case pdf, html
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
    /// The theme this document renders with: `base`, then the document's `theme` settings and logo.
    public func effectiveTheme(base: Theme = .standard, baseDirectory: URL? = nil) throws -> Theme {
        try effectiveTheme(base: base, assets: .files(relativeTo: baseDirectory))
    }

    /// The theme this document renders with, its logo read as `assets` allows.
    public func effectiveTheme(base: Theme, assets: AssetAccess) throws -> Theme {
        guard let spec = theme else { return base }
        let logo = try spec.logo.map {
            try ImageLoader.load(ImageBlock(source: .file($0)), path: "theme.logo", assets: assets, field: "theme.logo")
        }
        return base.applying(spec, logo: logo)
    }

    /// The document as PDF bytes.
    public func pdf(options: RenderOptions = RenderOptions()) throws -> Data {
        try pdfRenderer(options).render(self)
    }

    /// The renderers validate the document themselves; the theme is checked first so a bad
    /// logo path is reported before any rendering work.
    private func pdfRenderer(_ options: RenderOptions) throws -> PDFRenderer {
        try theme?.validate(path: "theme")
        return PDFRenderer(
            theme: try effectiveTheme(base: options.theme, assets: options.effectiveAssets),
            assets: options.effectiveAssets)
    }

    /// The HTML renderer for `options`, to ask for the output and its Content-Security-Policy.
    public func htmlRenderer(options: RenderOptions = RenderOptions()) throws -> HTMLRenderer {
        try theme?.validate(path: "theme")
        let (width, _) = page.pageSize
        let chartWidth = width - page.margins.left.points - page.margins.right.points
        return HTMLRenderer(
            measurer: PangoTextEngine(),
            theme: try effectiveTheme(base: options.theme, assets: options.effectiveAssets),
            assets: options.effectiveAssets, chartWidth: chartWidth,
            idPrefix: options.idPrefix, pageTemplate: options.pageTemplate)
    }

    /// The HTML `options.html` asks for, with the Content-Security-Policy it works under.
    public func renderedHTML(options: RenderOptions = RenderOptions()) throws -> HTMLRenderer.Rendered {
        try htmlRenderer(options: options).renderWithStyle(self, as: options.html)
    }

    /// The document as a self-contained HTML page, or the fragment `options.html` asks for.
    public func html(options: RenderOptions = RenderOptions()) throws -> String {
        try htmlRenderer(options: options).render(self, as: options.html)
    }

    /// The document as a self-contained HTML page.
    public var html: String {
        get throws { try html() }
    }

    /// The PDF and the layout report of its pagination.
    public func pdfWithReport(options: RenderOptions = RenderOptions()) throws -> PDFRenderer.Result {
        try pdfRenderer(options).renderWithReport(self)
    }

    /// The document in `format` with its page count (nil for HTML, which has no pages).
    public func renderCountingPages(as format: OutputFormat, options: RenderOptions = RenderOptions()) throws -> (data: Data, pages: Int?) {
        switch format {
        case .pdf:
            let (data, pages) = try pdfRenderer(options).renderCountingPages(self)
            return (data, pages)
        case .html: return (Data(try html(options: options).utf8), nil)
        }
    }

    /// The document in `format`, as bytes.
    public func render(as format: OutputFormat, options: RenderOptions = RenderOptions()) throws -> Data {
        switch format {
        case .pdf: return try pdf(options: options)
        case .html: return Data(try html(options: options).utf8)
        }
    }
}
