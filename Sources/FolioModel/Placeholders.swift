/// `{name}` placeholders in texts Folio fills in: built-in sentence patterns ("{count} values")
/// and page header and footer texts ("Page {page} of {pages}").
extension String {
    /// This text with every `{name}` that `values` has replaced, in one pass: an inserted value is
    /// never searched again, and other braces stay as written.
    package func fillingPlaceholders(_ values: [String: String]) -> String {
        var result = ""
        var rest = self[...]
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let name = rest.index(after: open)
            if let close = rest[name...].firstIndex(of: "}"), let value = values[String(rest[name..<close])] {
                result += value
                rest = rest[rest.index(after: close)...]
            } else {
                result += "{"
                rest = rest[name...]
            }
        }
        return result + rest
    }

    /// The `{word}` names in this text (letters only; other braces are text).
    package var placeholderNames: [String] {
        var names: [String] = []
        var rest = self[...]
        while let open = rest.firstIndex(of: "{") {
            let start = rest.index(after: open)
            guard let close = rest[start...].firstIndex(of: "}") else { break }
            let name = rest[start..<close]
            if !name.isEmpty, name.allSatisfy({ $0.isASCII && $0.isLetter }) { names.append(String(name)) }
            rest = rest[start...]
        }
        return names
    }
}
