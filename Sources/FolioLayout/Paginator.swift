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
///
/// It fills one page at a time from where that page begins (a `Checkpoint`), so a page can be
/// filled again, the same way, from its checkpoint alone: a long document keeps its pages'
/// checkpoints, not their contents, and lays each page out again when it is drawn.
struct Paginator {
    let pageHeight: Double
    /// The share of the page a chart drawn shorter to stay on it keeps clear at the page's foot: its
    /// axis's numbers are not read as the running footer's page numbers (checkers look in the last
    /// eighth of the paper for them).
    static let footClearance = 0.07

    /// A flowable and the block it comes from.
    struct Item {
        let flowable: Flowable
        let source: Int
        /// For the first item of a block kept together (`keepTogether`): the height of all of the
        /// block's items, which move to the next page rather than split when a page has less room.
        var keptHeight: Double? = nil
    }

    struct Warning {
        let kind: LayoutReport.Warning.Kind
        let source: Int
        let page: Int
        let message: String
    }

    /// Where a page begins: the next item to place, the rest of an item split at the end of the
    /// page before, a heading waiting to be kept with what follows it, and the sections so far.
    struct Checkpoint {
        /// The next item (from the item list) to place once `carried` is placed.
        var index = 0
        /// The rest of an item the page before split, or an item it had no room for.
        var carried: Item?
        /// A keep-with-next block placed last, and its page.
        var pendingKeep: (source: Int, page: Int)?
        /// Sections met so far, less one.
        var sectionCount = -1
        /// The section the page belongs to.
        var section = -1
    }

    /// Page `number` (from 1) filled from `start`, and where the next page begins (nil when the
    /// items end on this page); `item(i)` gives item `i` (nil past the last), `warn` the rules bent.
    func fillPage(
        _ number: Int, from start: Checkpoint, item: (Int) throws -> Item?, warn: (Warning) -> Void
    ) rethrows -> (page: PageContent, next: Checkpoint?) {
        var state = start
        var page = PageContent(section: start.section)
        var y = 0.0

        /// The page ends here; the next begins in the same section (or a new one the caller sets).
        func nextPage(carrying carried: Item? = nil) -> Checkpoint {
            var next = state
            next.carried = carried
            next.section = page.section
            return next
        }
        func place(_ item: Item, at top: Double) {
            if let keep = state.pendingKeep, keep.source != item.source {
                if keep.page != number {
                    warn(
                        Warning(
                            kind: .keepBroken, source: keep.source, page: keep.page,
                            message: "the heading could not stay with the block after it"))
                }
                state.pendingKeep = nil
            }
            page.placements.append(Placement(flowable: item.flowable, y: top, source: item.source))
            if item.flowable.keepWithNext { state.pendingKeep = (item.source, number) }
        }

        while let next = try state.carried ?? item(state.index) {
            if state.carried == nil { state.index += 1 }
            state.carried = nil
            let flowable = next.flowable
            let isEmptyPage = page.placements.isEmpty
            if flowable is SectionFlowable {
                state.sectionCount += 1
                // The first section shares the first page with the document title.
                let onlyTitle = number == 1 && page.placements.allSatisfy { $0.source == 0 }
                if !isEmptyPage && !onlyTitle {
                    var following = nextPage()
                    following.section = state.sectionCount
                    return (page, following)
                }
                page.section = state.sectionCount
                continue
            }
            if flowable.isPageBreak {
                if !isEmptyPage { return (page, nextPage()) }
                continue
            }
            if flowable.pageSize != nil {
                // A page of its own: it starts a page and ends it.
                if !isEmptyPage { return (page, nextPage(carrying: next)) }
                place(next, at: 0)
                return (page, nextPage())
            }
            let gap = y > 0 ? flowable.spaceBefore : 0
            let remaining = pageHeight - y - gap
            // Keep-with-next: this block and the start of the following one go together.
            if flowable.keepWithNext, y > 0, let following = try item(state.index), !following.flowable.isPageBreak {
                let needed = flowable.height + following.flowable.spaceBefore + leastStart(of: following)
                if needed > remaining, needed <= pageHeight { return (page, nextPage(carrying: next)) }
            }
            // Keep-together: a block that would split here, but fits on a page, starts the next.
            if let kept = next.keptHeight, y > 0, kept > remaining, kept <= pageHeight {
                return (page, nextPage(carrying: next))
            }
            if flowable.height <= remaining {
                place(next, at: y + gap)
                y += gap + flowable.height
            } else if let (head, tail) = flowable.split(available: remaining) {
                place(Item(flowable: head, source: next.source), at: y + gap)
                return (page, nextPage(carrying: Item(flowable: tail, source: next.source)))
            } else if y > 0, let fitted = flowable.fitted(toHeight: remaining - pageHeight * Paginator.footClearance) {
                // A chart drawn shorter, within its bound, keeps its page instead of leaving the rest
                // of it empty (as a paragraph splits: layout, not a rule bent, so no warning).
                place(Item(flowable: fitted, source: next.source), at: y + gap)
                y += gap + fitted.height
            } else if y > 0 {
                return (page, nextPage(carrying: next))
            } else if let (head, tail) = flowable.forceSplit(available: pageHeight) {
                warn(
                    Warning(
                        kind: .rowSplit, source: next.source, page: number,
                        message: "a table row taller than a page was split inside its cells"))
                place(Item(flowable: head, source: next.source), at: 0)
                return (page, nextPage(carrying: Item(flowable: tail, source: next.source)))
            } else if let shrunk = flowable.scaled(toFit: pageHeight) {
                let percent = (shrunk.height / flowable.height * 100).clampedInt()
                warn(
                    Warning(
                        kind: .scaledToFit, source: next.source, page: number,
                        message: "taller than a page: shrunk to \(percent)%"))
                place(Item(flowable: shrunk, source: next.source), at: 0)
                y = shrunk.height
            } else {
                warn(
                    Warning(
                        kind: .overflow, source: next.source, page: number,
                        message: "taller than a page and cannot split or shrink: cut at the page bottom"))
                place(next, at: 0)
                y = pageHeight
            }
        }
        return (page, nil)
    }

    /// The least room `item` can start in at a page's foot: all of it when kept together, its
    /// first lines or rows when it splits, a chart at its least plot with the foot kept clear.
    private func leastStart(of item: Item) -> Double {
        let flowable = item.flowable
        if let kept = item.keptHeight, kept <= pageHeight { return kept }
        if flowable.minimumHeadHeight < flowable.height { return flowable.minimumHeadHeight }
        if flowable.leastStartHeight < flowable.height { return flowable.leastStartHeight + pageHeight * Paginator.footClearance }
        return flowable.height
    }

    /// Every page of `items`, filled one after another (a page left empty at the end is no page).
    func paginate(_ items: [Item]) -> (pages: [PageContent], warnings: [Warning]) {
        var pages: [PageContent] = []
        var warnings: [Warning] = []
        var start: Checkpoint? = Checkpoint()
        while let checkpoint = start {
            let (page, next) = fillPage(
                pages.count + 1, from: checkpoint, item: { $0 < items.count ? items[$0] : nil }, warn: { warnings.append($0) })
            if next == nil, page.placements.isEmpty, !pages.isEmpty { break }
            pages.append(page)
            start = next
        }
        return (pages, warnings)
    }
}
