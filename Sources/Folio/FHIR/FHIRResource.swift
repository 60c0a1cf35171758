import Foundation

/// Reading FHIR JSON elements out of a parsed resource: strings, codings, references.
enum FHIRResource {
    /// The string at `key`, when it is a non-empty string.
    static func string(_ value: TreeValue?, _ key: String) -> String? {
        guard case .string(let text)? = value?[key], !text.isEmpty else { return nil }
        return text
    }

    /// The array at `key` (empty when absent or not an array).
    static func array(_ value: TreeValue?, _ key: String) -> [TreeValue] {
        guard case .array(let items)? = value?[key] else { return [] }
        return items
    }

    /// A CodeableConcept's codings as (system, code, display).
    static func codings(_ concept: TreeValue?) -> [(system: String?, code: String, display: String?)] {
        array(concept, "coding").compactMap { coding in
            guard let code = string(coding, "code") else { return nil }
            return (string(coding, "system"), code, string(coding, "display"))
        }
    }

    /// The words a person reads for a CodeableConcept: its text, else its first coding's display, else its code.
    static func displayText(_ concept: TreeValue?) -> String? {
        if let text = string(concept, "text") { return text }
        let codings = codings(concept)
        return codings.first { $0.display != nil }?.display ?? codings.first?.code
    }

    /// `SYSTEM|VALUE` keys of a resource's `identifier` list.
    static func identifierKeys(_ resource: TreeValue) -> [String] {
        array(resource, "identifier").compactMap { identifier in
            guard let value = string(identifier, "value") else { return nil }
            return "\(string(identifier, "system") ?? "")|\(value)"
        }
    }

    /// The key a reference to a Patient is matched by: `Patient/ID` for a relative or absolute URL
    /// (a `_history` version dropped), the `urn:uuid:…` itself inside a Bundle, or `identifier:SYSTEM|VALUE`
    /// for a logical reference by identifier. Nil when the reference names none of these.
    static func patientKey(_ reference: TreeValue?) -> String? {
        if let text = string(reference, "reference") { return patientKey(text) }
        if let identifier = reference?["identifier"], let value = string(identifier, "value") {
            return "identifier:\(string(identifier, "system") ?? "")|\(value)"
        }
        return nil
    }

    /// The key of a reference's text (see `patientKey(_:)`).
    static func patientKey(_ text: String) -> String? {
        if text.hasPrefix("urn:uuid:") || text.hasPrefix("urn:oid:") { return text.lowercased() }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard let index = parts.lastIndex(where: { $0 == "Patient" }), index + 1 < parts.count, !parts[index + 1].isEmpty else {
            return nil
        }
        return "Patient/\(parts[index + 1])"
    }

    /// The key a Medication is referred to by, from a `medicationReference`.
    static func medicationKey(_ text: String) -> String {
        if text.hasPrefix("urn:") { return text.lowercased() }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        if let index = parts.lastIndex(where: { $0 == "Medication" }), index + 1 < parts.count {
            return "Medication/\(parts[index + 1])"
        }
        return text
    }

    /// When a resource says it was taken: `effectiveDateTime`, `effectiveInstant`, or
    /// `effectivePeriod` by its start (its end when it has no start).
    static func effectiveTime(_ resource: TreeValue, clock: ZoneClock) -> (time: FHIRTime?, text: String?) {
        let text =
            string(resource, "effectiveDateTime") ?? string(resource, "effectiveInstant")
            ?? string(resource["effectivePeriod"], "start") ?? string(resource["effectivePeriod"], "end")
        return (text.flatMap { FHIRTime.parse($0, zone: clock) }, text)
    }

    /// A resource's version for choosing the newest of several copies: `meta.versionId` when it is a
    /// whole number, and `meta.lastUpdated` in milliseconds.
    static func version(_ resource: TreeValue, clock: ZoneClock) -> (number: Int64?, updated: Int64?) {
        let meta = resource["meta"]
        let number = string(meta, "versionId").flatMap { Int64($0) }
        let updated = string(meta, "lastUpdated").flatMap { FHIRTime.parse($0, zone: clock)?.milliseconds }
        return (number, updated)
    }
}
