import FolioData
import FolioModel
import Foundation

/// Whether a result is outside its reference range, in words and a symbol (never colour alone):
/// from the Observation's `interpretation` (HL7 v3 ObservationInterpretation) when it has one,
/// else from its value against its reference range.
struct FHIRResultFlag: Equatable {
    /// The flag in words: "High", "Critically low", "Abnormal".
    let word: String
    /// A symbol printed beside the word: ↑, ↓, ↑↑, ↓↓, !, !!.
    let symbol: String
    /// The interpretation code it stands for (H, L, HH, LL, A, AA).
    let code: String

    /// The flags of the interpretation codes that say a result is not normal.
    static let byCode: [String: FHIRResultFlag] = [
        "H": FHIRResultFlag(word: "High", symbol: "↑", code: "H"),
        "L": FHIRResultFlag(word: "Low", symbol: "↓", code: "L"),
        "HH": FHIRResultFlag(word: "Critically high", symbol: "↑↑", code: "HH"),
        "LL": FHIRResultFlag(word: "Critically low", symbol: "↓↓", code: "LL"),
        "HU": FHIRResultFlag(word: "Significantly high", symbol: "↑↑", code: "HU"),
        "LU": FHIRResultFlag(word: "Significantly low", symbol: "↓↓", code: "LU"),
        "A": FHIRResultFlag(word: "Abnormal", symbol: "!", code: "A"),
        "AA": FHIRResultFlag(word: "Critically abnormal", symbol: "!!", code: "AA"),
        ">": FHIRResultFlag(word: "Above the measurable range", symbol: "↑", code: ">"),
        "<": FHIRResultFlag(word: "Below the measurable range", symbol: "↓", code: "<"),
        "POS": FHIRResultFlag(word: "Positive", symbol: "!", code: "POS"),
        "DET": FHIRResultFlag(word: "Detected", symbol: "!", code: "DET"),
        "R": FHIRResultFlag(word: "Resistant", symbol: "!", code: "R"),
    ]

    /// The v3 codes that say a result is normal (no flag).
    static let normalCodes: Set<String> = ["N", "NEG", "ND", "S", "IND", "NR"]

    /// The flag of an Observation (or a component): its interpretation's first code that is not
    /// normal; without one, its number against the reference range's low and high.
    static func of(interpretation: [TreeValue], value: Double?, low: Double?, high: Double?) -> FHIRResultFlag? {
        var sawNormal = false
        for concept in interpretation {
            for coding in FHIRResource.codings(concept) {
                if let flag = byCode[coding.code.uppercased()] { return flag }
                if normalCodes.contains(coding.code.uppercased()) { sawNormal = true }
            }
        }
        if sawNormal { return nil }
        guard let value else { return nil }
        if let high, value > high { return byCode["H"] }
        if let low, value < low { return byCode["L"] }
        return nil
    }
}
