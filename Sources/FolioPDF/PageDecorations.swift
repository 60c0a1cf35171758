import FolioGraphics
import FolioModel

/// The running header and the footer, drawn once the page count is known.
struct PageDecorations {
    let document: Document
    let theme: Theme
    let text: PangoTextEngine
    let content: Rect
    let pageSize: Size

    func draw(on canvas: CairoCanvas, page: Int, of pages: Int) {
        let font = theme.font(theme.smallSize + 0.5)
        if let header = document.header, !header.isEmpty {
            let layout = text.paragraph([TextRun(header)], font: font, width: content.width)
            pangoEllipsize(layout)
            let lineY = content.y - 10
            canvas.draw(layout: layout, at: Point(content.x, lineY - 4 - layout.metrics.height), color: theme.muted)
            canvas.line(from: Point(content.x, lineY), to: Point(content.x + content.width, lineY),
                        style: StrokeStyle(color: theme.rule, width: 0.5))
        }
        let footerY = content.y + content.height + 14
        let footer = text.singleLine(document.footerText(page: page, of: pages), font: font)
        canvas.draw(layout: footer, at: Point(content.x + content.width - footer.metrics.width, footerY), color: theme.muted)
        let title = text.paragraph([TextRun(document.title)], font: font, width: content.width * 0.6)
        pangoEllipsize(title)
        canvas.draw(layout: title, at: Point(content.x, footerY), color: theme.muted)
    }
}
