/// A diagonal text behind every page's content, such as "CONFIDENTIAL" or "Copy for the patient":
/// in the document's font and language, an artifact in the PDF (screen readers skip it) and in
/// HTML shown only when printed.
public struct Watermark: Sendable, Hashable, Codable {
    /// The words, on one line (at most 200 characters).
    public var text: String
    /// How opaque it is, above 0 and at most 1; 0.15 by default.
    public var opacity: Double

    /// A watermark saying `text` at `opacity`.
    public init(text: String, opacity: Double = 0.15) {
        self.text = text
        self.opacity = opacity
    }

    private enum CodingKeys: String, CodingKey { case text, opacity }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        text = try container.decode(String.self, forKey: .text)
        opacity = try container.decode(.opacity, default: 0.15)
    }

    /// The text as it is shown: without the spaces around it.
    package var shownText: String { text.trimmingWhitespace() }

    /// The longest watermark text, in characters.
    public static let maximumCharacters = 200

    /// Throws a `FolioError` naming the field when the text is empty, too long or more than one
    /// line, or the opacity is not above 0 and at most 1.
    package func validate(path: String) throws {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { throw FolioError(path: "\(path).text", "a watermark needs a text") }
        guard trimmed.count <= Watermark.maximumCharacters else {
            throw FolioError(path: "\(path).text", "a watermark may have at most \(Watermark.maximumCharacters) characters")
        }
        guard !trimmed.contains(where: \.isNewline) else { throw FolioError(path: "\(path).text", "a watermark is one line") }
        guard opacity.isFinite, opacity > 0, opacity <= 1 else {
            throw FolioError(path: "\(path).opacity", "opacity must be above 0 and at most 1")
        }
    }
}
