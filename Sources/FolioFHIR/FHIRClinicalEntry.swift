import FolioData
import FolioModel
import Foundation

/// One clinical resource as a record presents it: every entry has `type`, `text` (what it is,
/// in words, never empty: an entry that names nothing is called so, "Allergy or intolerance with no
/// name given"), `display` (what a summary's first column shows: the text, and for a
/// high-criticality allergy a mark in words and a symbol before it), `details` (its status, dates,
/// note and the rest, in one line), `date`, `status`, `current` (whether it belongs with the
/// current entries rather than the past ones) and the fields of its kind.
struct FHIRClinicalEntry {
    /// The entry's fields, in order.
    private(set) var members: [(key: String, value: TreeValue)] = []
    /// The instant it is sorted by (newest first), when it has one.
    var instant: Int64?
    /// Whether the resource named nothing (its text is then the words for an entry with no name).
    let unnamed: Bool
    /// Whether it is current (active, intended, given) rather than past (resolved, stopped, not given).
    var current = true
    /// What is wrong with the resource though it is shown (a reference range whose low is above its
    /// high), for the record's warnings.
    var problems: [String] = []

    /// The record's fields.
    var value: TreeValue { .object(members + [("current", .bool(current))]) }

    mutating func set(_ key: String, _ text: String?) { members.append((key, text.map(TreeValue.string) ?? .null)) }
    mutating func set(_ key: String, _ value: TreeValue) { members.append((key, value)) }
    mutating func set(_ key: String, number: Double?) { members.append((key, number.map(TreeValue.number) ?? .null)) }

    /// Replaces (or adds) one field.
    mutating func replace(_ key: String, _ value: TreeValue) {
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append((key, value))
        }
    }

    /// The common fields: type, text (or the words for an entry of `type` with no name), display,
    /// details (the non-empty parts joined), date, status.
    init(type: String, text: String?, details: [String?], date: String?, status: String?, words: FHIRWords, mark: String? = nil) {
        let name = text.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
        unnamed = name == nil
        let shown = name ?? words[FHIRClinicalEntry.noNameKey(type)]
        set("type", type)
        set("text", shown)
        set("display", mark.map { "\($0) · \(shown)" } ?? shown)
        let parts = details.compactMap { $0 }.filter { !$0.isEmpty }
        set("details", parts.isEmpty ? nil : parts.joined(separator: " · "))
        set("date", date)
        set("status", status)
    }

    /// What an entry of `type` that names nothing is called.
    static func noNameKey(_ type: String) -> FHIRWords.Key {
        switch type {
        case "AllergyIntolerance": return .allergyNoName
        case "Condition": return .problemNoName
        case "MedicationStatement", "MedicationRequest", "MedicationDispense", "MedicationAdministration", "Medication":
            return .medicationNoName
        case "Immunization": return .vaccineNoName
        case "Procedure": return .procedureNoName
        case "Observation": return .resultNoName
        case "DiagnosticReport": return .reportNoName
        case "Device", "DeviceUseStatement": return .deviceNoName
        default: return .entryNoName
        }
    }

    /// A code such as `entered-in-error` as words: "Entered in error" (for codes Folio has no words for).
    static func words(_ code: String) -> String {
        let spaced = code.replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "_", with: " ")
        return spaced.prefix(1).uppercased() + spaced.dropFirst()
    }

    /// Entries in the order a summary lists them: current ones first, then the rest; within each,
    /// newest first (entries without a date after those with one, in the order read).
    static func ordered(_ entries: [FHIRClinicalEntry]) -> [FHIRClinicalEntry] {
        entries.enumerated().sorted { left, right in
            if left.element.current != right.element.current { return left.element.current }
            switch (left.element.instant, right.element.instant) {
            case (let a?, let b?) where a != b: return a > b
            case (.some, nil): return true
            case (nil, .some): return false
            default: return left.offset < right.offset
            }
        }.map(\.element)
    }
}
