import Foundation

/// A vector picture written in SVG (a signature line, a body map, a logo): sanitised, then
/// drawn by librsvg in the PDF and written inline in HTML, from the same cleaned markup.
///
/// Only drawing survives sanitising: shapes, paths, text, groups, gradients, clip paths,
/// transforms and presentation attributes. Scripts, event handlers, `<style>` sheets,
/// `<foreignObject>`, external references and DTDs are removed or refused.
public struct SVGBlock: Sendable, Hashable, Codable {
    /// Where the markup comes from.
    public enum Source: Sendable, Hashable {
        /// A path, relative to the input document's folder (confined like images).
        case file(String)
        /// The markup itself, `<svg …>…</svg>`.
        case markup(String)
    }

    /// Where the markup comes from.
    public var source: Source
    /// Displayed width; the height follows the picture's aspect ratio. Defaults to its own width,
    /// at most the page's.
    public var width: Length?
    /// Text alternative for screen readers and the PDF; without one the picture is decoration.
    public var alt: String
    /// Caption under the picture.
    public var caption: String?

    /// A picture from `source`, `width` wide, with its text alternative and caption.
    public init(source: Source, width: Length? = nil, alt: String = "", caption: String? = nil) {
        self.source = source
        self.width = width
        self.alt = alt
        self.caption = caption
    }

    private enum CodingKeys: String, CodingKey { case svg, path, width, alt, caption }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let markup = try container.decodeIfPresent(String.self, forKey: .svg) {
            source = .markup(markup)
        } else if let path = try container.decodeIfPresent(String.self, forKey: .path) {
            source = .file(path)
        } else {
            throw DecodingError.keyNotFound(
                CodingKeys.svg,
                DecodingError.Context(
                    codingPath: container.codingPath, debugDescription: "an svg block needs \"svg\" (the markup) or \"path\""))
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
        case .markup(let markup): try container.encode(markup, forKey: .svg)
        }
        try container.encodeIfPresent(width, forKey: .width)
        try container.encode(alt, forKey: .alt)
        try container.encodeIfPresent(caption, forKey: .caption)
    }
}

extension SVGBlock: BlockContent {
    /// `svg`.
    package static let kind = Block.Kind.svg
    /// Checks the width and the markup's size; the markup itself is parsed and sanitised when
    /// the document is prepared (`elements[3].svg: …` names what was refused).
    package func validate(path: String) throws {
        if let width { try width.validate(path: "\(path).width", allowZero: false) }
        if case .markup(let markup) = source {
            if markup.utf8.count > InputLimits.svgBytes {
                throw FolioError(
                    path: "\(path).svg", "the markup is \(markup.utf8.count) bytes; at most \(InputLimits.svgBytes) are allowed")
            }
            if markup.isEmpty { throw FolioError(path: "\(path).svg", "the markup is empty") }
        }
    }
    /// The caption.
    package var textContent: [String] { [caption].compactMap { $0 } }
}

extension SVGBlock: BlockConvertible {
    /// The picture as a block.
    public var block: Block { .svg(self) }
}
