import FolioGraphics
import FolioModel

extension SVGBlock: LaidOutBlock {
    /// The sanitised picture at its width (its own, at most the column's), with its caption.
    func flowables(in builder: FlowableBuilder, path: String) throws -> [Flowable] {
        let picture = try builder.prepared.picture(at: path)
        guard builder.pictures.drawsSVG else {
            throw FolioError(path: path, "drawing SVG in a PDF needs librsvg, which is not installed (Debian: apt install librsvg2-2)")
        }
        let alternative = builder.textAlternative(alt, of: "picture", path: path)
        let shownWidth = min(width?.points ?? picture.size.width, builder.width)
        let size = Size(shownWidth, shownWidth * picture.size.height / picture.size.width)
        return [
            FigureFlowable(
                content: .svg(markup: picture.markup(idPrefix: "s", fontFamily: builder.theme.fontFamily), size), title: nil,
                caption: builder.caption(caption), frameWidth: builder.width, textColor: builder.theme.text,
                captionColor: builder.theme.muted, alternative: alternative)
        ]
    }
}
