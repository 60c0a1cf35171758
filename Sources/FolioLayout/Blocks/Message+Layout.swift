import FolioGraphics
import FolioModel

extension Message: LaidOutBlock {
    /// A tinted panel with its labelled title and text, which splits between the text's lines.
    func flowables(in builder: FlowableBuilder, path: String) throws -> [Flowable] {
        let textWidth = MessageFlowable.textWidth(frame: builder.width)
        var titleRuns: [TextRun] = []
        if let label = kind.label(in: builder.strings) { titleRuns.append(TextRun(label + builder.strings.labelSeparator, bold: true)) }
        titleRuns.append(TextRun(title, bold: true))
        // Links keep 4.5:1 contrast on the message's tinted background.
        let background = builder.theme.tint(of: self).lightened(0.9)
        let bodyText =
            text.runs.isEmpty
            ? nil : try builder.textBlock(text.runs, width: textWidth, path: path, linkColor: builder.theme.accent.readable(on: background))
        return [
            MessageFlowable(
                title: builder.body(titleRuns, width: textWidth, path: path), body: bodyText, tint: builder.theme.tint(of: self),
                width: builder.width, textColor: builder.theme.text, rightToLeft: builder.strings.isRightToLeft)
        ]
    }
}
