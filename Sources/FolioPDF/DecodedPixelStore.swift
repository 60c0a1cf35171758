import CCairoPango
import Foundation
import Synchronization

/// The pixels of pictures decoded earlier in this process, so that a batch or a service that draws
/// the same logo in every document decodes it once (a 240×80 PNG is 1.1 M instructions to decode,
/// a few thousand to copy). Each render still gets a surface of its own, copied from the stored
/// pixels: no Cairo surface is shared between threads. Bounded by `byteBudget`; the oldest
/// pictures are let go first.
enum DecodedPixelStore {
    /// Pixels as Cairo lays them out in an image surface.
    struct Pixels: Sendable {
        let format: cairo_format_t
        let width: Int32
        let height: Int32
        let stride: Int32
        let bytes: [UInt8]
    }

    /// The most bytes kept, pixels and the encoded bytes they are found by, over all pictures.
    static let byteBudget = 16 << 20
    /// A picture that costs more than this (pixels and encoded bytes) is never kept: it would push
    /// out every other.
    static let largestPicture = 8 << 20

    private static let store = Mutex(ByteBudgetCache<Pixels>(budget: byteBudget))

    /// A new surface with the stored pixels of the picture `encoded`, or nil when none are stored.
    static func surface(for encoded: Data) -> CairoSurface? {
        guard let pixels = store.withLock({ $0[encoded] }) else { return nil }
        guard let surface = CairoSurface(cairo_image_surface_create(pixels.format, pixels.width, pixels.height)),
            cairo_surface_status(surface.pointer) == CAIRO_STATUS_SUCCESS,
            cairo_image_surface_get_stride(surface.pointer) == pixels.stride,
            let target = cairo_image_surface_get_data(surface.pointer)
        else { return nil }
        cairo_surface_flush(surface.pointer)
        pixels.bytes.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            target.update(from: base, count: source.count)
        }
        cairo_surface_mark_dirty(surface.pointer)
        return surface
    }

    /// Keeps the pixels of `surface`, decoded from `encoded`, for the next render that draws it.
    static func keep(_ surface: CairoSurface, decodedFrom encoded: Data) {
        cairo_surface_flush(surface.pointer)
        let height = cairo_image_surface_get_height(surface.pointer)
        let stride = cairo_image_surface_get_stride(surface.pointer)
        let count = Int(height) * Int(stride)
        guard count > 0, count + encoded.count <= largestPicture, let data = cairo_image_surface_get_data(surface.pointer) else { return }
        let pixels = Pixels(
            format: cairo_image_surface_get_format(surface.pointer), width: cairo_image_surface_get_width(surface.pointer),
            height: height, stride: stride, bytes: Array(UnsafeBufferPointer(start: data, count: count)))
        store.withLock { $0.keep(pixels, for: encoded, cost: pixels.bytes.count) }
    }

    /// How many pictures are kept now (for tests).
    static var count: Int { store.withLock { $0.count } }
}
