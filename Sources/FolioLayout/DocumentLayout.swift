import FolioGraphics
import FolioInput
import FolioModel

/// A document laid out into pages: its blocks made into flowables at the text column's width,
/// paginated in one linear pass, and each page's frame — header and footer (composed once the
/// page count is known) and the flowables placed on it — recorded when asked, so a long
/// document holds one page's drawing at a time. The PDF replays the frames; the layout report
/// says where every block went and what rules bent.
package final class DocumentLayout {
    /// The document laid out.
    package let document: Document
    /// Page width and height in points.
    package let pageSize: Size
    /// The text column on every page.
    package let content: Rect
    private var pages: [PageContent]
    private let numbering: [PageNumbering]
    private let sections: [Section]
    private let decorations: PageDecorations
    private let builder: FlowableBuilder
    private let decorationWarnings: [LayoutReport.Warning]
    private let pageWarnings: [Paginator.Warning]

    /// Lays out `prepared` with `shaper`; `pictures` says what of its images and SVG pictures the
    /// backend can draw. Throws the first block that cannot be laid out, naming it, or
    /// `RenderDeadline.Expired`.
    package init(_ prepared: PreparedDocument, shaper: TextShaper, pictures: PictureSupport) throws {
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
        let items = try builder.items(for: document)
        (pages, pageWarnings) = Paginator(pageHeight: content.height).paginate(items)
        sections = document.elements.compactMap { block -> Section? in
            if case .section(let section) = block { return section }
            return nil
        }
        let numbering = DocumentLayout.numbering(of: pages)
        self.numbering = numbering
        let decorations = try PageDecorations(
            document: document, date: prepared.date, strings: strings, theme: prepared.theme, text: shaper, content: content,
            pageSize: pageSize)
        self.decorations = decorations
        decorationWarnings = numbering.last.map { decorations.warnings(lastPage: $0) } ?? []
        report = DocumentLayout.report(
            pages: pages, sources: builder.sources, warnings: decorationWarnings + builder.warnings, pageWarnings: pageWarnings)
    }

    /// The number of pages.
    package var pageCount: Int { pages.count }

    /// The label of page `index` (from 0) in viewers' page boxes, `LABEL-1`, for a labelled section's pages.
    package func pageLabel(ofPage index: Int) -> String? {
        let page = pages[index]
        guard page.section >= 0, let label = sections[page.section].label else { return nil }
        return "\(label)-\(numbering[index].page)"
    }

    /// Everything page `index` (from 0) shows: its header and footer, then its blocks in order.
    /// Stops when the render's deadline has passed.
    package func frame(ofPage index: Int) throws -> PageFrame {
        let recorder = FrameRecorder()
        decorations.draw(on: recorder, numbering: numbering[index])
        for placement in pages[index].placements {
            try RenderDeadline.check(at: "drawing \(builder.sources[placement.source].path) on page \(index + 1)")
            placement.flowable.draw(on: recorder, at: Point(content.x, content.y + placement.y))
        }
        return recorder.frame
    }

    /// Where every block went (its pages, a table's rows on each) and what rules bent.
    package let report: LayoutReport

    /// Page `index` has been drawn and will not be asked for again: what is placed on it (and the
    /// chart drawings, images and text layouts that holds) is let go, so that a long document
    /// holds the pages still to draw, fewer as drawing goes on.
    package func discardPage(_ index: Int) {
        guard pages.indices.contains(index) else { return }
        pages[index].placements = []
    }

    private static func report(
        pages: [PageContent], sources: [FlowableBuilder.Source], warnings: [LayoutReport.Warning], pageWarnings: [Paginator.Warning]
    ) -> LayoutReport {
        var blocks = sources.map { LayoutReport.Block(path: $0.path, type: $0.type, pages: []) }
        for (index, page) in pages.enumerated() {
            for placement in page.placements {
                if blocks[placement.source].pages.last != index + 1 { blocks[placement.source].pages.append(index + 1) }
                if let table = placement.flowable as? TableFlowable, !table.range.isEmpty {
                    if blocks[placement.source].rows == nil { blocks[placement.source].rows = [] }
                    blocks[placement.source].rows?.append([table.range.lowerBound, table.range.upperBound - 1])
                }
            }
        }
        let paginatorWarnings = pageWarnings.map {
            LayoutReport.Warning(kind: $0.kind, path: sources[$0.source].path, page: $0.page, message: $0.message)
        }
        return LayoutReport(pages: pages.count, blocks: blocks.filter { !$0.pages.isEmpty }, warnings: warnings + paginatorWarnings)
    }

    /// Section-relative and document page numbers of every page.
    static func numbering(of pages: [PageContent]) -> [PageNumbering] {
        var counts: [Int: Int] = [:]
        for page in pages { counts[page.section, default: 0] += 1 }
        var seen: [Int: Int] = [:]
        return pages.enumerated().map { index, page in
            seen[page.section, default: 0] += 1
            return PageNumbering(
                page: seen[page.section] ?? 1, pages: counts[page.section] ?? 1,
                documentPage: index + 1, documentPages: pages.count)
        }
    }
}
