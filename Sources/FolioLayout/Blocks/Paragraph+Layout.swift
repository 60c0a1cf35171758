import FolioModel

extension Paragraph: LaidOutBlock {
    /// Wrapped rich text that splits between lines.
    func flowables(in builder: FlowableBuilder, path: String) throws -> [Flowable] {
        [
            TextFlowable(
                block: try builder.textBlock(text.runs, width: builder.width, path: path, alignment: align),
                color: builder.theme.text, spaceBefore: 6)
        ]
    }
}
