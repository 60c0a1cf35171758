/// Body text with inline **bold**, *italic*, links and line breaks.
public struct Paragraph: Sendable, Hashable, Codable {
    public var text: RichText
    public init(_ text: RichText) { self.text = text }
    public init(_ text: String) { self.text = RichText(text) }
}
