import Foundation
import FolioHTML
import FolioPDF

/// The output kinds Folio writes.
public enum OutputFormat: String, Sendable, CaseIterable {
    case pdf, html
}

/// Options shared by every output.
public struct RenderOptions: Sendable {
    /// Folder relative image paths start from; usually the input file's folder.
    public var baseDirectory: URL?
    public var theme: Theme
    /// HTML only: one embeddable `<div>` instead of a whole page.
    public var fragment: Bool

    public init(baseDirectory: URL? = nil, theme: Theme = .standard, fragment: Bool = false) {
        self.baseDirectory = baseDirectory
        self.theme = theme
        self.fragment = fragment
    }
}

extension Document {
    /// The document as PDF bytes.
    public func pdf(options: RenderOptions = RenderOptions()) throws -> Data {
        try PDFRenderer(theme: options.theme, baseDirectory: options.baseDirectory).render(self)
    }

    /// The document as a self-contained HTML page, or a fragment when `options.fragment` is set.
    public func html(options: RenderOptions = RenderOptions()) throws -> String {
        let (width, _) = page.pageSize
        let chartWidth = width - page.margins.left.points - page.margins.right.points
        let renderer = HTMLRenderer(measurer: PangoTextEngine(), theme: options.theme,
                                    baseDirectory: options.baseDirectory, chartWidth: chartWidth)
        return options.fragment ? try renderer.fragment(self) : try renderer.page(self)
    }

    /// The document as a self-contained HTML page.
    public var html: String {
        get throws { try html() }
    }

    /// The document in `format` with its page count (nil for HTML, which has no pages).
    public func renderCountingPages(as format: OutputFormat, options: RenderOptions = RenderOptions()) throws -> (data: Data, pages: Int?) {
        switch format {
        case .pdf:
            let (data, pages) = try PDFRenderer(theme: options.theme, baseDirectory: options.baseDirectory).renderCountingPages(self)
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
