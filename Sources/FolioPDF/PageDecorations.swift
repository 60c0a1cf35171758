import FolioGraphics
import FolioModel

/// The running header and the footer, laid out once and drawn on every page when the
/// page count is known. Nothing is cut: a long header or title wraps, and a header or
/// footer that does not fit in its margin is a layout-report warning. In a right-to-left
/// language the logo and the title are on the right, the page number on the left.
struct PageDecorations {
    let document: Document
    let strings: BuiltInStrings
    let theme: Theme
    let text: PangoTextEngine
    let content: Rect
    let pageSize: Size
    private let font: FontSpec
    private let header: TextLayout?
    private let title: TextLayout
    private let logoSize: Size?

    /// The share of the footer line the title may wrap in.
    private static let titleShare = 0.6
    /// Room between the content and the header's rule.
    private static let gap = 10.0
    /// Room between the content and the footer's text.
    private static let footerGap = 14.0

    init(document: Document, strings: BuiltInStrings, theme: Theme, text: PangoTextEngine, content: Rect, pageSize: Size) {
        self.document = document
        self.strings = strings
        self.theme = theme
        self.text = text
        self.content = content
        self.pageSize = pageSize
        font = theme.font(theme.smallSize + 0.5)
        let logoSize = theme.logo.map { logo in Size(16 * Double(logo.pixelWidth) / Double(logo.pixelHeight), 16) }
        self.logoSize = logoSize
        let headerText = document.header ?? ""
        if !headerText.isEmpty || logoSize != nil {
            let indent = logoSize.map { $0.width + 8 } ?? 0
            header = text.paragraph([TextRun(headerText)], font: font, width: max(content.width - indent, 24))
        } else {
            header = nil
        }
        title = text.paragraph([TextRun(document.title)], font: font, width: content.width * PageDecorations.titleShare)
    }

    /// Warnings for a header or footer that does not fit between its content edge and the page edge.
    func warnings(lastPage numbering: PageNumbering) -> [LayoutReport.Warning] {
        var warnings: [LayoutReport.Warning] = []
        if let header {
            let needed = PageDecorations.gap + 4 + max(header.metrics.height, logoSize?.height ?? 0)
            if needed > content.y {
                warnings.append(
                    LayoutReport.Warning(
                        kind: .overflow, path: "header", page: nil,
                        message:
                            "the page header needs \(needed.clampedInt(.up)) pt above the content but the top margin is \(content.y.clampedInt(.down)) pt: part of it is off the page"
                    ))
            }
        }
        let footer = text.singleLine(document.footerText(numbering, strings: strings), font: font)
        let below = pageSize.height - content.maxY
        let needed = PageDecorations.footerGap + max(footer.metrics.height, title.metrics.height)
        if needed > below {
            warnings.append(
                LayoutReport.Warning(
                    kind: .overflow, path: "footer", page: nil,
                    message:
                        "the footer needs \(needed.clampedInt(.up)) pt below the content but the bottom margin is \(below.clampedInt(.down)) pt: part of it is off the page"
                ))
        }
        // The page number and the title share the footer line: the number may not run into the title.
        if title.metrics.width > 0, title.metrics.width + 8 > content.width - footer.metrics.width {
            warnings.append(
                LayoutReport.Warning(
                    kind: .overflow, path: "footer", page: nil,
                    message:
                        "the footer text is so long that it overlaps the title in the footer"))
        }
        return warnings
    }

    func draw(on canvas: CairoCanvas, numbering: PageNumbering) {
        if let header {
            let lineY = content.y - PageDecorations.gap
            var x = content.x
            if let logo = theme.logo, let size = logoSize {
                // The theme's logo, 16 pt high, at the start of the header line (the right end in right-to-left).
                let logoX = strings.isRightToLeft ? content.maxX - size.width : x
                canvas.draw(image: logo, in: Rect(x: logoX, y: lineY - 4 - size.height, width: size.width, height: size.height))
                if !strings.isRightToLeft { x += size.width + 8 }
            }
            canvas.draw(layout: header, at: Point(x, lineY - 4 - header.metrics.height), color: theme.muted)
            canvas.line(
                from: Point(content.x, lineY), to: Point(content.x + content.width, lineY),
                style: StrokeStyle(color: theme.rule, width: 0.5))
        }
        let footerY = content.maxY + PageDecorations.footerGap
        let footer = text.singleLine(document.footerText(numbering, strings: strings), font: font)
        if strings.isRightToLeft {
            canvas.draw(layout: footer, at: Point(content.x, footerY), color: theme.muted)
            canvas.draw(layout: title, at: Point(content.maxX - content.width * PageDecorations.titleShare, footerY), color: theme.muted)
        } else {
            canvas.draw(layout: footer, at: Point(content.x + content.width - footer.metrics.width, footerY), color: theme.muted)
            canvas.draw(layout: title, at: Point(content.x, footerY), color: theme.muted)
        }
    }
}
