import FolioGraphics
import FolioInput
import FolioModel

extension AppendedPDF: LaidOutBlock {
    /// Whole pages (`fit: page`), each a page of its own with the block's bookmark on the first; or a
    /// heading (and bookmark) then each page framed at the column's width, shrunk to leave a page room
    /// for the heading. Each page is a Figure whose alternative is `alt`, numbered when there are several,
    /// or without one the page's own text.
    func flowables(in builder: FlowableBuilder, path: String) throws -> [Flowable] {
        let imported = try builder.prepared.appendedPDF(at: path)
        let count = imported.pageSizes.count
        // The block's alternative, numbered among its pages; without one, each page's own text.
        func alternative(_ index: Int) -> String {
            if let texts = imported.pageTexts { return texts[index] }
            return count == 1 ? alt : "\(alt) (\(index + 1)/\(count))"
        }
        let pages = (0..<count).map { AppendedPage(document: imported, index: $0) }
        switch fit {
        case .page:
            let level = builder.headings.outlineDepth(ofHeading: builder.headings.subtitle)
            return pages.enumerated().map { index, page in
                AppendedPageFlowable(
                    page: page, alternative: alternative(index), bookmark: index == 0 ? (shownTitle, level) : nil,
                    anchor: index == 0 ? builder.headingAnchor(nil, path: path) : nil)
            }
        case .frame:
            let heading = try builder.heading(
                shownTitle, size: builder.theme.subtitleSize, level: builder.headings.subtitle,
                anchor: builder.headingAnchor(nil, path: path), path: path,
                spaceBefore: 16)
            let setup = builder.prepared.document.page
            let contentHeight = setup.pageSize.height - setup.margins.top.points - setup.margins.bottom.points
            // Room for the heading above the first page, and the frame's rule.
            let tallest = max(contentHeight - heading.height - 24, 72)
            let figures: [Flowable] = pages.enumerated().map { index, page in
                let scale = min(builder.width / page.size.width, tallest / page.size.height)
                return FigureFlowable(
                    content: .appendedPage(page, Size(page.size.width * scale, page.size.height * scale)), title: nil, caption: nil,
                    frameWidth: builder.width, textColor: builder.theme.text, captionColor: builder.theme.muted,
                    alternative: alternative(index), frameColor: builder.theme.muted)
            }
            return [heading] + figures
        }
    }
}
