import FolioModel

extension Paragraph: LaidOutBlock {
    /// Wrapped rich text that splits between lines; its Markdown list lines as lists (`parts`).
    func flowables(in builder: FlowableBuilder, path: String) throws -> [Flowable] {
        try parts.enumerated().map { index, part -> Flowable in
            let spaceBefore: Double = index == 0 ? 6 : 3
            switch part {
            case .text(let text):
                // Read and hyphenated in the paragraph's own language where it has one.
                let passageLanguage = language ?? PassageLanguage.of(text.plainText, documentLanguage: builder.strings.language)
                return TextFlowable(
                    block: try builder.textBlock(
                        text.runs, width: builder.width, path: path, alignment: align, language: passageLanguage),
                    color: builder.theme.text, spaceBefore: spaceBefore, language: passageLanguage)
            case .list(let list):
                return try list.flowable(in: builder, path: path, spaceBefore: spaceBefore)
            }
        }
    }
}
