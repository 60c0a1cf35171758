import FolioData
import FolioModel
import Foundation

/// Reading FHIR JSON elements out of a parsed resource: strings, codings, references.
package enum FHIRResource {
    /// The string at `key`, when it is a non-empty string.
    package static func string(_ value: TreeValue?, _ key: String) -> String? {
        guard case .string(let text)? = value?[key], !text.isEmpty else { return nil }
        return text
    }

    /// The array at `key` (empty when absent or not an array).
    package static func array(_ value: TreeValue?, _ key: String) -> [TreeValue] {
        guard case .array(let items)? = value?[key] else { return [] }
        return items
    }

    /// The values at `key` as a list: its items when it is an array, itself when it is one value
    /// (sources send a repeating element such as `interpretation` as a single object too).
    package static func list(_ value: TreeValue?, _ key: String) -> [TreeValue] {
        switch value?[key] {
        case .array(let items)?: return items
        case .object?: return value?[key].map { [$0] } ?? []
        default: return []
        }
    }

    /// A CodeableConcept's codings as (system, code, display).
    package static func codings(_ concept: TreeValue?) -> [(system: String?, code: String, display: String?)] {
        array(concept, "coding").compactMap { coding in
            guard let code = string(coding, "code") else { return nil }
            return (string(coding, "system"), code, string(coding, "display"))
        }
    }

    /// The words a person reads for a CodeableConcept: its text, else its first coding's display, else its code.
    package static func displayText(_ concept: TreeValue?) -> String? {
        if let text = string(concept, "text") { return text }
        let codings = codings(concept)
        return codings.first { $0.display != nil }?.display ?? codings.first?.code
    }

    /// The keys of a resource's `identifier` list, one per identifier with a value: its system and
    /// value, the system's length first, so no two different identifiers have the same key
    /// (`a|b` + `c` and `a` + `b|c` differ), with a backslash and a line end escaped (the keys
    /// are stored one per line).
    package static func identifierKeys(_ resource: TreeValue) -> [String] {
        array(resource, "identifier").compactMap { identifier in
            guard let value = string(identifier, "value") else { return nil }
            return identifierKey(system: string(identifier, "system"), value: value)
        }
    }

    /// The key of one identifier (see `identifierKeys`).
    package static func identifierKey(system: String?, value: String) -> String {
        let system = system ?? ""
        let key = "\(system.utf8.count):\(system)|\(value)"
        guard key.utf8.contains(where: { $0 == 0x5C || $0 == 0x0A }) else { return key }
        return key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// The key a reference to a Patient is matched by, or why there is none: `Patient/ID` for a
    /// relative or absolute reference (a `_history` version and the server's base dropped), the
    /// `urn:uuid:…` or `urn:oid:…` itself inside a Bundle, or `identifier:…` for a logical reference
    /// by identifier. A reference FHIR's grammar does not allow, or one to another type, has none.
    package static func patientKey(_ reference: TreeValue?) -> (
        key: String?, identifier: (system: String?, value: String)?, problem: String?
    ) {
        if case .string(let text)? = reference?["reference"] {
            guard let parsed = FHIRReference(text) else { return (nil, nil, "a subject reference FHIR does not allow") }
            switch parsed {
            case .resource(type: "Patient", _), .urn: return (parsed.key, nil, nil)
            case .resource: return (nil, nil, "no Patient subject")
            }
        }
        if let identifier = reference?["identifier"], let value = string(identifier, "value") {
            let system = string(identifier, "system")
            return ("identifier:" + identifierKey(system: system, value: value), (system, value), nil)
        }
        return (nil, nil, reference == nil ? "no subject" : "no Patient subject")
    }

    /// The key of a Bundle entry's `fullUrl` for the Patient `id` it holds: its URN, or `Patient/ID`
    /// when it is a Patient's URL ending in that same id (any other full URL adds no key, so no
    /// entry can claim another Patient's id).
    package static func patientKey(fullUrl: String, id: String?) -> String? {
        switch FHIRReference(fullUrl) {
        case .urn(let urn)?: return urn
        case .resource(type: "Patient", id: let urlID)? where urlID == id: return "Patient/\(urlID)"
        default: return nil
        }
    }

    /// The key a Medication is referred to by, from a `medicationReference`: `Medication/ID` or the
    /// URN for a reference FHIR allows, the text itself for a contained one (`#med1`), nil for any other.
    package static func medicationKey(_ text: String) -> String? {
        if text.hasPrefix("#") { return FHIRReference.isID(text.dropFirst()) ? text : nil }
        switch FHIRReference(text) {
        case .resource(type: "Medication", _)?, .urn?: return FHIRReference(text)?.key
        default: return nil
        }
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
