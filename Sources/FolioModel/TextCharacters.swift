extension Unicode.Scalar {
    /// Whether a document's text may carry this character into PDF and HTML: not a control
    /// other than tab and newline (C0, DEL, C1), not a noncharacter (U+FDD0…U+FDEF, U+xFFFE,
    /// U+xFFFF). HTML forbids the others, and C strings end at NUL.
    package var isAllowedInText: Bool {
        let v = value
        if v < 0x20 { return v == 0x0A || v == 0x09 }
        if (0x7F...0x9F).contains(v) || (0xFDD0...0xFDEF).contains(v) { return false }
        return v & 0xFFFE != 0xFFFE
    }
}

extension Unicode.Scalar {
    /// Whether this character has Unicode's White_Space property (`properties.isWhitespace`),
    /// answered without the property table for ASCII (tab to carriage return, and space): the
    /// table's search costs a few hundred instructions, and rich text asks for every character.
    package var hasWhiteSpaceProperty: Bool {
        let v = value
        guard v >= 0x80 else { return v == 0x20 || (0x09...0x0D).contains(v) }
        return properties.isWhitespace
    }

    /// Whether this character joins the one before it into one cluster (a combining mark, a
    /// variation selector, a zero-width joiner): shapers take the whole cluster at once.
    package var extendsCluster: Bool { value >= 0x300 && properties.isGraphemeExtend }

    /// Cluster-extending characters kept in a row: Unicode's stream-safe text format allows 30
    /// (UAX #15), and no writing system needs more; beyond them text is no longer legible, and
    /// shaping a cluster of 100,000 marks takes HarfBuzz many seconds.
    package static let longestClusterExtension = 30
}

extension String {
    /// This text as the outputs may carry it: line breaks written as newlines (`\r\n` and a lone
    /// `\r` become `\n`), every other character that is not `isAllowedInText` replaced by U+FFFD,
    /// combining marks beyond `longestClusterExtension` in a row left out, and every
    /// bidirectional embedding, override or isolate the text opens closed at its end
    /// (`BidiControls`), so no text can turn around what is written after it (a name ending in
    /// U+202E would otherwise reverse the rest of its line). The same string, not a copy, when
    /// there is nothing to change (the usual case).
    package var replacingDisallowedCharacters: String {
        var extensionRun = 0
        var bidi = BidiControls()
        let needsChange = unicodeScalars.contains { scalar in
            guard scalar.isAllowedInText else { return true }
            guard scalar.value >= 0x300 else {
                extensionRun = 0
                return false
            }
            bidi.read(scalar)
            extensionRun = scalar.extendsCluster ? extensionRun + 1 : 0
            return extensionRun > Unicode.Scalar.longestClusterExtension
        }
        guard needsChange || bidi.isOpen else { return self }
        var scalars = String.UnicodeScalarView()
        var previousWasReturn = false
        extensionRun = 0
        bidi = BidiControls()
        for scalar in unicodeScalars {
            defer { previousWasReturn = scalar == "\r" }
            extensionRun = scalar.extendsCluster ? extensionRun + 1 : 0
            if scalar == "\r" || scalar == "\n" {
                // A line break ends a paragraph, and with it every embedding (UAX #9, P1).
                scalars.append(contentsOf: bidi.closing)
                bidi = BidiControls()
                if scalar == "\r" || !previousWasReturn { scalars.append("\n") }
            } else if extensionRun <= Unicode.Scalar.longestClusterExtension {
                bidi.read(scalar)
                scalars.append(scalar.isAllowedInText ? scalar : "\u{FFFD}")
            }
        }
        scalars.append(contentsOf: bidi.closing)
        return String(scalars)
    }

    /// This text as a value set into other text (a template's placeholder): between FSI (U+2068)
    /// and PDI (U+2069) when it holds a bidirectional control, so its direction neither reaches
    /// nor takes from the words around it; the same string when it holds none.
    package var isolatingBidirectionalControls: String {
        guard unicodeScalars.contains(where: { BidiControls.isControl($0) }) else { return self }
        return "\u{2068}" + self + "\u{2069}"
    }
}

/// The bidirectional embeddings, overrides and isolates a text has opened and not closed (UAX #9):
/// what must be written after it so that it changes nothing beyond its end.
package struct BidiControls {
    private var open: [Unicode.Scalar] = []

    /// Nothing open.
    package init() {}

    /// Whether `scalar` opens or closes an embedding, override or isolate.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// Whether anything is open.
    package var isOpen: Bool { !open.isEmpty }

    /// Notes what `scalar` opens or closes.
    package mutating func read(_ scalar: Unicode.Scalar) {
        switch scalar.value {
        case 0x202A, 0x202B, 0x202D, 0x202E:
            // LRE, RLE, LRO, RLO: closed by PDF (U+202C). UAX #9 allows 125 levels; beyond, they are ignored.
            if open.count < 125 { open.append("\u{202C}") }
        case 0x2066, 0x2067, 0x2068:
            // LRI, RLI, FSI: closed by PDI (U+2069).
            if open.count < 125 { open.append("\u{2069}") }
        case 0x202C:
            // PDF closes the last embedding or override, not an isolate.
            if open.last == "\u{202C}" { open.removeLast() }
        case 0x2069:
            // PDI closes the last isolate and everything opened inside it.
            if let isolate = open.lastIndex(of: "\u{2069}") { open.removeSubrange(isolate...) }
        default:
            break
        }
    }

    /// The characters that close what is open, innermost first.
    package var closing: [Unicode.Scalar] { open.reversed() }
}

extension Unicode.Scalar {
    /// Whether this character steers how text around it is shown without being seen itself, so a
    /// terminal or a file manager could show something other than what is there: controls (C0,
    /// DEL, C1, which also start terminal escape sequences), bidirectional marks, embeddings,
    /// overrides and isolates (U+202E turns "gpj.exe" around), line and paragraph separators and
    /// the byte-order mark.
    package var isInvisibleControl: Bool {
        switch value {
        case 0..<0x20, 0x7F...0x9F: return true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029, 0xFEFF: return true
        default: return false
        }
    }
}

extension String {
    /// This text with every `isInvisibleControl` character written as an escape (`\n`, `\t`,
    /// `\u{1B}`, `\u{202E}`), for messages shown on a terminal or in a log: one line, shown as
    /// it is, whatever the input held.
    package var escapingInvisibleControls: String {
        guard unicodeScalars.contains(where: \.isInvisibleControl) else { return self }
        var result = ""
        for scalar in unicodeScalars {
            guard scalar.isInvisibleControl else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default: result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return result
    }
}
