import FolioModel

/// The page a table of contents shows for each heading it lists, by the heading's path: filled in by
/// `DocumentLayout` once the document is paginated (the list's height never depends on them, so the
/// document is laid out once), read when the list's pages are drawn.
final class ContentsPages {
    /// The page's label as a viewer shows it (`P1-2` in a labelled section, else its number), by path.
    private(set) var shown: [String: String] = [:]

    /// Fills in each block's first page from `report`, written as `label` gives it (from page index 0).
    func resolve(_ report: LayoutReport, label: (Int) -> String) {
        for block in report.blocks {
            guard let first = block.pages.first else { continue }
            shown[block.path] = label(first - 1)
        }
    }
}
