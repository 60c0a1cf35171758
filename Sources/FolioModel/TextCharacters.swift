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

extension String {
    /// This text with every character that is not `isAllowedInText` replaced by U+FFFD;
    /// the same string, not a copy, when there is none (the usual case).
    package var replacingDisallowedCharacters: String {
        guard unicodeScalars.contains(where: { !$0.isAllowedInText }) else { return self }
        return String(String.UnicodeScalarView(unicodeScalars.map { $0.isAllowedInText ? $0 : "\u{FFFD}" }))
    }
}
