import FolioGraphics
import FolioModel

extension CustomBlock: LaidOutBlock {
    /// The element's drawing at the column's width, a figure with its text alternative.
    func flowables(in builder: FlowableBuilder, path: String) throws -> [Flowable] {
        let theme = builder.theme
        let drawing = ElementRecorder.drawing(of: element, width: builder.width, measurer: builder.text, theme: theme)
        guard drawing.size.height > 0 else { return [] }
        return [
            FigureFlowable(
                content: .drawing(drawing), title: nil, caption: nil, frameWidth: builder.width, textColor: theme.text,
                captionColor: theme.muted, alternative: element.alternativeText)
        ]
    }
}
