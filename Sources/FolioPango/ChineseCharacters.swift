/// Where a text's Chinese characters are, so that Pango shapes them as Chinese: in a document of a
/// language written without them (English, Arabic…), fontconfig would otherwise give every Han
/// character the first CJK face it lists, Noto Sans CJK JP, whose forms of many characters are
/// Japanese (直, 骨, 角). Text with kana or Hangul is Japanese or Korean, whose Han characters are
/// theirs: it has none.
enum ChineseCharacters {
    /// The byte ranges (UTF-8) of `text`'s runs of Chinese characters and the punctuation between
    /// them, or none when the text holds kana or Hangul, or no Chinese character.
    static func ranges(in text: String) -> [Range<Int>] {
        // Most text has no byte that starts a CJK character (U+2E80 and above start with 0xE2 or more).
        guard text.utf8.contains(where: { $0 >= 0xE2 }) else { return [] }
        var ranges: [Range<Int>] = []
        var start: Int?
        var offset = 0
        for scalar in text.unicodeScalars {
            let length = UTF8.width(scalar)
            switch kind(of: scalar) {
            case .kanaOrHangul: return []
            case .chinese: if start == nil { start = offset }
            case .punctuation: break
            case .other:
                if let open = start { ranges.append(open..<offset) }
                start = nil
            }
            offset += length
        }
        if let open = start { ranges.append(open..<offset) }
        return ranges
    }

    private enum Kind { case chinese, punctuation, kanaOrHangul, other }

    private static func kind(of scalar: Unicode.Scalar) -> Kind {
        switch scalar.value {
        case 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F, 0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF: .kanaOrHangul
        case 0x2E80...0x2FDF, 0x3005...0x3007, 0x3021...0x3029, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF,
            0x20000...0x3134F:
            .chinese
        // Ideographic punctuation and full-width forms, kept with the characters around them.
        case 0x3000...0x303F, 0xFF00...0xFF65: .punctuation
        default: .other
        }
    }
}
