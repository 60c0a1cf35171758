import FolioModel

/// A flowable placed on a page, `y` from the top of the content area.
struct Placement {
    let flowable: Flowable
    let y: Double
    /// Index of the block it comes from, in the builder's list.
    let source: Int
}

/// One page: what is on it and the section it belongs to (-1 before any section).
struct PageContent {
    var placements: [Placement] = []
    var section: Int
}

/// Fills pages with flowables in one linear pass: place if it fits, else split
/// and carry the rest, else move to a fresh page, else shrink to fit; sections
/// and page breaks start new pages. Rules it had to bend become warnings.
struct Paginator {
    let pageHeight: Double

    /// A flowable and the block it comes from.
    struct Item {
        let flowable: Flowable
        let source: Int
    }

    struct Warning {
        let kind: LayoutReport.Warning.Kind
        let source: Int
        let page: Int
        let message: String
    }

    func paginate(_ items: [Item]) -> (pages: [PageContent], warnings: [Warning]) {
        var pages = [PageContent(section: -1)]
        var warnings: [Warning] = []
        var y = 0.0
        var index = 0
        var carried: Item?
        var sectionCount = -1
        var pendingKeep: (source: Int, page: Int)?

        func newPage() {
            pages.append(PageContent(section: pages[pages.count - 1].section))
            y = 0
        }
        func place(_ item: Item, at top: Double) {
            if let keep = pendingKeep, keep.source != item.source {
                if keep.page != pages.count {
                    warnings.append(
                        Warning(
                            kind: .keepBroken, source: keep.source, page: keep.page,
                            message: "the heading could not stay with the block after it"))
                }
                pendingKeep = nil
            }
            pages[pages.count - 1].placements.append(Placement(flowable: item.flowable, y: top, source: item.source))
            if item.flowable.keepWithNext { pendingKeep = (item.source, pages.count) }
        }

        while let item = carried ?? (index < items.count ? items[index] : nil) {
            if carried == nil { index += 1 }
            carried = nil
            let next = item.flowable
            let isEmptyPage = pages[pages.count - 1].placements.isEmpty
            if next is SectionFlowable {
                sectionCount += 1
                // The first section shares the first page with the document title.
                let onlyTitle = pages.count == 1 && pages[0].placements.allSatisfy { $0.source == 0 }
                if !isEmptyPage && !onlyTitle { newPage() }
                pages[pages.count - 1].section = sectionCount
                continue
            }
            if next.isPageBreak {
                if !isEmptyPage { newPage() }
                continue
            }
            let gap = y > 0 ? next.spaceBefore : 0
            let remaining = pageHeight - y - gap
            // Keep-with-next: this block and the start of the following one go together.
            if next.keepWithNext, y > 0, index < items.count, !items[index].flowable.isPageBreak {
                let following = items[index].flowable
                let needed = next.height + following.spaceBefore + min(following.minimumHeadHeight, pageHeight / 3)
                if needed > remaining {
                    newPage()
                    carried = item
                    continue
                }
            }
            if next.height <= remaining {
                place(item, at: y + gap)
                y += gap + next.height
            } else if let (head, tail) = next.split(available: remaining) {
                place(Item(flowable: head, source: item.source), at: y + gap)
                newPage()
                carried = Item(flowable: tail, source: item.source)
            } else if y > 0 {
                newPage()
                carried = item
            } else if let (head, tail) = next.forceSplit(available: pageHeight) {
                warnings.append(
                    Warning(
                        kind: .rowSplit, source: item.source, page: pages.count,
                        message: "a table row taller than a page was split inside its cells"))
                place(Item(flowable: head, source: item.source), at: 0)
                newPage()
                carried = Item(flowable: tail, source: item.source)
            } else if let shrunk = next.scaled(toFit: pageHeight) {
                let percent = (shrunk.height / next.height * 100).clampedInt()
                warnings.append(
                    Warning(
                        kind: .scaledToFit, source: item.source, page: pages.count,
                        message: "taller than a page: shrunk to \(percent)%"))
                place(Item(flowable: shrunk, source: item.source), at: 0)
                y = shrunk.height
            } else {
                warnings.append(
                    Warning(
                        kind: .overflow, source: item.source, page: pages.count,
                        message: "taller than a page and cannot split or shrink: cut at the page bottom"))
                place(item, at: 0)
                y = pageHeight
            }
        }
        if pages.count > 1, pages[pages.count - 1].placements.isEmpty { pages.removeLast() }
        return (pages, warnings)
    }
}
