import FolioModel
import Foundation

/// The vital signs and measures a FHIR record names (`series.heartRate`): their LOINC codes and
/// canonical UCUM unit. Any other coded observation is `codes["SYSTEM|CODE"]` in its own unit.
enum FHIRSeriesCatalog {
    /// A named series.
    struct Series: Sendable {
        /// The record's name for it, such as `heartRate`.
        let name: String
        /// Its LOINC codes.
        let codes: [String]
        /// The canonical UCUM unit its values are converted to.
        let unit: String
        /// Whether a value without a unit is already in `unit` (counts and scores are).
        var unitless: Bool { unit.hasPrefix("{") }
        /// The series in words, for a reading a Composition lists.
        var title: String {
            switch name {
            case "heartRate": return "Heart rate"
            case "steps": return "Steps"
            case "bodyWeight": return "Body weight"
            case "systolic": return "Systolic blood pressure"
            case "diastolic": return "Diastolic blood pressure"
            case "glucose": return "Glucose"
            case "oxygenSaturation": return "Oxygen saturation"
            case "bodyTemperature": return "Body temperature"
            case "painSeverity": return "Pain severity"
            case "respiratoryRate": return "Respiratory rate"
            default: return name
            }
        }
        /// Whether a day's value is the sum of its readings (a count, such as steps over intervals), not their mean.
        var summed = false
    }

    /// The LOINC system URI.
    static let loinc = "http://loinc.org"

    /// The named series, in the order they appear in a record.
    static let all: [Series] = [
        Series(name: "heartRate", codes: ["8867-4"], unit: "/min"),
        Series(name: "steps", codes: ["55423-8", "41950-7"], unit: "{steps}", summed: true),
        Series(name: "bodyWeight", codes: ["29463-7"], unit: "kg"),
        Series(name: "systolic", codes: ["8480-6"], unit: "mm[Hg]"),
        Series(name: "diastolic", codes: ["8462-4"], unit: "mm[Hg]"),
        // Glucose in blood, serum or plasma, and by a meter (capillary blood), in mass or molar units.
        Series(name: "glucose", codes: ["2339-0", "2345-7", "41653-7", "15074-8", "14749-6", "14743-9", "2340-8"], unit: "mg/dL"),
        Series(name: "oxygenSaturation", codes: ["59408-5", "2708-6"], unit: "%"),
        Series(name: "bodyTemperature", codes: ["8310-5"], unit: "Cel"),
        Series(name: "painSeverity", codes: ["72514-3"], unit: "{score}"),
        Series(name: "respiratoryRate", codes: ["9279-1"], unit: "/min"),
    ]

    /// Blood-pressure panels: their readings are their `component`s (systolic and diastolic).
    static let panels: Set<String> = ["85354-9", "55284-4", "35094-2"]

    private static let byCode: [String: Series] = {
        var table: [String: Series] = [:]
        for series in all { for code in series.codes { table[code] = series } }
        return table
    }()

    /// The named series of a LOINC code.
    static func series(loincCode code: String) -> Series? { byCode[code] }

    private static let byName: [String: (series: Series, position: Int)] = Dictionary(
        uniqueKeysWithValues: all.enumerated().map { ($1.name, ($1, $0)) })

    /// The series named `name` (looked up for every reading: a table, not a scan).
    static func series(named name: String) -> Series? { byName[name]?.series }

    /// The position of a named series, for ordering a record's `series`.
    static func order(of name: String) -> Int { byName[name]?.position ?? all.count }
}
