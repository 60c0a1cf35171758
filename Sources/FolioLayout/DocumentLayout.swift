import FolioGraphics
import FolioInput
import FolioModel

/// A document laid out into pages: its blocks made into flowables at the text column's width,
/// paginated in one linear pass, and each page's frame — header and footer (composed once the
/// page count is known) and the flowables placed on it — recorded when asked. The PDF replays
/// the frames; the layout report says where every block went and what rules bent.
///
/// Memory does not grow with the document's length beyond a constant: pages are paginated one
/// at a time, each page's starting point kept (`Paginator.Checkpoint`). A document whose blocks
/// hold more than `keptBytes` keeps none of its pages' contents: each page is paginated again
/// from its checkpoint when it is drawn, its blocks laid out again as needed (`ItemSource`), and
/// shaped text is bounded by the builder's `TextResidency`. A shorter document keeps its pages
/// and is laid out once.
package final class DocumentLayout {
    /// The document laid out.
    package let document: Document
    /// Page width and height in points.
    package let pageSize: Size
    /// The text column on every page.
    package let content: Rect
    /// Each page's contents, while the document keeps them (nil once it no longer does).
    private var keptPages: [PageContent]?
    /// Where each page begins, for filling it again (nil entries once drawn).
    private var checkpoints: [Paginator.Checkpoint?]
    /// The section of each page (-1 before any section).
    private let pageSections: [Int]
    private let numbering: [PageNumbering]
    private let sections: [Section]
    private let decorations: PageDecorations
    private let builder: FlowableBuilder
    private let items: ItemSource
    private let paginator: Paginator

    /// About how many bytes of laid-out blocks (`Flowable.retainedBytes`) a document keeps its
    /// pages for: a weekly summary's are a few hundred kilobytes, a 100,000-row table's one
    /// megabyte; beyond (some 700 pages of paragraphs), pages are filled again.
    package static let keptBytes = 8 << 20
    /// How often (in pages) a long document's pagination calls `compact`.
    static let compactingPages = 256

    /// Lays out `prepared` with `shaper`; `pictures` says what of its images and SVG pictures the
    /// backend can draw. Throws the first block that cannot be laid out, naming it, or
    /// `RenderDeadline.Expired`.
    /// `compact` is called now and then while a long document is paginated (every `compactingPages`
    /// pages once it keeps no pages): a chance to give the heap's freed memory back to the system.
    package init(
        _ prepared: PreparedDocument, shaper: TextShaper, pictures: PictureSupport, keptBytes: Int = DocumentLayout.keptBytes,
        compact: () -> Void = {}
    ) throws {
        let document = prepared.document
        self.document = document
        let (pageWidth, pageHeight) = document.page.pageSize
        pageSize = Size(pageWidth, pageHeight)
        let margins = document.page.margins
        content = Rect(
            x: margins.left.points, y: margins.top.points,
            width: pageWidth - margins.left.points - margins.right.points,
            height: pageHeight - margins.top.points - margins.bottom.points)
        let strings = document.builtInStrings
        builder = FlowableBuilder(
            text: shaper, theme: prepared.theme, strings: strings, width: content.width, prepared: prepared, pictures: pictures)
        items = ItemSource(document: document, builder: builder)
        var paginator = Paginator(pageHeight: content.height)
        if !document.footnotes.isEmpty { paginator.notes = try builder.footnoteFlowables() }
        self.paginator = paginator

        // One pass: each page filled from where the last ended, what went where noted for the report.
        var kept: [PageContent]? = []
        var checkpoints: [Paginator.Checkpoint?] = []
        var sections: [Int] = []
        var report = LayoutReportCollector()
        var start: Paginator.Checkpoint? = Paginator.Checkpoint()
        while let checkpoint = start {
            let number = checkpoints.count + 1
            let (page, next) = try paginator.fillPage(number, from: checkpoint, item: items.item(at:)) { report.note($0) }
            if next == nil, page.placements.isEmpty, page.notes.isEmpty, number > 1 { break }
            checkpoints.append(checkpoint)
            sections.append(page.section)
            report.note(page, number: number)
            if kept != nil, items.laidOutBytes > keptBytes {
                // A long document: from now on no page's contents are kept, only where each begins.
                kept = nil
                items.keepsEverything = false
            }
            kept?.append(page)
            if let next { items.letGo(before: next.index) }
            if kept == nil, number % DocumentLayout.compactingPages == 0 { compact() }
            start = next
        }
        keptPages = kept
        self.checkpoints = checkpoints
        pageSections = sections
        self.sections = document.elements.compactMap { block -> Section? in
            if case .section(let section) = block { return section }
            return nil
        }
        let numbering = DocumentLayout.numbering(ofSections: sections)
        self.numbering = numbering
        let decorations = try PageDecorations(
            document: document, date: prepared.date, strings: strings, theme: prepared.theme, text: shaper, content: content,
            pageSize: pageSize)
        self.decorations = decorations
        let decorationWarnings = numbering.last.map { decorations.warnings(lastPage: $0) } ?? []
        self.report = report.report(sources: builder.sources, pages: checkpoints.count, warnings: decorationWarnings + builder.warnings)
        if document.hasContents {
            // Each heading's page as a viewer's page box shows it: its label in a labelled section, else its number.
            builder.contentsPages.resolve(self.report) { pageLabel(ofPage: $0) ?? String($0 + 1) }
        }
    }

    /// Estimated bytes of shaped text the document holds now (at most about its residency's budget).
    package var shapedTextKept: Int { builder.residency.kept }
    /// What bounds the document's shaped text (for tests: it goes with the layout).
    var textResidency: TextResidency { builder.residency }
    /// How many blocks' flowables the document holds now, apart from those its kept pages hold.
    package var blocksKept: Int { items.blocksKept }

    /// The number of pages.
    package var pageCount: Int { pageSections.count }

    /// The label of page `index` (from 0) in viewers' page boxes, `LABEL-1`, for a labelled section's pages.
    package func pageLabel(ofPage index: Int) -> String? {
        let section = pageSections[index]
        guard section >= 0, let label = sections[section].label else { return nil }
        return "\(label)-\(numbering[index].page)"
    }

    /// Everything page `index` (from 0) shows: its header and footer, then its blocks in order.
    /// Stops when the render's deadline has passed.
    package func frame(ofPage index: Int) throws -> PageFrame {
        let recorder = FrameRecorder()
        let page = try content(ofPage: index)
        let placements = page.placements
        if placements.count == 1, page.notes.isEmpty, let whole = placements[0].flowable.pageSize {
            // A whole page of an appended PDF: its own size, no running header or footer.
            // White paper under it, outside any element (an artifact): Cairo 1.16 fails a page whose only
            // drawing is a picture painted inside a structure element (CAIRO_STATUS_TAG_ERROR at show_page).
            recorder.rect(Rect(x: 0, y: 0, width: whole.width, height: whole.height), color: .white)
            placements[0].flowable.draw(on: recorder, at: Point(0, 0))
            var frame = recorder.frame
            frame.size = whole
            return frame
        }
        decorations.draw(on: recorder, numbering: numbering[index])
        for placement in placements {
            try RenderDeadline.check(at: "drawing \(builder.sources[placement.source].path) on page \(index + 1)")
            placement.flowable.draw(on: recorder, at: Point(content.x, content.y + placement.y))
        }
        drawNotes(page.notes, height: page.notesHeight, on: recorder)
        guard !document.footnotes.isEmpty else { return recorder.frame }
        // A note's way back lands on its first citation: on the page that sets the note, the first there.
        let set = Set(page.notes.compactMap { ($0 as? FootnoteFlowable).flatMap { $0.continues ? nil : $0.number } })
        var frame = recorder.frame
        frame.removeDestinations { name in
            guard name.hasPrefix("footnote-ref-"), let number = Int(name.dropFirst("footnote-ref-".count)) else { return false }
            return !set.contains(number)
        }
        return frame
    }

    /// The page's footnotes at the foot of its text column, under a short rule (decoration).
    private func drawNotes(_ notes: [Flowable], height: Double, on canvas: PageCanvas) {
        guard !notes.isEmpty else { return }
        var y = content.maxY - height
        let ruleX = builder.strings.isRightToLeft ? content.maxX - content.width / 4 : content.x
        canvas.tagged(nil) {
            canvas.line(
                from: Point(ruleX, y + 3), to: Point(ruleX + content.width / 4, y + 3),
                style: StrokeStyle(color: builder.theme.rule, width: 0.5))
        }
        y += Paginator.notesRule
        for note in notes {
            note.draw(on: canvas, at: Point(content.x, y))
            y += note.height + 2
        }
    }

    /// What page `index` holds: as kept, or filled again from its checkpoint (the same way: the same
    /// blocks laid out the same way give the same page).
    private func content(ofPage index: Int) throws -> PageContent {
        if let keptPages { return keptPages[index] }
        guard let checkpoint = checkpoints[index] else { return PageContent(section: -1) }
        items.letGo(before: checkpoint.index)
        return try paginator.fillPage(index + 1, from: checkpoint, item: items.item(at:), warn: { _ in }).page
    }

    /// Where every block went (its pages, a table's rows on each) and what rules bent.
    package let report: LayoutReport

    /// Page `index` has been drawn and will not be asked for again: what is placed on it (and the
    /// chart drawings, images and text layouts that holds) is let go, so that a long document
    /// holds the pages still to draw, fewer as drawing goes on.
    package func discardPage(_ index: Int) {
        guard checkpoints.indices.contains(index) else { return }
        keptPages?[index] = PageContent(section: -1)
        checkpoints[index] = nil
    }

    /// Section-relative and document page numbers of every page, from each page's section.
    static func numbering(ofSections sections: [Int]) -> [PageNumbering] {
        var counts: [Int: Int] = [:]
        for section in sections { counts[section, default: 0] += 1 }
        var seen: [Int: Int] = [:]
        return sections.enumerated().map { index, section in
            seen[section, default: 0] += 1
            return PageNumbering(
                page: seen[section] ?? 1, pages: counts[section] ?? 1,
                documentPage: index + 1, documentPages: sections.count)
        }
    }
}
