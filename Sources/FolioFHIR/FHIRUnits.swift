import FolioModel
import Foundation

/// UCUM units Folio converts between: each unit's dimension and its factor (and offset, for
/// temperatures) to the dimension's base unit. A unit not here is reported, never guessed.
enum FHIRUnits {
    /// What a unit measures and how it relates to its dimension's base unit: base = value × factor + offset.
    struct Unit: Sendable {
        let dimension: String
        let factor: Double
        let offset: Double
    }

    /// UCUM codes (case-sensitive, as in `Quantity.code`).
    static let ucum: [String: Unit] = {
        var table: [String: Unit] = [:]
        func add(_ dimension: String, _ units: [(String, Double)]) {
            for (code, factor) in units { table[code] = Unit(dimension: dimension, factor: factor, offset: 0) }
        }
        add(
            "mass",
            [
                ("kg", 1), ("g", 0.001), ("mg", 1e-6), ("[lb_av]", 0.453_592_37), ("[oz_av]", 0.028_349_523_125),
                ("[stone_av]", 6.350_293_18),
            ])
        add("length", [("m", 1), ("cm", 0.01), ("mm", 0.001), ("[in_i]", 0.0254), ("[ft_i]", 0.3048)])
        add(
            "pressure",
            [("mm[Hg]", 1), ("kPa", 7.500_615_758_456_563), ("Pa", 0.007_500_615_758_456_563), ("cm[H2O]", 0.735_559_121_618_183)])
        add(
            "rate",
            [
                ("/min", 1), ("1/min", 1), ("{beats}/min", 1), ("{beat}/min", 1), ("{breaths}/min", 1), ("{breath}/min", 1),
                ("{counts}/min", 1), ("/s", 60), ("/h", 1.0 / 60),
            ])
        add("massConcentration", [("mg/dL", 1), ("g/L", 100), ("mg/L", 0.1), ("g/dL", 1000)])
        add("substanceConcentration", [("mmol/L", 1), ("umol/L", 0.001), ("mol/L", 1000)])
        add("fraction", [("%", 1), ("1", 100)])
        add("count", [("{steps}", 1), ("{step}", 1), ("{count}", 1), ("{Steps}", 1), ("/d", 1), ("{steps}/d", 1), ("/(24.h)", 1)])
        add("score", [("{score}", 1), ("{Score}", 1), ("{scale}", 1)])
        add("time", [("s", 1), ("min", 60), ("h", 3600), ("d", 86_400)])
        table["Cel"] = Unit(dimension: "temperature", factor: 1, offset: 0)
        table["K"] = Unit(dimension: "temperature", factor: 1, offset: -273.15)
        table["[degF]"] = Unit(dimension: "temperature", factor: 5.0 / 9.0, offset: -32 * 5.0 / 9.0)
        return table
    }()

    /// Unit texts seen in exports that are not UCUM codes (`Quantity.unit` without a UCUM `code`).
    static let aliases: [String: String] = [
        "lb": "[lb_av]", "lbs": "[lb_av]", "pound": "[lb_av]", "pounds": "[lb_av]", "oz": "[oz_av]",
        "kilogram": "kg", "kilograms": "kg", "kgs": "kg", "gram": "g", "grams": "g",
        "°f": "[degF]", "degf": "[degF]", "f": "[degF]", "fahrenheit": "[degF]", "°c": "Cel", "degc": "Cel", "c": "Cel",
        "celsius": "Cel", "cel": "Cel",
        "mmhg": "mm[Hg]", "mm hg": "mm[Hg]", "kpa": "kPa",
        "bpm": "/min", "beats/minute": "/min", "beats/min": "/min", "beats per minute": "/min", "/min": "/min",
        "breaths/minute": "/min", "breaths/min": "/min", "per minute": "/min",
        "mg/dl": "mg/dL", "mmol/l": "mmol/L", "%": "%", "percent": "%",
        "steps": "{steps}", "step": "{steps}", "count": "{count}", "score": "{score}",
        "in": "[in_i]", "inch": "[in_i]", "inches": "[in_i]", "cm": "cm",
    ]

    /// The grams per mole of glucose, to convert mmol/L to mg/dL (1 mmol/L = 18.0156 mg/dL).
    static let glucoseGramsPerMole = 180.156

    /// The UCUM unit of a Quantity: its `code` when its system is UCUM (or missing), else its `unit` text
    /// when that is a UCUM code or a known alias; nil when neither is known. `raw` is what it said.
    static func unit(code: String?, system: String?, text: String?) -> (ucum: String?, raw: String) {
        if let code, !code.isEmpty, system == nil || system == "http://unitsofmeasure.org" {
            if ucum[code] != nil { return (code, code) }
            if let alias = aliases[code.lowercased()] { return (alias, code) }
            // UCUM's annotations (`{…}`) do not change a unit: `%{saturation}` is %, `{count}/min` is /min.
            if let plain = withoutAnnotations(code), ucum[plain] != nil { return (plain, code) }
            return (nil, code)
        }
        if let text, !text.isEmpty {
            if ucum[text] != nil { return (text, text) }
            if let alias = aliases[text.lowercased().trimmingCharacters(in: .whitespaces)] { return (alias, text) }
            return (nil, text)
        }
        return (nil, code ?? "")
    }

    /// A UCUM code with its annotations removed (`%{saturation}` → `%`), or nil when it has none
    /// or they are not well formed.
    static func withoutAnnotations(_ code: String) -> String? {
        guard code.contains("{"), code.utf8.count <= 200 else { return nil }
        var plain = ""
        var depth = 0
        for character in code {
            switch character {
            case "{": depth += 1
            case "}":
                guard depth > 0 else { return nil }
                depth -= 1
            default: if depth == 0 { plain.append(character) }
            }
            guard depth <= 1 else { return nil }
        }
        guard depth == 0 else { return nil }
        return plain.isEmpty ? nil : plain
    }

    /// `value` in `from` converted to `to`, or nil when they measure different things. Glucose also
    /// converts between mmol/L and mg/dL (`glucose: true`).
    static func convert(_ value: Double, from: String, to: String, glucose: Bool = false) -> Double? {
        if from == to { return value }
        guard let source = ucum[from], let target = ucum[to] else { return nil }
        var base = value * source.factor + source.offset
        var dimension = source.dimension
        if glucose, dimension != target.dimension {
            if dimension == "substanceConcentration", target.dimension == "massConcentration" {
                base = base * glucoseGramsPerMole / 10  // mmol/L × g/mol = mg/L; ÷ 10 = mg/dL
                dimension = target.dimension
            } else if dimension == "massConcentration", target.dimension == "substanceConcentration" {
                base = base * 10 / glucoseGramsPerMole
                dimension = target.dimension
            }
        }
        guard dimension == target.dimension else { return nil }
        return Self.tidy((base - target.offset) / target.factor)
    }

    /// `value` with the floating-point noise of a conversion removed (12 significant digits).
    static func tidy(_ value: Double) -> Double {
        guard value != 0, value.isFinite else { return value }
        let magnitude = (log10(abs(value))).rounded(.down)
        let scale = pow(10, 11 - magnitude)
        guard scale.isFinite, scale > 0 else { return value }
        let tidied = (value * scale).rounded() / scale
        return tidied.isFinite ? tidied : value
    }
}
