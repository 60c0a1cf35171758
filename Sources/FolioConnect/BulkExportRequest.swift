import FolioModel
import Foundation

/// What a `folio fetch` asks a FHIR server to export (the HL7 Bulk Data Access IG's kick-off
/// parameters): whose data (a Group, a list of patients, or all patients), which resource types,
/// `_typeFilter`s and `_since`. Each value is checked before anything is sent.
package struct BulkExportRequest: Codable, Equatable, Sendable {
    /// The FHIR server's base address.
    package var base: String
    /// `Group/ID/$export` when given.
    package var group: String?
    /// `patient` parameters of a `Patient/$export` (POST only).
    package var patients: [String]
    /// `_type`: the resource types to export (all the server offers when empty).
    package var types: [String]
    /// `_typeFilter`s, each a type and a search (`Observation?category=vital-signs`).
    package var typeFilters: [String]
    /// `_since`: only resources changed after this instant.
    package var since: String?

    /// A request checked field by field; one-line errors name the option.
    package init(base: String, group: String?, patients: [String], types: [String], typeFilters: [String], since: String?) throws {
        self.base = base
        self.group = group
        self.patients = patients
        self.types = types
        self.typeFilters = typeFilters
        self.since = since
        if let group, !Self.isID(group) { throw FolioError(path: "--group", "expected a FHIR id (letters, digits, - and ., up to 64)") }
        if group != nil, !patients.isEmpty { throw FolioError(path: "--patient", "give --group or --patient, not both") }
        guard patients.count <= 10_000 else { throw FolioError(path: "--patient", "at most 10,000 patients per export") }
        for (index, patient) in patients.enumerated() where !Self.isID(patient) {
            throw FolioError(path: "--patient[\(index)]", "expected a FHIR id (letters, digits, - and ., up to 64)")
        }
        for (index, type) in types.enumerated() where !Self.isResourceType(type) {
            throw FolioError(path: "--type[\(index)]", "expected a FHIR resource type such as Observation")
        }
        for (index, filter) in typeFilters.enumerated() {
            let type = filter.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
            guard filter.contains("?"), Self.isResourceType(type), filter.count <= 2000,
                !filter.contains(where: { $0.isNewline || $0.asciiValue.map { $0 < 0x20 } == true })
            else {
                throw FolioError(path: "--type-filter[\(index)]", "expected a type and a search, such as Observation?category=vital-signs")
            }
        }
        if let since, Self.instant(since) == nil {
            throw FolioError(path: "--since", "expected a FHIR instant such as 2026-11-01T00:00:00Z (with seconds and a zone)")
        }
    }

    /// The kick-off path below the base: `Group/ID/$export` or `Patient/$export`.
    package var path: String { group.map { "Group/\($0)/$export" } ?? "Patient/$export" }

    /// The parameters as a FHIR `Parameters` resource (the POST kick-off's body).
    package var parametersBody: Data {
        var parameters: [[String: Any]] = [["name": "_outputFormat", "valueString": "application/fhir+ndjson"]]
        if !types.isEmpty { parameters.append(["name": "_type", "valueString": types.joined(separator: ",")]) }
        for filter in typeFilters { parameters.append(["name": "_typeFilter", "valueString": filter]) }
        if let since { parameters.append(["name": "_since", "valueInstant": since]) }
        for patient in patients { parameters.append(["name": "patient", "valueReference": ["reference": "Patient/\(patient)"]]) }
        let resource: [String: Any] = ["resourceType": "Parameters", "parameter": parameters]
        return (try? JSONSerialization.data(withJSONObject: resource, options: [.sortedKeys])) ?? Data()
    }

    /// The parameters as a query (the GET kick-off's).
    package var query: String {
        var items = [("_outputFormat", "application/fhir+ndjson")]
        if !types.isEmpty { items.append(("_type", types.joined(separator: ","))) }
        for filter in typeFilters { items.append(("_typeFilter", filter)) }
        if let since { items.append(("_since", since)) }
        return items.map { "\($0.0)=\(ServerAuthorization.formEncoded($0.1))" }.joined(separator: "&")
    }

    /// Whether `text` is a FHIR id.
    package static func isID(_ text: String) -> Bool {
        (1...64).contains(text.count) && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }
    }

    /// Whether `text` has a resource type's shape (an upper-case ASCII letter, then letters).
    package static func isResourceType(_ text: String) -> Bool {
        guard let first = text.first, first.isASCII, first.isUppercase, text.count <= 64 else { return false }
        return text.allSatisfy { $0.isASCII && $0.isLetter }
    }

    /// The instant `text` names, if it is a FHIR instant (seconds and a zone, fractions allowed).
    package static func instant(_ text: String) -> Date? {
        let plain = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard text.count <= 40, text.contains("T") else { return nil }
        return plain.date(from: text) ?? fractional.date(from: text)
    }
}
