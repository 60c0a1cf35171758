import FolioModel

extension Subtitle: LaidOutBlock {
    /// A heading (and bookmark) kept with what follows, one level below the section it is in
    /// (`HeadingLevels.subtitle`).
    func flowables(in builder: FlowableBuilder, path: String) throws -> [Flowable] {
        [
            try builder.heading(
                text, size: builder.theme.subtitleSize, level: builder.headings.subtitle, anchor: builder.headingAnchor(id, path: path),
                path: path, spaceBefore: 16)
        ]
    }
}
