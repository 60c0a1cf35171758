import FolioData
import FolioFiles
import FolioModel
import Foundation

/// FHIR R4 DocumentReferences for written reports, and the transaction Bundle that posts a whole
/// batch's references to a FHIR server at once (`folio batch --emit fhir`).
public enum FHIRDocumentReference {
    /// One written document a reference points at: its file name, media type, size, hashes, title and language.
    package struct Attached: Sendable {
        package var name: String
        package var contentType: String
        package var bytes: Int
        /// Base64 SHA-1, as a FHIR Attachment's `hash` must be.
        package var sha1: String
        /// Lowercase hex SHA-256 (the reference's identifier is made from the first document's).
        package var sha256: String
        package var title: String
        package var language: String

        package init(name: String, contentType: String, bytes: Int, sha1: String, sha256: String, title: String, language: String) {
            self.name = name
            self.contentType = contentType
            self.bytes = bytes
            self.sha1 = sha1
            self.sha256 = sha256
            self.title = title
            self.language = language
        }
    }

    /// The kind of document a reference says it is: a coding, LOINC 34133-9 by default.
    public struct DocumentType: Sendable, Hashable {
        /// The code system, such as `http://loinc.org`.
        public let system: String
        /// The code, such as `34133-9`.
        public let code: String
        /// The words shown for it, if any.
        public let display: String?

        /// LOINC 34133-9, "Summary of episode note".
        public static let summary = DocumentType(system: "http://loinc.org", code: "34133-9", display: "Summary of episode note")

        init(system: String, code: String, display: String?) {
            self.system = system
            self.code = code
            self.display = display
        }

        /// Parses `SYSTEM|CODE` or `SYSTEM|CODE|DISPLAY`; errors name `--document-type`.
        public init(parsing text: String) throws {
            let parts = text.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            guard parts.count >= 2, !parts[0].isEmpty, !parts[1].isEmpty, parts[0].count <= 200, parts[1].count <= 100,
                !parts[1].contains(where: \.isWhitespace), parts[0].allSatisfy({ !$0.isWhitespace })
            else {
                throw FolioError(path: "--document-type", "give SYSTEM|CODE (or SYSTEM|CODE|DISPLAY), such as http://loinc.org|34133-9")
            }
            system = parts[0]
            code = parts[1]
            display = parts.count > 2 && !parts[2].isEmpty ? String(parts[2].prefix(200)) : nil
        }
    }

    /// The file name of a record's reference, beside its documents: `NAME.fhir.json`.
    package static func fileName(forDocument name: String) -> String {
        let stem = (name as NSString).deletingPathExtension
        return "\(stem).fhir.json"
    }

    /// A DocumentReference (status current) for a record's written `documents`, about the record's
    /// `patient.id`, over its `period.start`–`period.end`, each attachment with its content type, size,
    /// SHA-1 (base64, as FHIR requires; hashed when it was written), title, creation time and file name as `url`.
    package static func resource(for documents: [Attached], record: TreeValue, type: DocumentType, created: Date) throws -> TreeValue {
        let subject = try subject(of: record)
        let creation = instantText(created)
        let title = documents.first?.title ?? ""
        let attachments: [TreeValue] = documents.map { file in
            var attachment: [(key: String, value: TreeValue)] = [
                ("contentType", .string(file.contentType))
            ]
            if !file.language.isEmpty { attachment.append(("language", .string(file.language))) }
            attachment += [
                ("url", .string(file.name)), ("size", .number(Double(file.bytes))), ("hash", .string(file.sha1)),
                ("title", .string(file.title)), ("creation", .string(creation)),
            ]
            return .object([("attachment", .object(attachment))])
        }
        let identity = documents.first?.sha256
        var coding: [(key: String, value: TreeValue)] = [("system", .string(type.system)), ("code", .string(type.code))]
        if let display = type.display { coding.append(("display", .string(display))) }
        var members: [(key: String, value: TreeValue)] = [("resourceType", .string("DocumentReference"))]
        if let identity {
            members.append(
                ("masterIdentifier", .object([("system", .string("urn:ietf:rfc:3986")), ("value", .string(uuidURN(identity)))])))
        }
        members += [
            ("status", .string("current")), ("docStatus", .string("final")),
            ("type", .object([("coding", .array([.object(coding)]))])),
        ]
        members.append(("subject", subject))
        members += [("date", .string(creation)), ("description", .string(title)), ("content", .array(attachments))]
        if case .string(let start)? = record.value(at: "period.start"), case .string(let end)? = record.value(at: "period.end"),
            CivilDate.parse(start) != nil, CivilDate.parse(end) != nil
        {
            members.append(("context", .object([("period", .object([("start", .string(start)), ("end", .string(end))]))])))
        }
        return .object(members)
    }

