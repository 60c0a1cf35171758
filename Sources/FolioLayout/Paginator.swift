import FolioModel

/// A flowable placed on a page, `y` from the top of the content area.
struct Placement {
    let flowable: Flowable
    let y: Double
    /// Index of the block it comes from, in the builder's list.
    let source: Int
}

/// One page: what is on it, the footnotes at its foot, and the section it belongs to (-1 before any section).
struct PageContent {
    var placements: [Placement] = []
    var section: Int
    /// The footnotes (or their parts) set at the page's foot, in order.
    var notes: [Flowable] = []

    /// The height the notes take at the foot: the rule above them and each note.
    var notesHeight: Double { Paginator.notesHeight(notes) }
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
    /// The document's footnotes, by number from 1 (`notes[n - 1]`); none for most documents.
    var notes: [Flowable] = []

    /// The room above a page's notes for the short rule that sets them off.
    static let notesRule = 9.0

    /// The height `notes` take at a page's foot (0 for none).
    static func notesHeight(_ notes: [Flowable]) -> Double {
        guard !notes.isEmpty else { return 0 }
        return notesRule + notes.reduce(0) { $0 + $1.height } + Double(notes.count - 1) * 2
    }
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
        /// The highest footnote number set on a page so far (notes are numbered as first cited, so
        /// the notes a page sets are the ones above it that it cites).
        var notesPlaced = 0
        /// The rest of notes too long for the page before, set first at this page's foot.
        var carriedNotes: [Flowable] = []
    }

    /// Page `number` (from 1) filled from `start`, and where the next page begins (nil when the
    /// items end on this page); `item(i)` gives item `i` (nil past the last), `warn` the rules bent.
    func fillPage(
        _ number: Int, from start: Checkpoint, item: (Int) throws -> Item?, warn: (Warning) -> Void
    ) rethrows -> (page: PageContent, next: Checkpoint?) {
        var fill = PageFill(number: number, from: start, pageHeight: pageHeight, notes: notes)
        while let next = try fill.state.carried ?? item(fill.state.index) {
            if fill.state.carried == nil { fill.state.index += 1 }
            fill.state.carried = nil
            let flowable = next.flowable
            if flowable is SectionFlowable {
                if let ended = fill.beginSection() { return ended }
                continue
            }
            if flowable.isPageBreak {
                if !fill.page.placements.isEmpty { return fill.endPage() }
                continue
            }
            if flowable.pageSize != nil { return fill.placeOwnPage(next, warn: warn) }
            let gap = fill.y > 0 ? flowable.spaceBefore : 0
            let remaining = pageHeight - fill.page.notesHeight - fill.y - gap
            // Keep-with-next: this block and the start of the following one go together.
            if flowable.keepWithNext, fill.y > 0, let following = try item(fill.state.index), !following.flowable.isPageBreak {
                let needed = flowable.height + following.flowable.spaceBefore + leastStart(of: following)
                if needed > remaining, needed <= pageHeight { return fill.endPage(carrying: next) }
            }
            // Keep-together: a block that would split here, but fits on a page, starts the next.
            if let kept = next.keptHeight, fill.y > 0, kept > remaining, kept <= pageHeight {
                return fill.endPage(carrying: next)
            }
            if let ended = fill.placeFlowing(next, gap: gap, remaining: remaining, warn: warn) { return ended }
        }
        return fill.endLastPage()
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
            if next == nil, page.placements.isEmpty, page.notes.isEmpty, !pages.isEmpty { break }
            pages.append(page)
            start = next
        }
        return (pages, warnings)
    }
}
