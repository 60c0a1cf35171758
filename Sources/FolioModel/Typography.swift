/// How running text is set in a language, beyond its words: a number is kept on the line of the
/// unit after it ("400 mg", "37.5 °C", "12 %"); straight quotes become the language's typographic
/// quotes and apostrophes; French gets its narrow no-break space before `;`, `:`, `!`, `?` and
/// inside « ». Both outputs set text through here, so a PDF and its HTML agree.
package enum Typography {
    /// Units a number is kept with (compared without case after the number and one space).
    static let units: Set<String> = [
        "mg", "g", "kg", "mcg", "µg", "μg", "ng", "ml", "l", "dl", "cl", "mmol", "µmol", "μmol", "mol", "meq", "mmhg", "mm",
        "cm", "m", "km", "bpm", "kcal", "cal", "h", "hr", "hrs", "min", "mins", "s", "sec", "ms", "iu", "ui", "u", "units",
        "unités", "einheiten", "%", "‰", "°c", "°f", "°", "kj", "lb", "lbs", "oz", "in", "ft", "mph", "km/h", "steps", "pas",
        "schritte", "pasos", "passi", "passos", "x",
    ]

    /// `runs` set for `language` (its primary subtag, such as `fr`): numbers with their units, and,
    /// unless `quotes` is false (table cells hold data, where a `"` may mean inches), typographic
    /// quotes and French spacing. Addresses are left as they are.
    package static func set(_ runs: [TextRun], language: String, quotes: Bool = true) -> [TextRun] {
        var previous: Unicode.Scalar = " "
        var openDouble = false
        return runs.map { run in
            guard !(run.link != nil && run.text.contains("://")) else {
                previous = run.text.unicodeScalars.last ?? previous
                return run
            }
            var copy = run
            copy.text = set(run.text, language: language, quotes: quotes, previous: &previous, openDouble: &openDouble)
            return copy
        }
    }

    /// `text` set for `language`; `previous` is the character before it (in the run before). Works on
    /// Unicode scalars (every mark it looks at is one), once, only when `needsWork` finds something.
    static func set(_ text: String, language: String, quotes: Bool, previous: inout Unicode.Scalar, openDouble: inout Bool) -> String {
        let french = language == "fr"
        let fullWidth = language == "zh" || language == "ja"
        guard needsWork(text, quotes: quotes, french: french || fullWidth, fullWidth: fullWidth) else {
            previous = text.unicodeScalars.last ?? previous
            return text
        }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        out.reserveCapacity(scalars.count + 8)
        func isLetter(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.isAlphabetic }
        func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.numericType != nil }
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            let next: Unicode.Scalar? = index + 1 < scalars.count ? scalars[index + 1] : nil
            switch scalar {
            case _ where fullWidth && isIdeographic(previous) && ",.:;!?".unicodeScalars.contains(scalar):
                // After Chinese or Japanese, punctuation is full width: 。，：；！？ (Japanese commas 、).
                out.append(fullWidthMark(scalar, language: language))
                if next == " " { index += 1 }
            case " " where isDigit(previous) && next != nil && startsUnit(scalars, at: index + 1):
                out.append("\u{00A0}")
            case " " where next == "—" || next == "–":
                // A dash stays on the line of the word before it: a line may end with it, never start with it.
                out.append("\u{00A0}")
            case " " where french && next.map({ ";:!?»".unicodeScalars.contains($0) }) == true:
                out.append("\u{202F}")
            case _
            where french && ";!?".unicodeScalars.contains(scalar)
                && (isLetter(previous) || isDigit(previous) || previous == ")" || previous == "»"):
                // (One pattern: a `where` after several would guard only the last.)
                out.append("\u{202F}")
                out.append(scalar)
            case ":" where french && isLetter(previous) && next == " ":
                out.append("\u{202F}")
                out.append(":")
            case "\"" where quotes:
                let opening = !openDouble && (previous.properties.isWhitespace || "([{—–-/".unicodeScalars.contains(previous))
                openDouble = opening
                out.append(contentsOf: quote(opening: opening, language: language).unicodeScalars)
            case "'" where quotes:
                // An apostrophe (l'essentiel, don't) or a closing single quote: ’; an opening one: ‘.
                out.append(isLetter(previous) || isDigit(previous) || previous == "." ? "\u{2019}" : "\u{2018}")
            case "«" where french && next == " ":
                out.append("«")
                out.append("\u{202F}")
                index += 1
            default:
                out.append(scalar)
            }
            previous = scalar
            index += 1
        }
        return String(out)
    }

    /// Whether `text` holds anything this would change: a digit before a space, a quote, or French punctuation.
    private static func needsWork(_ text: String, quotes: Bool, french: Bool, fullWidth: Bool) -> Bool {
        var afterDigit = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): afterDigit = true
            case UInt8(ascii: " "):
                if afterDigit { return true }
            case 0xE2: return true  // an en or em dash (or another character of U+2000–U+2FFF)
            case UInt8(ascii: ","), UInt8(ascii: "."): if fullWidth { return true } else { afterDigit = false }
            case UInt8(ascii: "\""), UInt8(ascii: "'"): if quotes { return true } else { afterDigit = false }
            case UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "!"), UInt8(ascii: "?"), 0xC2:  // 0xC2: « and »
                if french { return true } else { afterDigit = false }
            default: afterDigit = false
            }
        }
        return false
    }

    /// Whether `scalar` is a Chinese character or Japanese kana (punctuation after it is full width).
    private static func isIdeographic(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3134F: return true
        default: return false
        }
    }

    /// The full-width form of an ASCII punctuation mark in `language` (Japanese writes 、 for a comma).
    private static func fullWidthMark(_ scalar: Unicode.Scalar, language: String) -> Unicode.Scalar {
        switch scalar {
        case ",": return language == "ja" ? "、" : "，"
        case ".": return "。"
        case ":": return "："
        case ";": return "；"
        case "!": return "！"
        default: return "？"
        }
    }

    /// Whether a unit word starts at `index` (ending at a space, punctuation or the text's end).
    private static func startsUnit(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        var end = index
        while end < scalars.count, end - index <= 8, !scalars[end].properties.isWhitespace,
            !",;.)!?".unicodeScalars.contains(scalars[end])
        {
            end += 1
        }
        guard end > index, end - index <= 8 else { return false }
        let word = String(String.UnicodeScalarView(scalars[index..<end])).lowercased()
        if units.contains(word) { return true }
        // "mmol/L", "mL/min", "mg/dL": a unit before a slash.
        if let slash = word.firstIndex(of: "/") { return units.contains(String(word[..<slash])) }
        return false
    }

    /// The double quote `language` opens or closes with.
    private static func quote(opening: Bool, language: String) -> String {
        switch language {
        case "fr": return opening ? "«\u{202F}" : "\u{202F}»"
        case "de": return opening ? "„" : "“"
        case "es", "it", "pt": return opening ? "«" : "»"
        case "nl": return opening ? "“" : "”"
        default: return opening ? "“" : "”"
        }
    }
}
