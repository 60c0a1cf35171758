/// Escaping for text and attribute values. Only the `HTML` and `CSS` types call it:
/// a document string reaches the output through their interpolations, never by hand.
enum HTMLEscaping {
    /// `&`, `<`, `>`, `"` and `'` replaced by character references; characters that
    /// HTML does not allow (controls, noncharacters such as U+FFFE) replaced by U+FFFD.
    static func escape(_ text: String, into result: inout String) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default:
                result.unicodeScalars.append(isAllowed(scalar) ? scalar : "\u{FFFD}")
            }
        }
    }

    /// `text` escaped, as a new string.
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        escape(text, into: &result)
        return result
    }

    /// `text` with the characters HTML does not allow replaced by U+FFFD, nothing escaped:
    /// for values a Mustache shell escapes itself.
    static func allowedCharacters(_ text: String) -> String {
        guard !text.unicodeScalars.allSatisfy(isAllowed) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { isAllowed($0) ? $0 : "\u{FFFD}" }))
    }

    /// Whether HTML text may contain `scalar`: not a control other than tab and newline,
    /// not a noncharacter (U+FDD0…U+FDEF, U+xFFFE, U+xFFFF).
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x20 { return v == 0x0A || v == 0x09 }
        if (0x7F...0x9F).contains(v) || (0xFDD0...0xFDEF).contains(v) { return false }
        return v & 0xFFFE != 0xFFFE
    }
}
