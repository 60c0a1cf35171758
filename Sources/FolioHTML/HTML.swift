import FolioGraphics
import FolioInput
import FolioModel

/// HTML or SVG markup that is safe to write. It is made only from string literals in
/// Folio's own source (a literal is the only string `ExpressibleByStringLiteral` takes),
/// numbers, colours, other `HTML`, and interpolated text that is escaped on the way in:
/// a `String` interpolated into `HTML` is always text, so a document string cannot
/// become markup by mistake.
///
///     let cell: HTML = "<td class=\"\(className)\">\(text)</td>"   // className and text escaped
struct HTML: ExpressibleByStringInterpolation, CustomStringConvertible, Sendable {
    /// The markup.
    private(set) var markup: String

    init() { markup = "" }

    init(stringLiteral literal: String) { markup = literal }

    init(stringInterpolation interpolation: StringInterpolation) { markup = interpolation.markup }

    /// Text, escaped.
    init(text: String) {
        markup = ""
        MarkupEscaping.escape(text, into: &markup)
    }

    var description: String { markup }

    static func += (lhs: inout HTML, rhs: HTML) { lhs.markup += rhs.markup }

    /// Joins pieces of markup with a literal separator.
    static func joined(_ pieces: [HTML], separator: String = "") -> HTML {
        var result = HTML()
        result.markup = pieces.map(\.markup).joined(separator: separator)
        return result
    }

    /// Replaces every newline of escaped text with `<br>`.
    func lineBreaks() -> HTML {
        var result = self
        result.markup = markup.replacingOccurrences(of: "\n", with: "<br>")
        return result
    }

    /// The pieces interpolation accepts, each written in the one way that is safe for it.
    struct StringInterpolation: StringInterpolationProtocol {
        var markup = ""

        // No reservation: most pieces are short, and a reserved empty string would always be allocated.
        init(literalCapacity: Int, interpolationCount: Int) {}

        mutating func appendLiteral(_ literal: String) { markup += literal }

        /// Document text, escaped for element content and quoted attribute values.
        mutating func appendInterpolation(_ text: String) { MarkupEscaping.escape(text, into: &markup) }

        /// Markup built the same way.
        mutating func appendInterpolation(_ html: HTML) { markup += html.markup }

        /// A stylesheet, for a `<style>` element: the CSS type escapes `<` in every value.
        mutating func appendInterpolation(_ css: CSS) { markup += css.text }

        mutating func appendInterpolation(_ number: Int) { markup += String(number) }

        /// A coordinate or size, to two decimals.
        mutating func appendInterpolation(number: Double) { SVGNumber.write(number, into: &markup) }

        /// `#RRGGBB`.
        mutating func appendInterpolation(_ color: Color) { markup += color.withAlpha(1).hex }

        /// A link target's address (http, https, mailto) escaped; an anchor of the document is written
        /// by the body writer, with its page's scope (`#` here).
        mutating func appendInterpolation(url target: LinkTarget) {
            guard target.anchor == nil else {
                markup += "#"
                return
            }
            MarkupEscaping.escape(target.url, into: &markup)
        }

        /// A sanitised SVG picture (allow-listed element and attribute names, values and text
        /// escaped by `SanitizedSVG`), `width` × `height` CSS pixels, ids prefixed with `idPrefix`,
        /// labelled for assistive technology by `label` or hidden from it without one.
        mutating func appendInterpolation(
            svg picture: SanitizedSVG, idPrefix: String, width: Double, height: Double, fontFamily: String, label: String?
        ) {
            let accessibility: [SanitizedSVG.Attribute] =
                label.map { [.init(name: "role", value: "img"), .init(name: "aria-label", value: $0)] }
                ?? [.init(name: "aria-hidden", value: "true")]
            markup += picture.markup(
                idPrefix: idPrefix, width: width, height: height, fontFamily: fontFamily, rootAttributes: accessibility)
        }

        /// A `data:` URI of an image whose format was checked.
        mutating func appendInterpolation(dataURI image: ImageData) {
            markup += "data:"
            markup += image.format.mimeType
            markup += ";base64,"
            markup += image.bytes.base64EncodedString()
        }
    }
}

extension HTML {
    /// Two pieces of markup, one after the other.
    static func + (lhs: HTML, rhs: HTML) -> HTML {
        var result = lhs
        result += rhs
        return result
    }
}
