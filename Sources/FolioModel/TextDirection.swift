/// The direction of a piece of text by its first strong character, as Pango and the Unicode
/// bidirectional algorithm (rules P2–P3) decide it: Hebrew, Arabic and other right-to-left scripts
/// are right to left, other letters left to right; digits and punctuation have no direction.
package enum TextDirection: Sendable, Hashable {
    case leftToRight, rightToLeft

    /// The direction of `text`'s first strong character; nil when it has none (only digits, signs, spaces).
    package static func of(_ text: String) -> TextDirection? {
        for scalar in text.unicodeScalars {
            if isRightToLeft(scalar) { return .rightToLeft }
            if scalar.properties.isAlphabetic { return .leftToRight }
        }
        return nil
    }

    /// The languages written right to left, by primary subtag: Arabic, Hebrew (and its old code),
    /// Persian, Urdu, Yiddish, Pashto, Sindhi, Uyghur, Dhivehi, Central Kurdish.
    package static let rightToLeftLanguages: Set<String> = ["ar", "he", "iw", "fa", "ur", "yi", "ps", "sd", "ug", "dv", "ckb"]

    /// The direction `language` (a BCP 47 tag) is written in.
    package static func of(language: String) -> TextDirection {
        rightToLeftLanguages.contains(Metadata.primaryLanguage(of: language)) ? .rightToLeft : .leftToRight
    }

    /// The direction a paragraph, list item or cell of `text` is set in: its own `language`'s, or
    /// the one its script leaves no doubt about (`PassageLanguage`), else its document's, whatever
    /// letter it starts with ("Metformin 500 ملغ" in an Arabic report runs right to left). The one
    /// rule of the PDF and the HTML.
    package static func ofPassage(
        _ text: String, language: String? = nil, documentLanguage: String, documentRightToLeft: Bool
    ) -> TextDirection {
        (language ?? PassageLanguage.of(text, documentLanguage: documentLanguage)).map { of(language: $0) }
            ?? (documentRightToLeft ? .rightToLeft : .leftToRight)
    }

    /// Whether `scalar` belongs to a right-to-left script (Hebrew, Arabic, Syriac, Thaana, N'Ko,
    /// Samaritan, Mandaic and their presentation forms and supplements).
    static func isRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF:
            // Arabic-Indic digits and marks are weak, not strong.
            return scalar.properties.isAlphabetic
        default: return false
        }
    }
}
