/// The one heading scheme of a document, which its PDF tags, its HTML and its bookmarks all follow:
/// the title is level 1, a section's title level 2, and a subtitle one level below the section it
/// is in (3), or below the title when no section has begun (2). A document without a title moves
/// every heading up one level, so that its first heading is level 1 whatever it starts with.
package struct HeadingLevels: Sendable, Hashable {
    /// Whether the document has a title.
    package var hasTitle: Bool
    /// Whether a section has begun.
    package var inSection: Bool

    /// The scheme of a document with or without a title, before any section.
    package init(hasTitle: Bool, inSection: Bool = false) {
        self.hasTitle = hasTitle
        self.inSection = inSection
    }

    /// The title's level.
    package static let title = 1
    /// A section title's level.
    package var section: Int { hasTitle ? 2 : 1 }
    /// A subtitle's level, here.
    package var subtitle: Int { inSection ? section + 1 : (hasTitle ? 2 : 1) }

    /// The depth of a heading at `level` among the bookmarks: the title's is 0, and a document
    /// without a title has its top headings at 1, as one with a title does.
    package func outlineDepth(ofHeading level: Int) -> Int { hasTitle ? level - 1 : level }
}
