import FolioGraphics
import FolioModel

/// The running header and the footer, drawn once the page count is known.
struct PageDecorations {
    let document: Document
    let theme: Theme
    let text: PangoTextEngine
    let content: Rect

    func draw(on canvas: CairoCanvas, numbering: PageNumbering) {
        let font = theme.font(theme.smallSize + 0.5)
        let header = document.header ?? ""
        if !header.isEmpty || theme.logo != nil {
            let lineY = content.y - 10
            var x = content.x
            if let logo = theme.logo {
                // The theme's logo, 16 pt high, at the start of the header line.
                let height = 16.0, width = height * Double(logo.pixelWidth) / Double(logo.pixelHeight)
                canvas.draw(image: logo, in: Rect(x: x, y: lineY - 4 - height, width: width, height: height))
                x += width + 8
            }
            let layout = text.paragraph([TextRun(header)], font: font, width: content.x + content.width - x)
            pangoEllipsize(layout)
            canvas.draw(layout: layout, at: Point(x, lineY - 4 - layout.metrics.height), color: theme.muted)
            canvas.line(from: Point(content.x, lineY), to: Point(content.x + content.width, lineY),
                        style: StrokeStyle(color: theme.rule, width: 0.5))
        }
        let footerY = content.y + content.height + 14
        let footer = text.singleLine(document.footerText(numbering), font: font)
        canvas.draw(layout: footer, at: Point(content.x + content.width - footer.metrics.width, footerY), color: theme.muted)
        let title = text.paragraph([TextRun(document.title)], font: font, width: content.width * 0.6)
        pangoEllipsize(title)
        canvas.draw(layout: title, at: Point(content.x, footerY), color: theme.muted)
    }
}
