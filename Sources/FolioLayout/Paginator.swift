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
        var state = start
        var page = PageContent(section: start.section)
        page.notes = start.carriedNotes
        state.carriedNotes = []
        var y = 0.0

        /// The notes `flowable` cites that no page has set yet, in order.
        func newNotes(of flowable: Flowable) -> [Flowable] {
            guard !notes.isEmpty else { return [] }
            let numbers = Set(flowable.footnoteNumbers.filter { $0 > state.notesPlaced && $0 <= notes.count })
            return numbers.sorted().map { notes[$0 - 1] }
        }
        /// How much taller the page's notes are with `added`.
        func extraHeight(_ added: [Flowable]) -> Double {
            added.isEmpty ? 0 : Paginator.notesHeight(page.notes + added) - page.notesHeight
        }
        /// Sets `added` at the page's foot.
        func setNotes(_ added: [Flowable]) {
            guard let last = added.last as? FootnoteFlowable else { return }
            page.notes += added
            state.notesPlaced = max(state.notesPlaced, last.number)
        }
        /// `flowable`'s head that fits `available` with the notes it cites, and its tail; nil when none does.
        func splitWithNotes(_ flowable: Flowable, available: Double) -> (head: Flowable, tail: Flowable, notes: [Flowable])? {
            var room = available
            for _ in 0..<4 {
                guard room > 0, let (head, tail) = flowable.split(available: room) else { return nil }
                let added = newNotes(of: head)
                let extra = extraHeight(added)
                if head.height + extra <= available { return (head, tail, added) }
                room = available - extra
            }
            return nil
        }

        /// The page ends here; the next begins in the same section (or a new one the caller sets).
        /// Notes taller than the room the page leaves them are split, their rest carried over.
        func nextPage(carrying carried: Item? = nil) -> Checkpoint {
            var next = state
            next.carried = carried
            next.section = page.section
            let contentBottom = page.placements.last.map { $0.y + $0.flowable.height } ?? 0
            while page.notesHeight > pageHeight - contentBottom, let last = page.notes.popLast() {
                let room = pageHeight - contentBottom - page.notesHeight - (page.notes.isEmpty ? Paginator.notesRule : 2)
                if room > 0, let (head, tail) = last.split(available: room) {
                    page.notes.append(head)
                    next.carriedNotes.insert(tail, at: 0)
                    break
                }
                next.carriedNotes.insert(last, at: 0)
            }
            return next
        }
        /// The page as it ends, and where the next begins (its notes split first: `nextPage` may change them).
        func endPage(carrying carried: Item? = nil) -> (page: PageContent, next: Checkpoint?) {
            let next = nextPage(carrying: carried)
            return (page, next)
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
                    let ended = page
                    return (ended, following)
                }
                page.section = state.sectionCount
                continue
            }
            if flowable.isPageBreak {
                if !isEmptyPage { return endPage() }
                continue
            }
            if flowable.pageSize != nil {
                // A page of its own: it starts a page (not one carrying notes over) and ends it.
                if !isEmptyPage || !page.notes.isEmpty { return endPage(carrying: next) }
                place(next, at: 0)
                return endPage()
            }
            let gap = y > 0 ? flowable.spaceBefore : 0
            let remaining = pageHeight - page.notesHeight - y - gap
            let cited = newNotes(of: flowable)
            // Keep-with-next: this block and the start of the following one go together.
            if flowable.keepWithNext, y > 0, let following = try item(state.index), !following.flowable.isPageBreak {
                let needed = flowable.height + following.flowable.spaceBefore + leastStart(of: following)
                if needed > remaining, needed <= pageHeight { return endPage(carrying: next) }
            }
            // Keep-together: a block that would split here, but fits on a page, starts the next.
            if let kept = next.keptHeight, y > 0, kept > remaining, kept <= pageHeight {
                return endPage(carrying: next)
            }
            if flowable.height + extraHeight(cited) <= remaining {
                place(next, at: y + gap)
                setNotes(cited)
                y += gap + flowable.height
            } else if let (head, tail, added) = splitWithNotes(flowable, available: remaining) {
                place(Item(flowable: head, source: next.source), at: y + gap)
                setNotes(added)
                return endPage(carrying: Item(flowable: tail, source: next.source))
            } else if y > 0, let fitted = flowable.fitted(toHeight: remaining - pageHeight * Paginator.footClearance) {
                // A chart drawn shorter, within its bound, keeps its page instead of leaving the rest
                // of it empty (as a paragraph splits: layout, not a rule bent, so no warning).
                place(Item(flowable: fitted, source: next.source), at: y + gap)
                y += gap + fitted.height
            } else if let first = cited.first,
                flowable.height + (page.notes.isEmpty ? Paginator.notesRule : 2) + first.minimumHeadHeight <= remaining
            {
                // Its notes are long: they begin at this page's foot and go on at the next page's.
                place(next, at: y + gap)
                setNotes(cited)
                y += gap + flowable.height
            } else if y > 0 {
                return endPage(carrying: next)
            } else if !cited.isEmpty, flowable.height <= remaining {
                // Alone on a page, its notes taller than the room left: they go on at the next page's foot.
                place(next, at: 0)
                setNotes(cited)
                y = flowable.height
            } else if !cited.isEmpty, let (head, tail) = flowable.split(available: remaining) {
                place(Item(flowable: head, source: next.source), at: 0)
                setNotes(newNotes(of: head))
                return endPage(carrying: Item(flowable: tail, source: next.source))
            } else if let (head, tail) = flowable.forceSplit(available: pageHeight) {
                warn(
                    Warning(
                        kind: .rowSplit, source: next.source, page: number,
                        message: "a table row taller than a page was split inside its cells"))
                place(Item(flowable: head, source: next.source), at: 0)
                setNotes(newNotes(of: head))
                return endPage(carrying: Item(flowable: tail, source: next.source))
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
        // The last page sets every note not set yet, and what is carried over starts a page of its own.
        if !notes.isEmpty, state.notesPlaced < notes.count, state.carriedNotes.isEmpty {
            setNotes(Array(notes[state.notesPlaced...]))
        }
        let last = nextPage()
        let ended = page
        return (ended, last.carriedNotes.isEmpty ? nil : last)
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
