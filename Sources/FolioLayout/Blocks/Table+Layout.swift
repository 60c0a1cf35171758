import FolioModel

extension Table: LaidOutBlock {
    /// The whole table, which splits between rows (its header repeated) as pages need.
    func flowables(in builder: FlowableBuilder, path: String) throws -> [Flowable] {
        let layout = try TableLayout(
            table: self, width: builder.width, text: builder.text, theme: builder.theme, strings: builder.strings,
            footnotes: builder.footnoteMarks)
        if let header = layout.header { zip(header, layout.headerSlots).forEach { builder.checkGlyphs($0, $1.text, path: path) } }
        return [TableFlowable(layout: layout, range: 0..<rows.count, isFirstPart: true)]
    }
}
