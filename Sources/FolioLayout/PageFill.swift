/// One page as the paginator fills it: what is placed so far and how far down, the footnotes at its
/// foot, and where the next page begins (`state`, the checkpoint it started from moved on). Its
/// methods are the moves `Paginator.fillPage` makes: place an item, set its notes, split an item
/// with the notes its head cites, end the page carrying the rest.
struct PageFill {
    /// The page's number, from 1.
    let number: Int
    /// The height of the page's content area.
    let pageHeight: Double
    /// The document's footnotes, by number from 1.
    let notes: [Flowable]
    /// Where the page after this one begins, as far as this one has got.
    var state: Paginator.Checkpoint
    /// What is on the page so far.
    var page: PageContent
    /// How far down the page the placed items reach.
    var y = 0.0

    /// Page `number` beginning at `start`: the notes carried from the page before set first.
    init(number: Int, from start: Paginator.Checkpoint, pageHeight: Double, notes: [Flowable]) {
        self.number = number
        self.pageHeight = pageHeight
        self.notes = notes
        state = start
        page = PageContent(section: start.section)
        page.notes = start.carriedNotes
        state.carriedNotes = []
    }

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
    mutating func setNotes(_ added: [Flowable]) {
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
    mutating func nextPage(carrying carried: Paginator.Item? = nil) -> Paginator.Checkpoint {
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
    mutating func endPage(carrying carried: Paginator.Item? = nil) -> (page: PageContent, next: Paginator.Checkpoint?) {
        let next = nextPage(carrying: carried)
        return (page, next)
    }

    /// The last page as it ends: every note not set yet is set, and notes carried over from it
    /// start a page of their own (else there is no next page).
    mutating func endLastPage() -> (page: PageContent, next: Paginator.Checkpoint?) {
        if !notes.isEmpty, state.notesPlaced < notes.count, state.carriedNotes.isEmpty {
            setNotes(Array(notes[state.notesPlaced...]))
        }
        let last = nextPage()
        return (page, last.carriedNotes.isEmpty ? nil : last)
    }

    /// Places `item` with its top at `top`; a heading kept with what comes after it, but left on an
    /// earlier page, is a warning. What comes after it may be of its own block (a table of contents'
    /// heading and its list, a caption and its table): then the keep is kept when that follows on its page.
    mutating func place(_ item: Paginator.Item, at top: Double, warn: (Paginator.Warning) -> Void) {
        if let keep = state.pendingKeep, keep.source != item.source || !item.flowable.keepWithNext {
            if keep.page != number {
                warn(
                    Paginator.Warning(
                        kind: .keepBroken, source: keep.source, page: keep.page,
                        message: "the heading could not stay with the block after it"))
            }
            state.pendingKeep = nil
        }
        page.placements.append(Placement(flowable: item.flowable, y: top, source: item.source))
        if item.flowable.keepWithNext { state.pendingKeep = (item.source, number) }
    }

    /// A section begins: on this page when it holds nothing yet (or only the document's title, on
    /// the first page), else the page ends here and the section begins the next.
    mutating func beginSection() -> (page: PageContent, next: Paginator.Checkpoint?)? {
        state.sectionCount += 1
        // The first section shares the first page with the document title.
        let onlyTitle = number == 1 && page.placements.allSatisfy { $0.source == 0 }
        if !page.placements.isEmpty && !onlyTitle {
            var following = nextPage()
            following.section = state.sectionCount
            return (page, following)
        }
        page.section = state.sectionCount
        return nil
    }

    /// A flowable with a page of its own: it starts a page (not one carrying notes over) and ends it.
    mutating func placeOwnPage(_ item: Paginator.Item, warn: (Paginator.Warning) -> Void) -> (
        page: PageContent, next: Paginator.Checkpoint?
    ) {
        if !page.placements.isEmpty || !page.notes.isEmpty { return endPage(carrying: item) }
        place(item, at: 0, warn: warn)
        return endPage()
    }

    /// Places a flowing item (not a section, page break or page of its own) in `remaining` room
    /// `gap` below what is placed: whole with the notes it cites, split, drawn shorter, with its
    /// notes going on at the next page's foot, moved to the next page, or, alone on a page too
    /// small for it, split inside its rows, shrunk or cut (each of those a warning). Returns the
    /// page and the next checkpoint when the page ends here, nil when filling goes on.
    mutating func placeFlowing(
        _ next: Paginator.Item, gap: Double, remaining: Double, warn: (Paginator.Warning) -> Void
    ) -> (page: PageContent, next: Paginator.Checkpoint?)? {
        let flowable = next.flowable
        let cited = newNotes(of: flowable)
        if flowable.height + extraHeight(cited) <= remaining {
            place(next, at: y + gap, warn: warn)
            setNotes(cited)
            y += gap + flowable.height
        } else if let (head, tail, added) = splitWithNotes(flowable, available: remaining) {
            place(Paginator.Item(flowable: head, source: next.source), at: y + gap, warn: warn)
            setNotes(added)
            return endPage(carrying: Paginator.Item(flowable: tail, source: next.source))
        } else if y > 0, let fitted = flowable.fitted(toHeight: remaining - pageHeight * Paginator.footClearance) {
            // A chart drawn shorter, within its bound, keeps its page instead of leaving the rest
            // of it empty (as a paragraph splits: layout, not a rule bent, so no warning).
            place(Paginator.Item(flowable: fitted, source: next.source), at: y + gap, warn: warn)
            y += gap + fitted.height
        } else if let first = cited.first,
            flowable.height + (page.notes.isEmpty ? Paginator.notesRule : 2) + first.minimumHeadHeight <= remaining
        {
            // Its notes are long: they begin at this page's foot and go on at the next page's.
            place(next, at: y + gap, warn: warn)
            setNotes(cited)
            y += gap + flowable.height
        } else if y > 0 {
            return endPage(carrying: next)
        } else {
            return placeAlone(next, cited: cited, remaining: remaining, warn: warn)
        }
        return nil
    }

    /// Places an item that does not fit an empty page as it is: its notes go on at the next
    /// page's foot, or it splits, or a table row taller than a page splits inside its cells, or it
    /// is shrunk to fit, or (when nothing else can) it is cut at the page's bottom.
    private mutating func placeAlone(
        _ next: Paginator.Item, cited: [Flowable], remaining: Double, warn: (Paginator.Warning) -> Void
    ) -> (page: PageContent, next: Paginator.Checkpoint?)? {
        let flowable = next.flowable
        if !cited.isEmpty, flowable.height <= remaining {
            // Alone on a page, its notes taller than the room left: they go on at the next page's foot.
            place(next, at: 0, warn: warn)
            setNotes(cited)
            y = flowable.height
        } else if !cited.isEmpty, let (head, tail) = flowable.split(available: remaining) {
            place(Paginator.Item(flowable: head, source: next.source), at: 0, warn: warn)
            setNotes(newNotes(of: head))
            return endPage(carrying: Paginator.Item(flowable: tail, source: next.source))
        } else if let (head, tail) = flowable.forceSplit(available: pageHeight) {
            warn(
                Paginator.Warning(
                    kind: .rowSplit, source: next.source, page: number, message: "a table row taller than a page was split inside its cells"
                ))
            place(Paginator.Item(flowable: head, source: next.source), at: 0, warn: warn)
            setNotes(newNotes(of: head))
            return endPage(carrying: Paginator.Item(flowable: tail, source: next.source))
        } else if let shrunk = flowable.scaled(toFit: pageHeight) {
            let percent = (shrunk.height / flowable.height * 100).clampedInt()
            warn(
                Paginator.Warning(
                    kind: .scaledToFit, source: next.source, page: number, message: "taller than a page: shrunk to \(percent)%"))
            place(Paginator.Item(flowable: shrunk, source: next.source), at: 0, warn: warn)
            y = shrunk.height
        } else {
            warn(
                Paginator.Warning(
                    kind: .overflow, source: next.source, page: number,
                    message: "taller than a page and cannot split or shrink: cut at the page bottom"))
            place(next, at: 0, warn: warn)
            y = pageHeight
        }
        return nil
    }
}
