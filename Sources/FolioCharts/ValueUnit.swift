import FolioModel

/// The unit a chart's values are in, for its text alternative ("lowest value 4.1 mmol/L"): the
/// axis's `unit`, else the one a series' or axis's title gives in parentheses or as a whole
/// ("Weight (kg)", "mmol/L"), where it reads as a unit and not as words or a range ("Score (0–10)").
enum ValueUnit {
    /// Units recognised as a whole title or in parentheses; others need a "/" or "°" to be read as one.
    private static let known: Set<String> = [
        "%", "kg", "g", "mg", "µg", "mcg", "lb", "lbs", "oz", "st", "cm", "mm", "m", "km", "in", "ft", "h", "hr", "hrs",
        "min", "s", "ms", "ml", "mL", "l", "L", "dl", "dL", "bpm", "mmHg", "kPa", "IU", "U", "kcal", "cal", "kJ",
    ]

    /// The unit of values drawn against `axis`, named `seriesTitle`.
    static func of(seriesTitle: String?, axis: ChartAxis?) -> String? {
        if let unit = axis?.unit?.trimmingCharacters(in: .whitespaces), !unit.isEmpty { return unit }
        return seriesTitle.flatMap(unit(inTitle:)) ?? axis?.title.flatMap(unit(inTitle:))
    }

    /// The unit `title` names: its last parenthesised part ("Weight (kg)"), or the whole title.
    static func unit(inTitle title: String) -> String? {
        let trimmed = title.trimmingCharacters(in: .whitespaces)
        if trimmed.hasSuffix(")"), let open = trimmed.lastIndex(of: "(") {
            let inner = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
            return readsAsUnit(String(inner).trimmingCharacters(in: .whitespaces))
        }
        return readsAsUnit(trimmed)
    }

    /// `text` when it is a unit: a known one, or a short one with "/" or "°" and no spaces or digits
    /// but exponents ("mmol/L", "mg/dL", "°C", "mL/min/1.73m²" is not one).
    private static func readsAsUnit(_ text: String) -> String? {
        if known.contains(text) { return text }
        guard text.count <= 12, text.contains("/") || text.contains("°"),
            !text.contains(where: { $0 == " " || $0.isNumber && $0.isASCII })
        else { return nil }
        return text
    }

    /// `value` (already written) followed by `unit`: "4.1 mmol/L", "62%"; the value alone without one
    /// or when the format already wrote it (a percentage).
    static func appending(_ unit: String?, to value: String, format: ValueFormat?) -> String {
        guard let unit else { return value }
        switch format {
        case .percent?, .date?, .duration?: return value
        default: return unit == "%" ? value + unit : value + "\u{00A0}" + unit
        }
    }
}
