import FolioGraphics
import FolioInput
import FolioModel

/// A picture or a chart drawing with an optional title above and caption below;
/// it never splits, moves to the next page when it does not fit, and shrinks
/// when it is taller than a page.
final class FigureFlowable: Flowable {
    enum Content {
        case image(ImageData, Size)
        case drawing(Drawing)
        /// The markup of a sanitised SVG picture shown at `Size`, drawn by librsvg.
        case svg(markup: String, Size)
        /// A page of an appended PDF shown at `Size`, framed.
        case appendedPage(AppendedPage, Size)

        var size: Size {
            switch self {
            case .image(_, let size), .svg(_, let size), .appendedPage(_, let size): return size
            case .drawing(let drawing): return drawing.size
            }
        }
    }

    let content: Content
    let title: ShapedText?
    let caption: ShapedText?
    let frameWidth: Double
    let scale: Double
    let textColor: Color
    let captionColor: Color
    /// The text alternative; nil for a decorative image, which is drawn as an Artifact.
    let alternative: String?
    /// The colour of a rule drawn around the picture (an appended page's frame), or nil for none.
    let frameColor: Color?
    /// The figure laid out again for a given height (a chart with a shorter plot), or nil.
    let refit: ((Double) -> FigureFlowable?)?
    /// How much shorter than its height `refit` can make it.
    let shrinkable: Double

    private static let gap = 4.0

    var retainedBytes: Int {
        if case .drawing(let drawing) = content { return 2048 + 96 * drawing.commands.count }
        return 2048
    }

    init(
        content: Content, title: ShapedText?, caption: ShapedText?, frameWidth: Double, scale: Double = 1,
        textColor: Color, captionColor: Color, alternative: String?, refit: ((Double) -> FigureFlowable?)? = nil,
        shrinkable: Double = 0, frameColor: Color? = nil
    ) {
        self.frameColor = frameColor
        self.refit = refit
        self.shrinkable = refit == nil ? 0 : shrinkable
        self.content = content
        self.alternative = alternative
        self.title = title
        self.caption = caption
        self.frameWidth = frameWidth
        self.scale = scale
        self.textColor = textColor
        self.captionColor = captionColor
    }

    private var titleHeight: Double { title.map { $0.metrics.height + FigureFlowable.gap } ?? 0 }
    private var captionHeight: Double { caption.map { $0.metrics.height + FigureFlowable.gap } ?? 0 }

    var height: Double { titleHeight + content.size.height * scale + captionHeight }

    var leastStartHeight: Double { height - (scale == 1 ? shrinkable : 0) }

    func fitted(toHeight available: Double) -> Flowable? {
        guard scale == 1, let figure = refit?(available), figure.height <= available else { return nil }
        return figure
    }

    func scaled(toFit available: Double) -> Flowable? {
        let room = available - titleHeight - captionHeight
        guard room > 20 else { return nil }
        return FigureFlowable(
            content: content, title: title, caption: caption, frameWidth: frameWidth,
            scale: min(scale, room / content.size.height), textColor: textColor,
            captionColor: captionColor, alternative: alternative, frameColor: frameColor)
    }

    /// A figure with a text alternative is a `Figure` element holding its title and picture and,
    /// last, its `Caption` (readable text); one without is decoration, its caption still text: a
    /// paragraph (a `Caption` belongs to a figure or table, and none is there).
    func draw(on canvas: PageCanvas, at origin: Point) {
        func drawCaption() {
            guard let caption else { return }
            let y = origin.y + titleHeight + content.size.height * scale + FigureFlowable.gap
            canvas.tagged(alternative == nil ? .paragraph : .caption) {
                canvas.draw(caption, at: Point(origin.x, y), color: captionColor)
            }
        }
        if case .appendedPage(let page, _) = content {
            canvas.figure(alternative: alternative) { drawPicture(on: canvas, at: origin) }
            AppendedPageFlowable.drawLinks(of: page, in: appendedPageRect(at: origin), on: canvas)
        } else if alternative == nil {
            canvas.figure(alternative: nil) { drawPicture(on: canvas, at: origin) }
            drawCaption()
        } else {
            canvas.figure(alternative: alternative) {
                guard caption != nil || !content.isImage else { return drawPicture(on: canvas, at: origin) }
                // In a Span, which the PDF's finishing merges into the Figure: Cairo marks content
                // only in elements without children, and the Caption is the Figure's child (a
                // chart's words are drawn outside the Span, as artifacts, between its parts).
                canvas.tagged(.span) { drawPicture(on: canvas, at: origin) }
                drawCaption()
            }
        }
    }

    /// Where an appended page is drawn, centred in the column under the title.
    private func appendedPageRect(at origin: Point) -> Rect {
        let size = Size(content.size.width * scale, content.size.height * scale)
        return Rect(x: origin.x + (frameWidth - size.width) / 2, y: origin.y + titleHeight, width: size.width, height: size.height)
    }

    private func drawPicture(on canvas: PageCanvas, at origin: Point) {
        var y = origin.y
        if let title {
            canvas.draw(title, at: Point(origin.x, y), color: textColor)
            y += titleHeight
        }
        let size = Size(content.size.width * scale, content.size.height * scale)
        let x = origin.x + (content.isImage ? 0 : (frameWidth - size.width) / 2)
        switch content {
        case .image(let image, _):
            canvas.draw(image: image, in: Rect(x: x, y: y, width: size.width, height: size.height))
        case .drawing(let drawing):
            canvas.transformed(translate: Point(x, y), scale: scale) {
                canvas.chartPicture { drawing.replay(on: canvas) }
            }
        case .svg(let markup, _):
            canvas.draw(svgMarkup: markup, in: Rect(x: x, y: y, width: size.width, height: size.height))
        case .appendedPage(let page, _):
            let rect = appendedPageRect(at: origin)
            canvas.draw(appendedPage: page, in: rect)
            if let frameColor { canvas.stroke(Path.rect(rect), style: StrokeStyle(color: frameColor, width: 0.75)) }
        }
    }
}

extension FigureFlowable.Content {
    var isImage: Bool {
        switch self {
        case .image, .svg, .appendedPage: return true
        case .drawing: return false
        }
    }
}
