import FolioGraphics
import FolioInput

/// A whole page of an appended PDF: a page of the document at the appended page's own size, without
/// the running header and footer, its content one Figure with the block's text alternative. The first
/// page of a block carries its bookmark.
final class AppendedPageFlowable: Flowable {
    let page: AppendedPage
    let alternative: String
    /// The block's bookmark, on its first page.
    let bookmark: (title: String, level: Int)?
    /// The destination links to the block name (a table of contents'), on its first page.
    let anchor: String?

    init(page: AppendedPage, alternative: String, bookmark: (title: String, level: Int)?, anchor: String? = nil) {
        self.page = page
        self.alternative = alternative
        self.bookmark = bookmark
        self.anchor = anchor
    }

    var height: Double { page.size.height }
    var spaceBefore: Double { 0 }
    var pageSize: Size? { page.size }
    var retainedBytes: Int { 256 }

    func draw(on canvas: PageCanvas, at origin: Point) {
        if let bookmark { canvas.outline(bookmark.title, level: bookmark.level, y: origin.y) }
        if let anchor { canvas.destination(anchor, at: origin) }
        let rect = Rect(x: origin.x, y: origin.y, width: page.size.width, height: page.size.height)
        canvas.figure(alternative: alternative) { canvas.draw(appendedPage: page, in: rect) }
        AppendedPageFlowable.drawLinks(of: page, in: rect, on: canvas)
    }

    /// The page's links to web addresses over it, after its Figure: a paragraph of links, each
    /// described by its address (the page's words are the Figure's alternative, not text here).
    static func drawLinks(of page: AppendedPage, in rect: Rect, on canvas: PageCanvas) {
        let links = page.links(in: rect)
        guard !links.isEmpty else { return }
        canvas.tagged(.paragraph) {
            for link in links { canvas.link(link.url, in: link.rect, description: link.url.url) }
        }
    }
}
