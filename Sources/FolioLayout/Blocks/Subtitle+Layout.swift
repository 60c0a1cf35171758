import FolioModel

extension Subtitle: LaidOutBlock {
    /// A heading (and bookmark) kept with what follows, one level below a section; H2 under the
    /// title or a section, H1 before either.
    func flowables(in builder: FlowableBuilder, path: String) throws -> [Flowable] {
        [
            try builder.heading(
                text, size: builder.theme.subtitleSize, role: builder.belowTopHeading ? .subtitle : .topSubtitle,
                level: builder.inSection ? 2 : 1, anchor: id, path: path,
                spaceBefore: 16)
        ]
    }
}
