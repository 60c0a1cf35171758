/// A section heading; it is never left alone at the bottom of a page.
public struct Subtitle: Sendable, Hashable, Codable {
    public var text: String
    /// Anchor for internal links (`[see below](#id)`).
    public var id: String?

    public init(_ text: String, id: String? = nil) {
        self.text = text
        self.id = id
    }
}
