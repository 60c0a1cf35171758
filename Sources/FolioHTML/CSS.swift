import FolioGraphics
import FolioModel

/// A piece of stylesheet that is safe to write: literals from Folio's source, colours,
/// numbers, identifiers escaped as CSS identifiers and text escaped as CSS strings.
/// A theme value can therefore never close the `<style>` element or start a rule.
struct CSS: ExpressibleByStringInterpolation, CustomStringConvertible, Sendable {
    /// The stylesheet text.
    private(set) var text: String

    init() { text = "" }
    init(stringLiteral literal: String) { text = literal }
    init(stringInterpolation interpolation: StringInterpolation) { text = interpolation.text }

    var description: String { text }

    static func += (lhs: inout CSS, rhs: CSS) { lhs.text += rhs.text }

    /// Joins pieces with a literal separator.
    static func joined(_ pieces: [CSS], separator: String) -> CSS {
        var result = CSS()
        result.text = pieces.map(\.text).joined(separator: separator)
        return result
    }

    /// The pieces interpolation accepts; a plain `String` is not one of them.
    struct StringInterpolation: StringInterpolationProtocol {
        var text = ""

        init(literalCapacity: Int, interpolationCount: Int) {}

        mutating func appendLiteral(_ literal: String) { text += literal }
        mutating func appendInterpolation(_ css: CSS) { text += css.text }
        mutating func appendInterpolation(_ number: Int) { text += String(number) }
        mutating func appendInterpolation(number: Double) { SVGNumber.write(number, into: &text) }
        /// `#RRGGBB`.
        mutating func appendInterpolation(_ color: Color) { text += color.hex }
        /// `color` as a translucent colour that looks the same over white (`rgba(…)`): what lies
        /// under it (a table's scroll shadow) shows through.
        mutating func appendInterpolation(overWhite color: Color) {
            // The least alpha that can make the colour over white: each channel c = 1 - a + a·c′.
            let alpha = min(max(1 - min(color.red, color.green, color.blue), 0), 1)
            func channel(_ value: Double) -> Int {
                alpha == 0 ? 255 : (min(max((value - (1 - alpha)) / alpha, 0), 1) * 255).clampedInt()
            }
            text += "rgba(\(channel(color.red)),\(channel(color.green)),\(channel(color.blue)),"
            SVGNumber.write((alpha * 1000).rounded() / 1000, into: &text)
            text += ")"
        }

        /// A class name or id, every character outside `[A-Za-z0-9_-]` and non-ASCII letters escaped.
        mutating func appendInterpolation(identifier: String) {
            for scalar in identifier.unicodeScalars {
                let v = scalar.value
                let plain =
                    ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                    || scalar == "-" || scalar == "_" || (v >= 0x80 && scalar.isAllowedInText)
                text += plain ? String(scalar) : "\\" + String(v, radix: 16) + " "
            }
        }

        /// A quoted CSS string: quotes, backslashes, `<`, `>`, `&` and controls written as escapes.
        mutating func appendInterpolation(string: String) {
            text += "\""
            for scalar in string.unicodeScalars {
                let v = scalar.value
                if v < 0x20 || v == 0x7F || "\"'\\<>&".unicodeScalars.contains(scalar) || !scalar.isAllowedInText {
                    text += "\\" + String(scalar.isAllowedInText || v >= 0x20 ? v : 0xFFFD, radix: 16) + " "
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
            text += "\""
        }
    }
}
