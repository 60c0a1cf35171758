import CCairoPango
import CPDFFinish
import FolioGraphics
import Foundation
import Synchronization

/// A picture's image object (and soft mask) as Cairo writes it (`folio_pdf_picture`), made once and
/// written by the finishing step into any number of documents. Immutable, so shared between threads.
final class StoredPicture: @unchecked Sendable {
    /// The picture, owned (freed with this object).
    let pointer: OpaquePointer
    /// The bytes it holds.
    let size: Int

    /// Takes ownership of `pointer`; nil when there is none.
    init?(_ pointer: OpaquePointer?) {
        guard let pointer else { return nil }
        self.pointer = pointer
        size = folio_pdf_picture_size(pointer)
    }

    deinit { folio_pdf_picture_free(pointer) }
}

/// Pictures whose image objects are made once per process: a document draws such a picture as a
/// placeholder, a 1×1 JPEG naming it, which Cairo embeds as it is and the finishing step replaces
/// with the picture's image object (`folio_pdf_part`'s pictures). Cairo analyses, converts and
/// compresses a batch's logo once then, not in each document (2.3 M instructions of a weekly
/// summary's 80 M). The image object is made by Cairo itself, drawing the picture alone into a
/// one-page PDF, so the page looks as when Cairo draws the picture in the document. Every picture
/// that qualifies (`qualifies`) goes this way, also the first time: whether a picture was drawn
/// before in the process never changes a document's bytes.
enum PictureObjects {
    /// The most bytes of image objects kept for later renders; the oldest are let go first (a
    /// render holds on to the pictures it draws until it is finished).
    static let byteBudget = 16 << 20
    /// Pictures whose pixels take more than this are drawn by Cairo in the document, as they are
    /// too large to hold a second copy of while the document is written.
    static let largestPixels = 8 << 20

    /// The text a placeholder's JPEG comment starts with: random for each process, so that no JPEG
    /// of a document can pass for a placeholder.
    static let marker: String = {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef")
        return "FolioPicture:" + String((0..<32).map { _ in digits[Int(generator.next() & 15)] }) + ":"
    }()

    private static let cache = Mutex(ByteBudgetCache<StoredPicture>(budget: byteBudget))

    /// Whether qualifying pictures are drawn from their image objects (tests compare both ways).
    package static let drawsFromStore = Atomic<Bool>(true)

    /// Whether `image` is drawn from its stored image object (a PNG, or a CMYK JPEG decoded to RGB,
    /// whose pixels are not too many; other JPEGs Cairo embeds as they are).
    static func qualifies(_ image: ImageData) -> Bool {
        guard drawsFromStore.load(ordering: .relaxed), image.format == .png || (image.format == .jpeg && image.components == 4) else {
            return false
        }
        let (pixels, overflow) = image.pixelWidth.multipliedReportingOverflow(by: image.pixelHeight)
        return !overflow && pixels > 0 && pixels <= largestPixels / 4
    }

    /// The image object of `image`, made now from the surface `decoded` gives when this process
    /// has not kept it; nil when it cannot be made.
    static func picture(for image: ImageData, decoded: () -> CairoSurface?) -> StoredPicture? {
        if let kept = kept(image.bytes) { return kept }
        guard let surface = decoded(), let picture = make(from: surface, width: image.pixelWidth, height: image.pixelHeight) else {
            return nil
        }
        cache.withLock { $0.keep(picture, for: image.bytes, cost: picture.size) }
        return picture
    }

    /// The image object kept for the picture of `bytes`, if any.
    static func kept(_ bytes: Data) -> StoredPicture? { cache.withLock { $0[bytes] } }

    /// How many pictures are kept now (for tests).
    static var count: Int { cache.withLock { $0.count } }

    /// The image object Cairo writes for `surface` drawn as `CairoCanvas` draws pictures, alone on a
    /// page of its size in pixels.
    private static func make(from surface: CairoSurface, width: Int, height: Int) -> StoredPicture? {
        let sink = PDFSink()
        guard width > 0, height > 0,
            let pdf = CairoSurface(
                cairo_pdf_surface_create_for_stream(folio_byte_sink_write, sink.pointer, Double(width), Double(height)), writingTo: sink),
            let context = CairoContext(surface: pdf)
        else { return nil }
        cairo_set_source_surface(context.pointer, surface.pointer, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(context.pointer), CAIRO_FILTER_GOOD)
        cairo_paint(context.pointer)
        cairo_show_page(context.pointer)
        cairo_surface_finish(pdf.pointer)
        guard cairo_status(context.pointer) == CAIRO_STATUS_SUCCESS, cairo_surface_status(pdf.pointer) == CAIRO_STATUS_SUCCESS else {
            return nil
        }
        let bytes = withExtendedLifetime(context) { sink.takeData() }
        return bytes.withUnsafeBytes { raw in
            StoredPicture(folio_pdf_picture_create(raw.bindMemory(to: UInt8.self).baseAddress, raw.count))
        }
    }

    /// A 1×1 RGB surface whose JPEG (a header Cairo can read: SOF0, one pixel, three components)
    /// starts with a comment naming picture `number` of the document.
    static func placeholder(number: Int) -> CairoSurface? {
        let comment = Array((marker + String(number)).utf8)
        let commentLength = comment.count + 2
        var jpeg: [UInt8] = [
            0xFF, 0xD8, 0xFF, 0xFE, UInt8(truncatingIfNeeded: commentLength >> 8), UInt8(truncatingIfNeeded: commentLength),
        ]
        jpeg += comment
        jpeg += [0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x01, 0x00, 0x01, 0x03, 0x01, 0x11, 0x00, 0x02, 0x11, 0x00, 0x03, 0x11, 0x00]
        jpeg += [0xFF, 0xD9]
        guard let surface = CairoSurface(cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1)),
            cairo_surface_status(surface.pointer) == CAIRO_STATUS_SUCCESS
        else { return nil }
        let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: jpeg.count)
        copy.initialize(from: jpeg, count: jpeg.count)
        let status = cairo_surface_set_mime_data(
            surface.pointer, CAIRO_MIME_TYPE_JPEG, copy, UInt(jpeg.count),
            { pointer in pointer?.assumingMemoryBound(to: UInt8.self).deallocate() }, copy)
        guard status == CAIRO_STATUS_SUCCESS else {
            copy.deallocate()
            return nil
        }
        return surface
    }
}
