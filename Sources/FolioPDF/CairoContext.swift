import CCairoPango

/// A Cairo surface owned by Swift: destroyed when the last reference goes, also when a render
/// stops early with an error (a render stopped at its deadline used to leak its whole PDF surface).
final class CairoSurface {
    /// The surface.
    let pointer: OpaquePointer
    /// What the surface writes to (a stream's sink), kept alive until the surface is destroyed:
    /// destroying an unfinished surface still writes its last bytes.
    private let target: AnyObject?

    /// Takes ownership of `pointer`, keeping `target` alive as long as the surface; nil when
    /// Cairo returned no surface.
    init?(_ pointer: OpaquePointer?, writingTo target: AnyObject? = nil) {
        guard let pointer else { return nil }
        self.pointer = pointer
        self.target = target
    }

    deinit { cairo_surface_destroy(pointer) }
}

/// A Cairo drawing context owned by Swift, keeping its surface alive as long as it lives.
final class CairoContext {
    /// The context.
    let pointer: OpaquePointer
    /// The surface it draws on.
    let surface: CairoSurface

    /// A context drawing on `surface`; nil when Cairo cannot create one.
    init?(surface: CairoSurface) {
        guard let pointer = cairo_create(surface.pointer) else { return nil }
        self.pointer = pointer
        self.surface = surface
    }

    deinit { cairo_destroy(pointer) }
}
