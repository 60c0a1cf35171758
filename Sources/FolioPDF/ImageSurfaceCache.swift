import CCairoPango
import CJPEG
import CRSVG
import FolioGraphics
import FolioLayout
import Foundation

/// Decodes each picture once per render into a Cairo surface; JPEGs are passed
/// through to the PDF as they are (no re-encoding). Layout asks it whether a picture decodes.
final class ImageSurfaceCache: PictureSupport {
    private var surfaces: [Data: OpaquePointer] = [:]

    deinit {
        for surface in surfaces.values { cairo_surface_destroy(surface) }
    }

    /// Whether `image` decodes (decoded now, once, and kept for drawing).
    func decodes(_ image: ImageData) -> Bool { surface(for: image) != nil }

    /// Whether librsvg is installed to draw SVG pictures.
    var drawsSVG: Bool { folio_svg_available() == 1 }

    /// A surface for `image`, or nil when its bytes cannot be decoded.
    func surface(for image: ImageData) -> OpaquePointer? {
        if let cached = surfaces[image.bytes] { return cached }
        let surface: OpaquePointer?
        switch image.format {
        case .png: surface = ImageSurfaceCache.decodePNG(image.bytes)
        case .jpeg where image.components == 4: surface = ImageSurfaceCache.decodeCMYK(image)
        case .jpeg: surface = ImageSurfaceCache.wrapJPEG(image)
        }
        if let surface { surfaces[image.bytes] = surface }
        return surface
    }

    private final class ReadCursor {
        let bytes: [UInt8]
        var offset = 0
        init(_ data: Data) { bytes = [UInt8](data) }
    }

    private static func decodePNG(_ data: Data) -> OpaquePointer? {
        let cursor = ReadCursor(data)
        let unmanaged = Unmanaged.passRetained(cursor)
        defer { unmanaged.release() }
        let surface = cairo_image_surface_create_from_png_stream(
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
        guard let surface, cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            if let surface { cairo_surface_destroy(surface) }
            return nil
        }
        return surface
    }

    /// CMYK JPEGs are decoded to RGB: passed through, Cairo 1.16 would print an Adobe file's
    /// inverted inks as a negative.
    private static func decodeCMYK(_ image: ImageData) -> OpaquePointer? {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(image.pixelWidth), Int32(image.pixelHeight)),
            cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let pixels = cairo_image_surface_get_data(surface)
        else {
            return nil
        }
        cairo_surface_flush(surface)
        let stride = cairo_image_surface_get_stride(surface)
        let decoded = image.bytes.withUnsafeBytes { raw -> Int32 in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return 0 }
            return folio_jpeg_decode_cmyk(
                base, UInt(raw.count), pixels, Int32(image.pixelWidth), Int32(image.pixelHeight),
                stride, image.invertedCMYK ? 1 : 0)
        }
        guard decoded == 1 else {
            cairo_surface_destroy(surface)
            return nil
        }
        cairo_surface_mark_dirty(surface)
        return surface
    }

    private static func wrapJPEG(_ image: ImageData) -> OpaquePointer? {
        guard
            let surface = cairo_image_surface_create(
                CAIRO_FORMAT_RGB24, Int32(image.pixelWidth),
                Int32(image.pixelHeight)),
            cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        else { return nil }
        let length = image.bytes.count
        let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: length)
        image.bytes.copyBytes(to: copy, count: length)
        let status = cairo_surface_set_mime_data(
            surface, CAIRO_MIME_TYPE_JPEG, copy, UInt(length),
            { pointer in
                pointer?.assumingMemoryBound(to: UInt8.self).deallocate()
            }, copy)
        guard status == CAIRO_STATUS_SUCCESS else {
            copy.deallocate()
            cairo_surface_destroy(surface)
            return nil
        }
        return surface
    }
}
