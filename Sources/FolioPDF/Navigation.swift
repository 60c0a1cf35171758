import CCairoPango
import FolioModel

/// Bookmarks and page labels of the PDF being written: labels go to the part Cairo is writing,
/// bookmarks are kept for the finishing step, which writes them for the whole document.
final class Navigation {
    /// The Cairo surface of the part being drawn.
    var surface: OpaquePointer?
    /// The page being drawn, from 1, in the whole document.
    var page = 1
    /// The height of the page being drawn, to turn layout coordinates (from the top) into PDF ones.
    var pageHeight: Double
    /// Every bookmark so far, in order.
    private(set) var outlines: [PDFFinisher.Outline] = []

    init(pageHeight: Double) { self.pageHeight = pageHeight }

    /// Adds a bookmark at `level` (0 for the title) pointing at `y` on the current page.
    func addOutline(_ title: String, level: Int, y: Double) {
        let top = Double(max(y - 6, 0).clampedInt(.down))
        outlines.append(PDFFinisher.Outline(title: title, level: level, page: page - 1, x: 0, y: pageHeight - top))
    }

    /// Names the current page in viewers' page boxes.
    func setPageLabel(_ label: String) {
        guard let surface else { return }
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
