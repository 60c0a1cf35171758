/// A section heading; it is never left alone at the bottom of a page.
public struct Subtitle: Sendable, Hashable, Codable {
    /// The heading's text.
    public var text: String
    /// Anchor for internal links (`[see below](#id)`).
    public var id: String?

    /// A subtitle with an optional anchor `id`.
    public init(_ text: String, id: String? = nil) {
        self.text = text
        self.id = id
    }
}

extension Subtitle: BlockContent {
    /// `subtitle`.
    package static let kind = Block.Kind.subtitle
    /// A subtitle has nothing to check beyond its decoding.
    package func validate(path: String) throws {}
    /// The subtitle's text.
    package var textContent: [String] { [text] }
    /// The subtitle's `id`.
    package var anchor: String? { id }
    /// The subtitle is a heading.
    package var heading: String? { text }
}
