import FolioData
import FolioModel
import Foundation

/// How a result reads against what is normal, in words and, when it is not normal, a symbol (never
/// colour alone): from the Observation's `interpretation` (HL7 v3 ObservationInterpretation, or any
/// other coding's words) when it has one — as the source says, even where its value and range seem
/// to say otherwise — else from its value against its reference range.
struct FHIRResultFlag: Equatable {
    /// The interpretation in words: "High", "Critically low", "Normal", "Negative".
    let word: String
    /// A symbol printed before the word when the result is not normal: ↑, ↓, ↑↑, ↓↓, !, !!.
    let symbol: String?
    /// The v3 code it stands for (H, L, HH, LL, A, AA, N, NEG, …), when it is one.
    let code: String?
    /// Whether the result is outside what is normal (flagged).
    let abnormal: Bool

    /// The flag as a summary's column shows it: "↑ High", "Normal".
    var text: String { symbol.map { "\($0) \(word)" } ?? word }

    /// The symbols of the v3 codes that say a result is not normal.
    static let symbols: [String: String] = [
        "H": "↑", "L": "↓", "HH": "↑↑", "LL": "↓↓", "HU": "↑↑", "LU": "↓↓", "HX": "↑", "LX": "↓", "A": "!", "AA": "!!", ">": "↑", "<": "↓",
        "POS": "!", "DET": "!", "R": "!", "RR": "!", "EX": "!", "I": "!", "NS": "!", "W": "!", "U": "↑", "D": "↓", "CAR": "!",
    ]

    /// The v3 codes that say a result is normal or not a finding (no symbol).
    static let normalCodes: Set<String> = ["N", "NEG", "ND", "S", "IND", "NR", "E", "EXP", "B", "SDD", "IE", "WR", "UNE", "SYN-S", "SYN-R"]

    /// The flag of an Observation (or a component), and whether its range cannot be used (its low above
    /// its high: no flag is computed from it). `interpretations` are its concepts (an array or one object).
    static func of(
        interpretations: [TreeValue], value: Double?, low: Double?, high: Double?, words: FHIRWords
    ) -> (flag: FHIRResultFlag?, badRange: Bool) {
        let badRange = low != nil && high != nil && (low ?? 0) > (high ?? 0)
        var normal: FHIRResultFlag?
        var described: FHIRResultFlag?
        for concept in interpretations {
            for coding in FHIRResource.codings(concept) {
                let code = coding.code.uppercased()
                let isV3 = coding.system.map { words.code(code, of: $0) != nil || $0.contains("ObservationInterpretation") } ?? true
                guard isV3, let word = words.code(code, of: "interpretation") else { continue }
                if let symbol = symbols[code] { return (FHIRResultFlag(word: word, symbol: symbol, code: code, abnormal: true), badRange) }
                if normalCodes.contains(code), normal == nil {
                    normal = FHIRResultFlag(word: word, symbol: nil, code: code, abnormal: false)
                }
            }
            if described == nil, let word = FHIRText.concept(concept, words: words) {
                described = FHIRResultFlag(word: word, symbol: nil, code: nil, abnormal: false)
            }
        }
        if let normal { return (normal, badRange) }
        if let described { return (described, badRange) }
        guard let value, !badRange else { return (nil, badRange) }
        if let high, value > high { return (flag("H", words), false) }
        if let low, value < low { return (flag("L", words), false) }
        return (nil, false)
    }

    /// The flag of a v3 code.
    static func flag(_ code: String, _ words: FHIRWords) -> FHIRResultFlag {
        FHIRResultFlag(
            word: words.code(code, of: "interpretation") ?? code, symbol: symbols[code], code: code, abnormal: symbols[code] != nil)
    }
}
