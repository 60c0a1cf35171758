import FolioModel

/// Escaping for XML and HTML text and attribute values. Only the types that write markup
/// call it (FolioHTML's `HTML` and `CSS`, FolioPDF's `XMLText`, FolioGraphics' `SanitizedSVG`): a document string reaches
/// the output through their interpolations, never by hand.
package enum MarkupEscaping {
    /// `&`, `<`, `>`, `"` and `'` replaced by character references; `\r\n` and `\r` written as
    /// newlines; characters that HTML and XML do not allow (other controls, noncharacters such as
    /// U+FFFE) replaced by U+FFFD; combining marks beyond `longestClusterExtension` in a row left
    /// out, and the bidirectional embeddings, overrides and isolates it opens closed at its end
    /// (and at each line break), as `String.replacingDisallowedCharacters` does: a value's
    /// U+202E cannot turn around the text after it.
    package static func escape(_ text: String, into result: inout String) {
        // Most strings (numbers, labels) are printable ASCII without a character to replace:
        // they are appended whole.
        if text.utf8.allSatisfy({ byte in
            byte >= 0x20 && byte < 0x7F && byte != 0x26 && byte != 0x3C && byte != 0x3E && byte != 0x22 && byte != 0x27
        }) {
            result += text
            return
        }
        var previousWasReturn = false
        var extensionRun = 0
        var bidi = BidiControls()
        for scalar in text.unicodeScalars {
            defer { previousWasReturn = scalar == "\r" }
            if scalar.value >= 0x300 {
                extensionRun = scalar.extendsCluster ? extensionRun + 1 : 0
                if extensionRun > Unicode.Scalar.longestClusterExtension { continue }
                bidi.read(scalar)
            } else {
                extensionRun = 0
                if scalar == "\r" || scalar == "\n", bidi.isOpen {
                    result.unicodeScalars.append(contentsOf: bidi.closing)
                    bidi = BidiControls()
                }
            }
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            // A line break written `\r\n` or `\r` is a newline.
            case "\r": result += "\n"
            case "\n": if !previousWasReturn { result += "\n" }
            default:
                result.unicodeScalars.append(scalar.isAllowedInText ? scalar : "\u{FFFD}")
            }
        }
        if bidi.isOpen { result.unicodeScalars.append(contentsOf: bidi.closing) }
    }

    /// `text` escaped, as a new string.
    package static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        escape(text, into: &result)
        return result
    }
}
