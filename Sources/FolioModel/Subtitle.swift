/// A section heading; it is never left alone at the bottom of a page.
public struct Subtitle: Sendable, Hashable, Codable {
    public var text: String
    public init(_ text: String) { self.text = text }
}
