/// `{name}` placeholders in texts Folio fills in: built-in sentence patterns ("{count} values")
/// and page header and footer texts ("Page {page} of {pages}").
///
/// A name is 1…32 ASCII letters; `{{` is a literal `{` (so a text can show "{page}" as written:
/// `{{page}`). Every scan is one pass: a `{` looks ahead at most 33 characters for its `}`.
extension String {
    /// The longest placeholder name looked for after a `{`.
    private static let longestPlaceholderName = 32

    /// This text with every `{name}` that `values` has replaced, in one pass: an inserted value is
    /// never searched again, `{{` becomes `{`, and other braces stay as written.
    package func fillingPlaceholders(_ values: [String: String]) -> String {
        guard utf8.contains(UInt8(ascii: "{")) else { return self }
        var result = ""
        result.reserveCapacity(utf8.count)
        forEachPlaceholderPart { part in
            switch part {
            case .literal(let text): result += text
            case .placeholder(let name, let written):
                if let value = values[String(name)] { result += value } else { result += written }
            }
        }
        return result
    }

    /// The `{word}` names in this text (letters only; `{{` and other braces are text).
    package var placeholderNames: [String] {
        var names: [String] = []
        forEachPlaceholderPart { part in
            if case .placeholder(let name, _) = part { names.append(String(name)) }
        }
        return names
    }

    /// This text with every `{` written as `{{`, so that filling placeholders shows it as it is:
    /// for values put into a header, footer or sentence pattern from elsewhere (a template's record).
    package var escapingPlaceholders: String {
        guard utf8.contains(UInt8(ascii: "{")) else { return self }
        return replacingOccurrences(of: "{", with: "{{")
    }

    /// A piece of a text with placeholders: literal text, or `{name}` (`written` is how it appears).
    private enum PlaceholderPart {
        case literal(Substring)
        case placeholder(name: Substring, written: Substring)
    }

    /// Calls `body` with the text's literal pieces and placeholders in order, in one pass.
    private func forEachPlaceholderPart(_ body: (PlaceholderPart) -> Void) {
        let bytes = utf8
        var literalStart = startIndex
        var index = startIndex
        let open = UInt8(ascii: "{")
        let close = UInt8(ascii: "}")
        while index < endIndex {
            guard bytes[index] == open else {
                index = bytes.index(after: index)
                continue
            }
            let next = bytes.index(after: index)
            if next < endIndex, bytes[next] == open {
                // `{{`: a literal brace.
                body(.literal(self[literalStart..<next]))
                index = bytes.index(after: next)
                literalStart = index
                continue
            }
            var end = next
            var length = 0
            while end < endIndex, length <= String.longestPlaceholderName, String.isASCIILetter(bytes[end]) {
                end = bytes.index(after: end)
                length += 1
            }
            if length > 0, length <= String.longestPlaceholderName, end < endIndex, bytes[end] == close {
                if literalStart < index { body(.literal(self[literalStart..<index])) }
                let after = bytes.index(after: end)
                body(.placeholder(name: self[next..<end], written: self[index..<after]))
                index = after
                literalStart = after
            } else {
                index = next
            }
        }
        if literalStart < endIndex { body(.literal(self[literalStart..<endIndex])) }
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }
}
