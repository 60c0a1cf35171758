import CCairoPango
import CJPEG
import CRSVG
import FolioGraphics
import FolioLayout
import Foundation

/// Decodes each picture once per render into a Cairo surface (PNG and CMYK pixels once per
/// process, see `DecodedPixelStore`); JPEGs are passed through to the PDF as they are (no
/// re-encoding). Layout asks it whether a picture decodes.
final class ImageSurfaceCache: PictureSupport {
    /// Decoded pictures by their bytes, each surface owned (destroyed with the cache).
    private var surfaces: [Data: CairoSurface] = [:]

    /// Whether `image` decodes (decoded now, once, and kept for drawing; a picture whose image
    /// object this process keeps decoded before).
    func decodes(_ image: ImageData) -> Bool {
        (PictureObjects.qualifies(image) && PictureObjects.kept(image.bytes) != nil) || surface(for: image) != nil
    }

    /// The pictures this render draws from their image objects (`PictureObjects`), in the order
    /// first drawn: placeholder N stands for `storedPictures[N - 1]`. Held until the render ends.
    private(set) var storedPictures: [StoredPicture] = []
    /// Each such picture's placeholder by the picture's bytes; nil: drawn by Cairo in the document.
    private var placeholders: [Data: CairoSurface?] = [:]

    /// The placeholder `image` is drawn as, or nil when Cairo draws it in the document.
    func placeholder(for image: ImageData) -> CairoSurface? {
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

    /// Whether librsvg is installed to draw SVG pictures.
    var drawsSVG: Bool { folio_svg_available() == 1 }

    /// A surface for `image`, or nil when its bytes cannot be decoded.
    func surface(for image: ImageData) -> CairoSurface? {
        if let cached = surfaces[image.bytes] { return cached }
        let surface: CairoSurface?
        switch image.format {
        case .png: surface = ImageSurfaceCache.decoded(image, by: ImageSurfaceCache.decodePNG)
        case .jpeg where image.components == 4: surface = ImageSurfaceCache.decoded(image, by: ImageSurfaceCache.decodeCMYK)
        case .jpeg: surface = ImageSurfaceCache.wrapJPEG(image)
        }
        if let surface { surfaces[image.bytes] = surface }
        return surface
    }

    /// A surface with the picture's pixels: copied from `DecodedPixelStore` when an earlier render
    /// in this process decoded the same bytes, else decoded by `decode` (and kept there).
    private static func decoded(_ image: ImageData, by decode: (ImageData) -> CairoSurface?) -> CairoSurface? {
        if let stored = DecodedPixelStore.surface(for: image.bytes) { return stored }
        guard let surface = decode(image) else { return nil }
        DecodedPixelStore.keep(surface, decodedFrom: image.bytes)
        return surface
    }

    private final class ReadCursor {
        let bytes: [UInt8]
        var offset = 0
        init(_ data: Data) { bytes = [UInt8](data) }
    }

    private static func decodePNG(_ image: ImageData) -> CairoSurface? {
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
        guard let surface = CairoSurface(created), cairo_surface_status(surface.pointer) == CAIRO_STATUS_SUCCESS else { return nil }
        return surface
    }

    /// CMYK JPEGs are decoded to RGB: passed through, Cairo 1.16 would print an Adobe file's
    /// inverted inks as a negative.
    private static func decodeCMYK(_ image: ImageData) -> CairoSurface? {
        guard let surface = imageSurface(image), let pixels = cairo_image_surface_get_data(surface.pointer) else { return nil }
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

    /// An RGB surface of the picture's pixel size, or nil when Cairo cannot make one.
    private static func imageSurface(_ image: ImageData) -> CairoSurface? {
        guard let surface = CairoSurface(cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(image.pixelWidth), Int32(image.pixelHeight))),
            cairo_surface_status(surface.pointer) == CAIRO_STATUS_SUCCESS
        else { return nil }
        return surface
    }

    private static func wrapJPEG(_ image: ImageData) -> CairoSurface? {
        guard let surface = imageSurface(image) else { return nil }
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
