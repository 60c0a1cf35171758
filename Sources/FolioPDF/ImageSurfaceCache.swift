import CCairoPango
import CJPEG
import CPDFFinish
import CRSVG
import FolioGraphics
import FolioInput
import FolioLayout
import Foundation

/// Decodes each picture once per render into a Cairo surface (PNG and CMYK pixels once per
/// process, see `DecodedPixelStore`); JPEGs are passed through to the PDF as they are (no
/// re-encoding). Layout asks it whether a picture decodes.
final class ImageSurfaceCache: PictureSupport {
    /// Decoded pictures by their bytes, each surface owned (destroyed with the cache).
    private var surfaces: [Data: CairoSurface] = [:]

    /// Whether `image` decodes (decoded now, once, and kept for drawing; a picture whose image
    /// object this process keeps decoded before), or Cairo had no memory for its pixels.
    func decoding(_ image: ImageData) -> PictureDecoding {
        if (PictureObjects.qualifies(image) && PictureObjects.kept(image.bytes) != nil) || surface(for: image) != nil { return .decoded }
        return outOfMemory.contains(image.bytes) ? .outOfMemory : .corrupt
    }

    /// Pictures Cairo had no memory to decode (its status CAIRO_STATUS_NO_MEMORY), by their bytes.
    private var outOfMemory: Set<Data> = []

    /// The pictures this render draws from their image objects (`PictureObjects`), in the order
    /// first drawn: placeholder N stands for `storedPictures[N - 1]`. Held until the render ends.
    private(set) var storedPictures: [StoredPicture] = []
    /// Each such picture's placeholder by the picture's bytes; nil: drawn by Cairo in the document.
    private var placeholders: [Data: CairoSurface?] = [:]

    /// Whether pictures may be drawn as placeholders for the PDF's finishing step to replace; a
    /// picture of the page (PNG) draws every picture's pixels.
    var drawsPlaceholders = true

    /// The placeholder `image` is drawn as, or nil when Cairo draws it in the document.
    func placeholder(for image: ImageData) -> CairoSurface? {
        guard drawsPlaceholders else { return nil }
        if let known = placeholders[image.bytes] { return known }
        var made: CairoSurface?
        if PictureObjects.qualifies(image), let picture = PictureObjects.picture(for: image, decoded: { surface(for: image) }),
            let placeholder = PictureObjects.placeholder(number: storedPictures.count + 1)
        {
            storedPictures.append(picture)
            made = placeholder
        }
        placeholders[image.bytes] = made
        return made
    }

    /// Each appended page's placeholder, once per render.
    private var pagePlaceholders: [AppendedPage: CairoSurface] = [:]

    /// The placeholder an appended PDF's page is drawn as (its Form XObject written in its place by
    /// the finishing step), or nil where placeholders are not drawn.
    func placeholder(for page: AppendedPage) -> CairoSurface? {
        guard drawsPlaceholders else { return nil }
        if let known = pagePlaceholders[page] { return known }
        guard let picture = StoredPicture(folio_pdf_import_picture(page.document.pointer, page.index)),
            let placeholder = PictureObjects.placeholder(number: storedPictures.count + 1)
        else { return nil }
        storedPictures.append(picture)
        pagePlaceholders[page] = placeholder
        return placeholder
    }

    /// Whether librsvg is installed to draw SVG pictures.
    var drawsSVG: Bool { folio_svg_available() == 1 }

    /// A surface for `image`, or nil when its bytes cannot be decoded.
    func surface(for image: ImageData) -> CairoSurface? {
        if let cached = surfaces[image.bytes] { return cached }
        let surface: CairoSurface?
        var status = CAIRO_STATUS_SUCCESS
        switch image.format {
        case .png: surface = ImageSurfaceCache.decoded(image, status: &status, by: ImageSurfaceCache.decodePNG)
        case .jpeg where image.components == 4:
            surface = ImageSurfaceCache.decoded(image, status: &status, by: ImageSurfaceCache.decodeCMYK)
        case .jpeg: surface = ImageSurfaceCache.wrapJPEG(image, status: &status)
        }
        if let surface { surfaces[image.bytes] = surface }
        if status == CAIRO_STATUS_NO_MEMORY { outOfMemory.insert(image.bytes) }
        return surface
    }