    /// The Patient a record's reference is about: the record's `patient.subject` (a FHIR reference
    /// to a Patient, by `reference` or by `identifier`, which a FHIR export's records carry), else
    /// `Patient/ID` from its `patient.id`; `patient.name` as its display. A reference is never
    /// written without a subject: a record with neither is an error naming the field, raised
    /// before its documents are written.
    package static func subject(of record: TreeValue) throws -> TreeValue {
        var subject: [(key: String, value: TreeValue)]
        if let given = record.value(at: "patient.subject"), given != .null {
            if case .string(let text)? = given["reference"], let reference = FHIRReference(text),
                reference.key.hasPrefix("Patient/") || reference.key.hasPrefix("urn:")
            {
                subject = [("reference", .string(reference.key))]
            } else if let identifier = given["identifier"], let value = FHIRResource.string(identifier, "value") {
                var members: [(key: String, value: TreeValue)] = [("value", .string(value))]
                if let system = FHIRResource.string(identifier, "system") { members.insert(("system", .string(system)), at: 0) }
                subject = [("type", .string("Patient")), ("identifier", .object(members))]
            } else {
                throw FolioError(path: "patient.subject", "expected a reference to a Patient (reference or identifier.value)")
            }
        } else if case .string(let id)? = record.value(at: "patient.id") {
            guard FHIRReference.isID(id) else {
                throw FolioError(
                    path: "patient.id",
                    "is not a FHIR id (1–64 of A–Z, a–z, 0–9, '-', '.'), so the DocumentReference would have no subject")
            }
            subject = [("reference", .string("Patient/\(id)"))]
        } else {
            throw FolioError(path: "patient.id", "is required for a DocumentReference's subject (--emit fhir)")
        }
        if case .string(let name)? = record.value(at: "patient.name"), !name.isEmpty { subject.append(("display", .string(name))) }
        return .object(subject)
    }

    /// `urn:uuid:…` made from a document's SHA-256 (a name-based UUID, version 8), so the same
    /// document always has the same identifier and posting it twice can be recognised.
    package static func uuidURN(_ sha256Hex: String) -> String {
        var hex = Array(sha256Hex.prefix(32))
        guard hex.count == 32 else { return "urn:uuid:\(UUID().uuidString.lowercased())" }
        hex[12] = "8"
        let variant = Int(String(hex[16]), radix: 16).map { ($0 & 0x3) | 0x8 } ?? 8
        hex[16] = Character(String(variant, radix: 16))
        let text = String(hex)
        func part(_ from: Int, _ to: Int) -> Substring {
            text[text.index(text.startIndex, offsetBy: from)..<text.index(text.startIndex, offsetBy: to)]
        }
        return "urn:uuid:\(part(0, 8))-\(part(8, 12))-\(part(12, 16))-\(part(16, 20))-\(part(20, 32))"
    }

    /// `2026-11-24T20:15:00Z`: an instant in whole seconds, as FHIR's `instant` and `dateTime` take it.
    package static func instantText(_ date: Date) -> String { ISODate.dateTime(date.timeIntervalSince1970.rounded(.down)) }

    /// Writes a transaction Bundle posting every reference in `files` (in order), atomically and a
    /// reference at a time: each entry is created once (`ifNoneExist` on its identifier), so posting
    /// the Bundle again adds nothing.
    package static func writeTransaction(of files: [URL], to destination: URL) throws {
        do {
            try AtomicFile.write(to: destination) { fd in
                try AtomicFile.writeAll(Data("{\"resourceType\":\"Bundle\",\"type\":\"transaction\",\"entry\":[".utf8), to: fd)
                for (position, file) in files.enumerated() {
                    let data = try BoundedFile.read(file.path, limit: 1 << 24, field: "", what: "DocumentReference", regularOnly: true)
                    let resource = try JSONTreeParser.parse(data)
                    let identifier = resource["masterIdentifier"]
                    let urn = FHIRResource.string(identifier, "value") ?? "urn:uuid:\(UUID().uuidString.lowercased())"
                    var request: [(key: String, value: TreeValue)] = [("method", .string("POST")), ("url", .string("DocumentReference"))]
                    if let system = FHIRResource.string(identifier, "system") {
                        request.append(("ifNoneExist", .string("identifier=\(system)|\(urn)")))
                    }
                    let entry = TreeValue.object([("fullUrl", .string(urn)), ("resource", resource), ("request", .object(request))])
                    try AtomicFile.writeAll(Data(((position > 0 ? "," : "") + entry.json).utf8), to: fd)
                }
                try AtomicFile.writeAll(Data("]}\n".utf8), to: fd)
            }
        } catch {
            if let failure = error as? FolioError, failure.message.hasPrefix("cannot") { throw failure }
            throw FolioError(path: "", "cannot write \(destination.path): \((error as? FolioError)?.message ?? "\(error)")")
        }
    }

}
