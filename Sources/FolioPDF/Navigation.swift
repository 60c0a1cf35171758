import CCairoPango
import FolioModel

/// Bookmarks, link destinations and page labels of the PDF being written.
final class Navigation {
    private let surface: OpaquePointer
    /// The last bookmark id at each level, so the next level nests under it.
    private var lastAtLevel: [Int32] = []
    /// The page being drawn, from 1.
    var page = 1

    init(surface: OpaquePointer) { self.surface = surface }

    /// Adds a bookmark at `level` (0 for the title) pointing at `y` on the current page.
    func addOutline(_ title: String, level: Int, y: Double) {
        let parent = level == 0 || lastAtLevel.isEmpty ? Int32(CAIRO_PDF_OUTLINE_ROOT) : lastAtLevel[min(level, lastAtLevel.count) - 1]
        let id = cairo_pdf_surface_add_outline(
            surface, parent, title, "page=\(page) pos=[0 \(max(y - 6, 0).clampedInt(.down))]",
            cairo_pdf_outline_flags_t(rawValue: 0))
        if lastAtLevel.count > level { lastAtLevel.removeLast(lastAtLevel.count - level) }
        while lastAtLevel.count < level { lastAtLevel.append(lastAtLevel.last ?? Int32(CAIRO_PDF_OUTLINE_ROOT)) }
        lastAtLevel.append(Int32(id))
    }

    /// Names the current page in viewers' page boxes.
    func setPageLabel(_ label: String) {
        cairo_pdf_surface_set_page_label(surface, label)
    }

    /// A destination name safe in Cairo's attribute syntax.
    static func destinationName(_ anchor: String) -> String {
        "folio-"
            + String(
                anchor.unicodeScalars.map {
                    $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" ? Character($0) : "_"
                })
    }
}
