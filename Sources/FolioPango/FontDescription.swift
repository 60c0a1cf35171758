import CCairoPango
import FolioGraphics

/// A Pango font description owned by Swift: made for one `FontSpec`, freed on deinit.
final class FontDescription {
    /// The description.
    let pointer: OpaquePointer

    /// The description of `font` in `family` (the font's families as installed); nil when Pango
    /// gives none (it never does: GLib aborts when memory runs out).
    init?(_ font: FontSpec, family: String) {
        // The font loader (`PangoTextEngine.startLoadingFonts`) makes its descriptions the same way.
        guard let pointer = folio_font_description(family, font.size, font.bold ? 1 : 0, font.italic ? 1 : 0) else { return nil }
        self.pointer = pointer
    }

    deinit { pango_font_description_free(pointer) }
}
