/// The language of a passage written in another script than its document's, where the script
/// leaves no doubt: Arabic script in an English report is read as Arabic, Hangul as Korean, kana
/// as Japanese, Chinese characters alone as Chinese, Hebrew, Greek, Thai, Devanagari. A screen
/// reader switches its voice by it (`/Lang` in the PDF, `lang` in HTML). Text in the document's
/// script, or mixed beyond doubt, has none.
package enum PassageLanguage {
    /// The language of `text` when it differs from `documentLanguage` (a BCP 47 tag), or nil.
    package static func of(_ text: String, documentLanguage: String) -> String? {
        // Most text is ASCII: nothing to find, found in one pass over the bytes.
        guard text.utf8.contains(where: { $0 >= 0x80 }) else { return nil }
        var counts: [String: Int] = [:]
        var letters = 0
        for scalar in text.unicodeScalars where scalar.properties.isAlphabetic {
            letters += 1
            if let language = language(of: scalar) { counts[language, default: 0] += 1 }
        }
        guard letters > 0 else { return nil }
        var best: (language: String, count: Int)?
        for (language, count) in counts where count > (best?.count ?? 0) { best = (language, count) }
        // Japanese text mixes kana with Chinese characters.
        if let kana = counts["ja"], kana > 0 { best = ("ja", kana + (counts["zh"] ?? 0)) }
        guard let best, Double(best.count) >= 0.6 * Double(letters) else { return nil }
        let primary = Metadata.primaryLanguage(of: documentLanguage)
        if primary == best.language { return nil }
        // Chinese characters are also Japanese and Korean text's; Arabic script is also Persian's and Urdu's.
        if best.language == "zh", ["ja", "ko"].contains(primary) { return nil }
        if best.language == "ar", ["fa", "ur", "ps", "ku", "sd"].contains(primary) { return nil }
        return best.language
    }

    /// The language a letter's script is obviously written in, or nil (Latin, Cyrillic and others
    /// serve many languages).
    private static func language(of scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x0600...0x06FF, 0x0750...0x077F, 0x08A0...0x08FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF: return "ar"
        case 0x0590...0x05FF, 0xFB1D...0xFB4F: return "he"
        case 0x0370...0x03FF, 0x1F00...0x1FFF: return "el"
        case 0x0E00...0x0E7F: return "th"
        case 0x0900...0x097F: return "hi"
        case 0x3040...0x30FF, 0x31F0...0x31FF: return "ja"
        case 0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF: return "ko"
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3134F: return "zh"
        default: return nil
        }
    }
}
