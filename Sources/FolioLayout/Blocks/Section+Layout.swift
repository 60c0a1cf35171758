import FolioModel

extension Section: LaidOutBlock {
    /// A new page, then the section's title as a first-level heading and bookmark.
    func flowables(in builder: FlowableBuilder, path: String) throws -> [Flowable] {
        builder.inSection = true
        return [
            SectionFlowable(self),
            try builder.heading(
                title, size: builder.theme.subtitleSize + 4, role: .section, level: 1, anchor: id, path: path, spaceBefore: 18),
        ]
    }
}
