import FolioModel

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
                result.unicodeScalars.append(scalar.isAllowedInText ? scalar : "\u{FFFD}")
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
}
