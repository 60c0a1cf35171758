import CCairoPango
import FolioGraphics

/// A Pango font description owned by Swift: made for one `FontSpec`, freed on deinit.
final class FontDescription {
    /// The description.
    let pointer: OpaquePointer

    /// The description of `font` in `family` (the font's families as installed); nil when Pango
    /// gives none (it never does: GLib aborts when memory runs out).
    init?(_ font: FontSpec, family: String) {
        guard let pointer = pango_font_description_from_string(family) else { return nil }
        self.pointer = pointer
        // Made from the family's name, then the fields are set one by one.
        pango_font_description_set_family(pointer, family)
        pango_font_description_set_absolute_size(pointer, font.size * Double(PANGO_SCALE))
        pango_font_description_set_weight(pointer, font.bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
        pango_font_description_set_style(pointer, font.italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL)
    }

    deinit { pango_font_description_free(pointer) }
}
