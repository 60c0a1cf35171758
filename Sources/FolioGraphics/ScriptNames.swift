/// The writing systems a character belongs to, named as a person installing a font would look for
/// them ("Devanagari", "Thai", "Chinese, Japanese or Korean"): for a warning about characters no
/// installed font can draw.
package enum ScriptNames {
    /// Unicode blocks by the script they hold (the scripts care teams meet; others by their block).
    private static let blocks: [(range: ClosedRange<UInt32>, name: String)] = [
        (0x0370...0x03FF, "Greek"), (0x1F00...0x1FFF, "Greek"), (0x0400...0x052F, "Cyrillic"), (0x0530...0x058F, "Armenian"),
        (0x0590...0x05FF, "Hebrew"), (0xFB1D...0xFB4F, "Hebrew"), (0x0600...0x06FF, "Arabic"), (0x0750...0x077F, "Arabic"),
        (0x08A0...0x08FF, "Arabic"), (0xFB50...0xFDFF, "Arabic"), (0xFE70...0xFEFF, "Arabic"), (0x0700...0x074F, "Syriac"),
        (0x0780...0x07BF, "Thaana"), (0x0900...0x097F, "Devanagari"), (0x0980...0x09FF, "Bengali"), (0x0A00...0x0A7F, "Gurmukhi"),
        (0x0A80...0x0AFF, "Gujarati"), (0x0B00...0x0B7F, "Oriya"), (0x0B80...0x0BFF, "Tamil"), (0x0C00...0x0C7F, "Telugu"),
        (0x0C80...0x0CFF, "Kannada"), (0x0D00...0x0D7F, "Malayalam"), (0x0D80...0x0DFF, "Sinhala"), (0x0E00...0x0E7F, "Thai"),
        (0x0E80...0x0EFF, "Lao"), (0x0F00...0x0FFF, "Tibetan"), (0x1000...0x109F, "Myanmar"), (0x10A0...0x10FF, "Georgian"),
        (0x1100...0x11FF, "Korean"), (0xAC00...0xD7AF, "Korean"), (0x3130...0x318F, "Korean"), (0x1200...0x139F, "Ethiopic"),
        (0x13A0...0x13FF, "Cherokee"), (0x1780...0x17FF, "Khmer"), (0x1800...0x18AF, "Mongolian"),
        (0x3040...0x30FF, "Japanese kana"), (0x2E80...0x2FDF, "Chinese, Japanese or Korean"),
        (0x3000...0x303F, "Chinese, Japanese or Korean"),
        (0x3400...0x4DBF, "Chinese, Japanese or Korean"), (0x4E00...0x9FFF, "Chinese, Japanese or Korean"),
        (0xF900...0xFAFF, "Chinese, Japanese or Korean"), (0xFF00...0xFFEF, "Chinese, Japanese or Korean"),
        (0x20000...0x3FFFF, "Chinese, Japanese or Korean"), (0x1F300...0x1FAFF, "emoji"), (0x2600...0x27BF, "symbols"),
    ]

    /// The script of `scalar`, or its code point when Folio names no script for it.
    package static func name(of scalar: Unicode.Scalar) -> String {
        if let block = blocks.first(where: { $0.range.contains(scalar.value) }) { return block.name }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// The scripts of `scalars`, each once, in order of first appearance, joined ("Devanagari, Thai").
    package static func names(of scalars: [Unicode.Scalar]) -> String {
        var seen: [String] = []
        for scalar in scalars {
            let name = name(of: scalar)
            if !seen.contains(name) { seen.append(name) }
        }
        return seen.prefix(4).joined(separator: ", ")
    }
}
