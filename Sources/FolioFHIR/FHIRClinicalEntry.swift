import FolioData
import FolioModel
import Foundation

/// One clinical resource as a record presents it: every entry has `type`, `text` (what it is,
/// in words), `details` (its status, dates and the rest, in one line), `date` and `status`, and
/// the fields of its kind (a problem's onset, an allergy's reactions, a result's range and flag).
struct FHIRClinicalEntry {
    /// The entry's fields, in order.
    private(set) var members: [(key: String, value: TreeValue)] = []
    /// The instant it is sorted by (newest first), when it has one.
    var instant: Int64?

    /// The record's fields.
    var value: TreeValue { .object(members) }

    mutating func set(_ key: String, _ text: String?) { members.append((key, text.map(TreeValue.string) ?? .null)) }
    mutating func set(_ key: String, _ value: TreeValue) { members.append((key, value)) }
    mutating func set(_ key: String, number: Double?) { members.append((key, number.map(TreeValue.number) ?? .null)) }

    /// The common fields: type, text, details (the non-empty parts joined by " · "), date, status.
    init(type: String, text: String?, details: [String?], date: String?, status: String?) {
        set("type", type)
        set("text", text ?? "Unnamed \(type.lowercased())")
        let parts = details.compactMap { $0 }.filter { !$0.isEmpty }
        set("details", parts.isEmpty ? nil : parts.joined(separator: " · "))
        set("date", date)
        set("status", status)
    }

    /// A status concept (`clinicalStatus`) or code as a word: its display, else its code with a capital.
    static func status(_ value: TreeValue?) -> String? {
        if case .string(let code)? = value { return words(code) }
        if let display = FHIRResource.codings(value).first?.display ?? FHIRResource.string(value, "text") { return display }
        return FHIRResource.codings(value).first.map { words($0.code) }
    }

    /// A code such as `entered-in-error` as words: "Entered in error".
    static func words(_ code: String) -> String {
        let spaced = code.replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "_", with: " ")
        return spaced.prefix(1).uppercased() + spaced.dropFirst()
    }
}
