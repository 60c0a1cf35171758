import FolioModel
import Foundation

/// Reads the SVG attribute values that decide how large things are drawn: lengths with their
/// units, transform lists and number lists. `SanitizedSVG` keeps a size or transform attribute
/// only when this reads it, so what the drawing budget measured is what librsvg and browsers draw.
package enum SVGValues {
    /// A length as written: a number and its unit.
    package struct Length: Sendable, Hashable {
        /// The units SVG and CSS lengths are written in.
        package enum Unit: String, Sendable, CaseIterable {
            case none = ""
            case px, pt, pc, mm, cm
            case inches = "in"
            case q, em, ex, rem, ch
            case percent = "%"
            case vw, vh, vmin, vmax
        }

        /// The number.
        package let value: Double
        /// Its unit.
        package let unit: Unit

        /// The length in user units (CSS pixels): `em` and `ex` against `fontSize`, `rem` against
        /// `rootFontSize`, percentages against `percentBase`, viewport units against `viewport`.
        package func resolved(fontSize: Double, rootFontSize: Double, percentBase: Double, viewport: (Double, Double)) -> Double {
            switch unit {
            case .none, .px: return value
            case .pt: return value * 4 / 3
            case .pc: return value * 16
            case .mm: return value * 96 / 25.4
            case .cm: return value * 96 / 2.54
            case .inches: return value * 96
            case .q: return value * 96 / 101.6
            case .em: return value * fontSize
            // Fonts' x-height and "0" width are at most an em.
            case .ex, .ch: return value * fontSize
            case .rem: return value * rootFontSize
            case .percent: return value * percentBase / 100
            case .vw: return value * viewport.0 / 100
            case .vh: return value * viewport.1 / 100
            case .vmin: return value * Swift.min(viewport.0, viewport.1) / 100
            case .vmax: return value * Swift.max(viewport.0, viewport.1) / 100
            }
        }
    }

    /// A 2-D affine transform `[a c e; b d f]`, as SVG writes `matrix(a b c d e f)`.
    package struct Transform: Sendable, Hashable {
        package var a = 1.0, b = 0.0, c = 0.0, d = 1.0, e = 0.0, f = 0.0

        /// The identity.
        package static let identity = Transform()

        /// A transform from its six numbers.
        package init(a: Double = 1, b: Double = 0, c: Double = 0, d: Double = 1, e: Double = 0, f: Double = 0) {
            (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
        }

        /// Scaling by `x` and `y`.
        package static func scale(_ x: Double, _ y: Double) -> Transform { Transform(a: x, d: y) }

        /// This transform followed by nothing, applied after `inner`: `self × inner`.
        package func concatenating(_ inner: Transform) -> Transform {
            Transform(
                a: a * inner.a + c * inner.b, b: b * inner.a + d * inner.b,
                c: a * inner.c + c * inner.d, d: b * inner.c + d * inner.d,
                e: a * inner.e + c * inner.f + e, f: b * inner.e + d * inner.f + f)
        }

        /// How much the transform enlarges at most: the largest singular value of its linear part
        /// (a length of 1 in any direction becomes at most this long).
        package var largestScale: Double {
            let sum = a * a + b * b + c * c + d * d
            let determinant = a * d - b * c
            let root = (Swift.max(0, sum * sum - 4 * determinant * determinant)).squareRoot()
            return ((sum + root) / 2).squareRoot()
        }
    }

    /// The numbers of a list written with spaces and/or commas (`viewBox`, `points`); nil when a
    /// piece is not a finite number.
    package static func numbers(_ text: Substring) -> [Double]? {
        var result: [Double] = []
        for piece in text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" || $0 == "\r" }) {
            guard let value = number(piece) else { return nil }
            result.append(value)
        }
        return result
    }

    /// A finite CSS number (`12`, `-.5`, `1e3`); nil for anything else, `inf` and `nan` included.
    package static func number(_ text: Substring) -> Double? {
        guard let first = text.unicodeScalars.first,
            first == "-" || first == "+" || first == "." || ("0"..."9").contains(first),
            text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || "+-.eE".unicodeScalars.contains($0) }),
            let value = Double(text), value.isFinite
        else { return nil }
        return value
    }

    /// A length such as `12`, `12px`, `1.5em`, `50%`; nil when it is not one.
    package static func length(_ text: String) -> Length? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        var numberEnd = trimmed.endIndex
        while numberEnd > trimmed.startIndex {
            let previous = trimmed.index(before: numberEnd)
            let character = trimmed[previous]
            if character.isASCII && (character.isNumber || character == ".") { break }
            numberEnd = previous
        }
        let unitText = trimmed[numberEnd...].lowercased()
        guard let unit = Length.Unit(rawValue: unitText), let value = number(trimmed[..<numberEnd]) else { return nil }
        return Length(value: value, unit: unit)
    }

    /// The font sizes CSS names by keyword, in CSS pixels (`xxx-large` is the largest).
    package static let fontSizeKeywords: [String: Double] = [
        "xx-small": 9, "x-small": 10, "small": 13, "medium": 16, "large": 18, "x-large": 24, "xx-large": 32, "xxx-large": 48,
    ]

    /// A font size in user units from its written value and the parent's size: a length, a
    /// keyword, `larger` or `smaller`; nil when it is none of these.
    package static func fontSize(_ text: String, parent: Double, root: Double, viewport: (Double, Double)) -> Double? {
        let keyword = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if let size = fontSizeKeywords[keyword] { return size }
        if keyword == "larger" { return parent * 1.2 }
        if keyword == "smaller" { return parent / 1.2 }
        guard let length = length(text) else { return nil }
        let size = length.resolved(fontSize: parent, rootFontSize: root, percentBase: parent, viewport: viewport)
        return size >= 0 ? size : nil
    }

    /// A transform list (`translate(10) scale(2, 3) rotate(45 5 5) skewX(10) matrix(…)`) as one
    /// transform; nil when any part is not understood.
    package static func transform(_ text: String) -> Transform? {
        var result = Transform.identity
        var rest = Substring(text)
        while true {
            rest = rest.drop(while: { $0.isWhitespace || $0 == "," })
            guard !rest.isEmpty else { return result }
            guard let open = rest.firstIndex(of: "("), let close = rest[open...].firstIndex(of: ")") else { return nil }
            let name = rest[..<open].trimmingCharacters(in: .whitespaces)
            guard let arguments = numbers(rest[rest.index(after: open)..<close]) else { return nil }
            guard let part = transform(named: name, arguments) else { return nil }
            result = result.concatenating(part)
            rest = rest[rest.index(after: close)...]
        }
    }

    private static func transform(named name: String, _ n: [Double]) -> Transform? {
        let radians = { (degrees: Double) in degrees * .pi / 180 }
        switch (name, n.count) {
        case ("matrix", 6): return Transform(a: n[0], b: n[1], c: n[2], d: n[3], e: n[4], f: n[5])
        case ("translate", 1): return Transform(e: n[0])
        case ("translate", 2): return Transform(e: n[0], f: n[1])
        case ("scale", 1): return .scale(n[0], n[0])
        case ("scale", 2): return .scale(n[0], n[1])
        case ("rotate", 1), ("rotate", 3):
            let angle = radians(n[0])
            let rotation = Transform(a: cos(angle), b: sin(angle), c: -sin(angle), d: cos(angle))
            guard n.count == 3 else { return rotation }
            return Transform(e: n[1], f: n[2]).concatenating(rotation).concatenating(Transform(e: -n[1], f: -n[2]))
        case ("skewX", 1): return Transform(c: tan(radians(n[0])))
        case ("skewY", 1): return Transform(b: tan(radians(n[0])))
        default: return nil
        }
    }
}
