import CCairoPango
import FolioGraphics
import FolioInput
import FolioLayout
import FolioModel
import FolioPango
import Foundation

/// A document's pages as PNG pictures: the same page frames the PDF draws, drawn onto a Cairo
/// image surface at a chosen resolution on white, every picture's pixels included. The same
/// document gives the same bytes (Cairo's PNG holds no date). Each page comes with the text a
/// reader meets on it (`PageFrame.readingText`), for a text alternative beside the picture.
package struct RasterRenderer {
    /// The resolutions a page may be drawn at, in pixels per inch.
    package static let resolutions = 18.0...600.0
    /// The most pixels a page's picture may hold (an A0 page at 300 dpi has about 140 million).
    package static let mostPixels = 150_000_000

    /// Pixels per inch.
    package let dpi: Double

    /// A renderer at `dpi` pixels per inch (`resolutions`).
    package init(dpi: Double) throws {
        guard RasterRenderer.resolutions.contains(dpi) else {
            throw FolioError(path: "--dpi", "expected a resolution from 18 to 600 pixels per inch, found \(String(format: "%g", dpi))")
        }
        self.dpi = dpi
    }

    /// One page's picture and its text.
    package struct Page {
        /// The page's number, from 1.
        package let number: Int
        /// How many pages the document has.
        package let count: Int
        /// The PNG file's bytes.
        package let png: Data
        /// The page's text in reading order, figures by their text alternatives, one block a line.
        package let text: String
    }

    /// Lays out `prepared` and hands each page's picture to `page`, one at a time (a long document's
    /// pictures are never all held); the layout report at the end.
    package func render(_ prepared: PreparedDocument, page: (Page) throws -> Void) throws -> LayoutReport {
        let document = prepared.document
        let text = PangoTextEngine.forCurrentThread(rightToLeft: document.builtInStrings.isRightToLeft)
        text.setLanguage(document.metadata.language)
        let images = ImageSurfaceCache()
        images.drawsPlaceholders = false
        let layout = try DocumentLayout(
            prepared, shaper: text, pictures: images, keptBytes: DocumentLayout.keptBytes, compact: folio_return_free_memory)
        let scale = dpi / 72
        // Whole pixels covering the page (as poppler draws PDF pages: A4 at 72 dpi is 596 × 842).
        let width = (layout.pageSize.width * scale).rounded(.up).clampedInt()
        let height = (layout.pageSize.height * scale).rounded(.up).clampedInt()
        guard width > 0, height > 0, width.multipliedReportingOverflow(by: height).partialValue <= RasterRenderer.mostPixels,
            let pixelWidth = Int32(exactly: width), let pixelHeight = Int32(exactly: height)
        else {
            throw FolioError(
                path: "--dpi", "a page at \(Int(dpi)) dpi would be \(width) × \(height) pixels, more than \(RasterRenderer.mostPixels)")
        }
        for index in 0..<layout.pageCount {
            try RenderDeadline.check(at: "drawing page \(index + 1) as a picture")
            let frame = try layout.frame(ofPage: index)
            layout.discardPage(index)
            guard let surface = CairoSurface(cairo_image_surface_create(CAIRO_FORMAT_RGB24, pixelWidth, pixelHeight)) else {
                throw NativeLibraryError(.cairo, operation: "creating a page's picture", status: nil, reason: "no surface")
            }
            try CairoStatus.require(cairo_surface_status(surface.pointer), while: "creating a page's picture")
            guard let context = CairoContext(surface: surface) else {
                throw NativeLibraryError(.cairo, operation: "creating a drawing context", status: nil, reason: "no context")
            }
            let cr = context.pointer
            cairo_set_source_rgb(cr, 1, 1, 1)
            cairo_paint(cr)
            cairo_scale(cr, scale, scale)
            let canvas = CairoCanvas(cr: cr, text: text, images: images)
            canvas.tagsStructure = false
            frame.replay(on: canvas)
            try CairoStatus.require(cairo_status(cr), while: "drawing page \(index + 1) as a picture")
            cairo_surface_flush(surface.pointer)
            let sink = PDFSink()
            guard folio_write_png_quickly(surface.pointer, sink.pointer) == 1 else {
                throw NativeLibraryError(.cairo, operation: "writing page \(index + 1) as PNG", status: nil, reason: "libpng failed")
            }
            withExtendedLifetime(context) {}
            try page(
                Page(
                    number: index + 1, count: layout.pageCount, png: sink.takeData(),
                    text: frame.readingText.joined(separator: "\n") + "\n"))
        }
        return layout.report
    }
}
