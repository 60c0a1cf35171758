import FolioGraphics
import FolioInput
import FolioModel

extension Barcode: LaidOutBlock {
    /// The symbol at its width (3 cm for matrix codes, 6 cm for bars by default; at most the column's),
    /// a figure whose text alternative says what it is and what it holds, with its caption.
    func flowables(in builder: FlowableBuilder, path: String) throws -> [Flowable] {
        let symbol = try BarcodeSymbol(self, path: path)
        // Black on white whatever the theme: scanners need the contrast.
        let drawing = symbol.drawing(width: min(shownWidth, builder.width), color: .black, description: "")
        return [
            FigureFlowable(
                content: .drawing(drawing), title: nil, caption: builder.caption(caption), frameWidth: builder.width,
                textColor: builder.theme.text, captionColor: builder.theme.muted, alternative: textAlternative)
        ]
    }
}
