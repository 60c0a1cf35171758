import FolioModel

extension Section: LaidOutBlock {
    /// A new page, then the section's title as a heading and bookmark (`HeadingLevels.section`).
    func flowables(in builder: FlowableBuilder, path: String) throws -> [Flowable] {
        builder.headings.inSection = true
        return [
            SectionFlowable(self),
            try builder.heading(
                title, size: builder.theme.subtitleSize + 4, level: builder.headings.section, anchor: builder.headingAnchor(id, path: path),
                path: path, spaceBefore: 18),
        ]
    }
}
