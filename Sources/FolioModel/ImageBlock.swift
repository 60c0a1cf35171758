import Foundation

/// A PNG or JPEG picture, from a file or embedded bytes.
public struct ImageBlock: Sendable, Hashable, Codable {
    /// Where the picture's bytes come from.
    public enum Source: Sendable, Hashable {
        /// A path, relative to the input document's folder unless absolute.
        case file(String)
        /// The encoded PNG or JPEG bytes.
        case data(Data)
    }

    /// Where the bytes come from.
    public var source: Source
    /// Displayed width; the height follows the picture's aspect ratio. Defaults to its natural size.
    public var width: Length?
    /// Text alternative for screen readers and the PDF.
    public var alt: String
    /// Caption under the picture.
    public var caption: String?

    /// An image from `source`, `width` wide, with its text alternative and caption.
    public init(source: Source, width: Length? = nil, alt: String = "", caption: String? = nil) {
        self.source = source
        self.width = width
        self.alt = alt
        self.caption = caption
    }

    private enum CodingKeys: String, CodingKey { case path, data, width, alt, caption }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let path = try container.decodeIfPresent(String.self, forKey: .path) {
            source = .file(path)
        } else if let base64 = try container.decodeIfPresent(String.self, forKey: .data) {
            var text = base64
            if text.hasPrefix("data:"), let comma = text.firstIndex(of: ",") {
                text = String(text[text.index(after: comma)...])
            }
            guard let bytes = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .data, in: container,
                    debugDescription: "not valid base64")
            }
            source = .data(bytes)
        } else {
            throw DecodingError.keyNotFound(
                CodingKeys.path,
                DecodingError.Context(
                    codingPath: container.codingPath, debugDescription: "an image needs \"path\" or base64 \"data\""))
        }
        width = try container.decodeIfPresent(.width)
        alt = try container.decode(.alt, default: "")
        caption = try container.decodeIfPresent(.caption)
    }

    /// Encodes the value as a document writes it.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch source {
        case .file(let path): try container.encode(path, forKey: .path)
        case .data(let data): try container.encode(data.base64EncodedString(), forKey: .data)
        }
        try container.encodeIfPresent(width, forKey: .width)
        try container.encode(alt, forKey: .alt)
        try container.encodeIfPresent(caption, forKey: .caption)
    }
}

extension ImageBlock: BlockContent {
    /// `image`.
    package static let kind = Block.Kind.image
    /// Checks the width and that embedded data is not empty (the bytes are checked when loaded).
    package func validate(path: String) throws {
        if let width { try width.validate(path: "\(path).width", allowZero: false) }
        if case .data(let data) = source, data.isEmpty {
            throw FolioError(path: "\(path).data", "image data is empty")
        }
    }
    /// The caption (the text alternative is not printed).
    package var textContent: [String] { [caption].compactMap { $0 } }
}
