import FolioGraphics
import FolioModel

extension Contents: LaidOutBlock {
    /// Its heading (and bookmark) at a subtitle's level, then the list of the document's headings
    /// down to `depth`: each a link to its heading, indented by depth, top-level entries bold (set from
    /// the start side: Pango turns a right-to-left paragraph's start to the right).
    func flowables(in builder: FlowableBuilder, path: String) throws -> [Flowable] {
        let shownTitle = title ?? builder.strings[.contents]
        let heading = try builder.heading(
            shownTitle, size: builder.theme.subtitleSize, level: builder.headings.subtitle, anchor: nil, path: path, spaceBefore: 16)
        let listed = builder.prepared.document.headingEntries.filter { $0.depth <= depth }
        guard !listed.isEmpty else { return [heading] }
        let top = listed.map(\.depth).min() ?? 1
        // Room for the widest page number there can be: four digits, or a labelled section's "LABEL-88".
        let numberFont = builder.theme.font(builder.theme.bodySize)
        let labels = builder.prepared.document.elements.compactMap { block -> String? in
            if case .section(let section) = block, let label = section.label { return "\(label)-888" }
            return nil
        }
        let numberRoom = min(
            (labels + ["8888"]).map { builder.text.lineWidth($0, font: numberFont) }.max().map { $0 + 14 } ?? 48, builder.width / 3)
        var entries: [ContentsFlowable.Entry] = []
        var y = 0.0
        for heading in listed {
            let level = heading.depth - top
            let indent = Double(level) * 14
            let font = builder.theme.font(builder.theme.bodySize, bold: level == 0)
            let text = builder.text.wrapped(
                Typography.set([TextRun(heading.text, link: .anchor(heading.anchor))], language: builder.strings.language), font: font,
                width: max(builder.width - indent - numberRoom, 72), alignment: .left,
                linkColor: builder.theme.text, lineSpacing: 1.1, direction: builder.direction(of: heading.text))
            builder.checkGlyphs(text, heading.text, path: path)
            let gap = level == 0 && !entries.isEmpty ? 6.0 : 3.0
            y += entries.isEmpty ? 0 : gap
            entries.append(ContentsFlowable.Entry(text: text, path: heading.path, indent: indent, top: y, height: text.metrics.height))
            y += text.metrics.height
        }
        let list = ContentsFlowable(
            entries: entries, width: builder.width, spaceBefore: 8, pages: builder.contentsPages, shaper: builder.text,
            font: numberFont, color: builder.theme.text, leaderColor: builder.theme.muted, rightToLeft: builder.strings.isRightToLeft,
            numberRoom: numberRoom)
        return [heading, list]
    }
}