    /// A surface with the picture's pixels: copied from `DecodedPixelStore` when an earlier render
    /// in this process decoded the same bytes, else decoded by `decode` (and kept there).
    private static func decoded(
        _ image: ImageData, status: inout cairo_status_t, by decode: (ImageData, inout cairo_status_t) -> CairoSurface?
    ) -> CairoSurface? {
        if let stored = DecodedPixelStore.surface(for: image.bytes) { return stored }
        guard let surface = decode(image, &status) else { return nil }
        DecodedPixelStore.keep(surface, decodedFrom: image.bytes)
        return surface
    }

    private final class ReadCursor {
        let bytes: [UInt8]
        var offset = 0
        init(_ data: Data) { bytes = [UInt8](data) }
    }

    /// The PNG's pixels; `status` says why there are none (Cairo's: out of memory, a read error).
    private static func decodePNG(_ image: ImageData, status: inout cairo_status_t) -> CairoSurface? {
        let cursor = ReadCursor(image.bytes)
        let unmanaged = Unmanaged.passRetained(cursor)
        defer { unmanaged.release() }
        let created = cairo_image_surface_create_from_png_stream(
            { closure, buffer, length in
                guard let closure, let buffer else { return CAIRO_STATUS_READ_ERROR }
                let cursor = Unmanaged<ReadCursor>.fromOpaque(closure).takeUnretainedValue()
                let count = Int(length)
                guard cursor.offset + count <= cursor.bytes.count else { return CAIRO_STATUS_READ_ERROR }
                cursor.bytes.withUnsafeBufferPointer { source in
                    guard let base = source.baseAddress else { return }
                    buffer.update(from: base + cursor.offset, count: count)
                }
                cursor.offset += count
                return CAIRO_STATUS_SUCCESS
            }, unmanaged.toOpaque())
        guard let surface = CairoSurface(created) else {
            status = CAIRO_STATUS_NO_MEMORY
            return nil
        }
        status = cairo_surface_status(surface.pointer)
        return status == CAIRO_STATUS_SUCCESS ? surface : nil
    }

    /// CMYK JPEGs are decoded to RGB: passed through, Cairo 1.16 would print an Adobe file's
    /// inverted inks as a negative.
    private static func decodeCMYK(_ image: ImageData, status: inout cairo_status_t) -> CairoSurface? {
        guard let surface = imageSurface(image, status: &status), let pixels = cairo_image_surface_get_data(surface.pointer) else {
            return nil
        }
        cairo_surface_flush(surface.pointer)
        let stride = cairo_image_surface_get_stride(surface.pointer)
        let decoded = image.bytes.withUnsafeBytes { raw -> Int32 in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return 0 }
            return folio_jpeg_decode_cmyk(
                base, UInt(raw.count), pixels, Int32(image.pixelWidth), Int32(image.pixelHeight),
                stride, image.invertedCMYK ? 1 : 0)
        }
        guard decoded == 1 else { return nil }
        cairo_surface_mark_dirty(surface.pointer)
        return surface
    }

    /// An RGB surface of the picture's pixel size, or nil (and Cairo's `status`) when Cairo cannot make one.
    private static func imageSurface(_ image: ImageData, status: inout cairo_status_t) -> CairoSurface? {
        guard
            let surface = CairoSurface(cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(image.pixelWidth), Int32(image.pixelHeight)))
        else {
            status = CAIRO_STATUS_NO_MEMORY
            return nil
        }
        status = cairo_surface_status(surface.pointer)
        return status == CAIRO_STATUS_SUCCESS ? surface : nil
    }

    private static func wrapJPEG(_ image: ImageData, status: inout cairo_status_t) -> CairoSurface? {
        guard let surface = imageSurface(image, status: &status) else { return nil }
        let length = image.bytes.count
        let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: length)
        image.bytes.copyBytes(to: copy, count: length)
        let status = cairo_surface_set_mime_data(
            surface.pointer, CAIRO_MIME_TYPE_JPEG, copy, UInt(length),
            { pointer in
                pointer?.assumingMemoryBound(to: UInt8.self).deallocate()
            }, copy)
        guard status == CAIRO_STATUS_SUCCESS else {
            copy.deallocate()
            return nil
        }
        return surface
    }
}
