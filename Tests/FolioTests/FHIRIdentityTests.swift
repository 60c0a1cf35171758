import Foundation
import PropertyBased
import Testing
import XCTest

@testable import Folio
@testable import FolioData
@testable import FolioFHIR

/// One patient per record, whatever the ids: an id FHIR does not allow is never used, text reaches
/// the index with all its bytes, and no reference can reach another patient's key by its spelling.
final class FHIRIdentityTests: XCTestCase {
    func testReferencesAreCheckedAgainstFHIRsGrammar() {
        let allowed: [String: String] = [
            "Patient/p1": "Patient/p1", "Patient/A-b.9": "Patient/A-b.9", "https://ehr.example/fhir/Patient/p1": "Patient/p1",
            "http://ehr.example:8080/base/R4/Patient/p1/_history/3": "Patient/p1", "Patient/p1/_history/2": "Patient/p1",
            "urn:uuid:6F1B0A6E-8C3B-4C8A-9E4E-0A1B2C3D4E5F": "urn:uuid:6f1b0a6e-8c3b-4c8a-9e4e-0a1b2c3d4e5f",
            "urn:oid:1.2.840.113619": "urn:oid:1.2.840.113619", "Medication/m1": "Medication/m1",
        ]
        for (text, key) in allowed { XCTAssertEqual(FHIRReference(text)?.key, key, text) }
        let refused = [
            "Patient/../../etc/passwd", "Patient/a/b", "Patient/", "Patient/p\u{0}A", "Patient/p A", "Patient/é", "Patient/p1/",
            "/Patient/p1", "ftp://host/Patient/p1", "https:/host/Patient/p1", "https://host/../Patient/p1", "https://host//Patient/p1",
            "patient/p1", "Patient/" + String(repeating: "a", count: 65), "Patient/p1/_history/", "Patient/p1/_history/a/b",
            "urn:uuid:1", "urn:uuid:6f1b0a6e-8c3b-4c8a-9e4e-0a1b2c3d4e5fa", "urn:uuid:6f1b0a6e_8c3b-4c8a-9e4e-0a1b2c3d4e5f",
            "urn:oid:3.1", "urn:oid:1.02", "urn:oid:1", "urn:oid:1..2", "#p1", "", "Patient/p1\n",
        ]
        for text in refused { XCTAssertNil(FHIRReference(text), text.debugDescription) }
        XCTAssertTrue(FHIRReference.isID(String(repeating: "a", count: 64)))
        XCTAssertFalse(FHIRReference.isID(""))
    }

    /// The issue's cases: `p\u0000A` and `p\u0000B` were one record `p`; `a/b`'s reading made a
    /// record for a patient `a`; `Patient/../../etc/passwd` was added to patient `..`.
    func testIdsFHIRDoesNotAllowAreNotesAndMergeNothing() throws {
        let lines = [
            Self.patient("p\u{0}A", name: "Ann"), Self.patient("p\u{0}B", name: "Bob"), Self.patient("p", name: "Pia"),
            Self.patient("..", name: "Dot"), Self.patient("a", name: "Ava"),
            Self.heartRate(id: "o1", subject: "Patient/p\u{0}A", value: 61),
            Self.heartRate(id: "o2", subject: "Patient/p\u{0}B", value: 62),
            Self.heartRate(id: "o3", subject: "Patient/p", value: 63), Self.heartRate(id: "o4", subject: "Patient/a/b", value: 64),
            Self.heartRate(id: "o5", subject: "Patient/../../etc/passwd", value: 65),
            Self.heartRate(id: "o6\u{0}x", subject: "Patient/p", value: 66), Self.heartRate(id: "o7", subject: "Patient/a", value: 67),
        ]
        let result = try Self.read(lines)
        XCTAssertEqual(result.records.keys.sorted(), ["a", "p"], "\(result.notes)")
        XCTAssertEqual(result.records["p"]?.values, [63])
        XCTAssertEqual(result.records["p"]?.name, "Pia")
        XCTAssertEqual(result.records["a"]?.values, [67])
        let notes = result.notes.joined(separator: "\n")
        // ".." is a FHIR id (dots are allowed); it has no reading of its own, so no record.
        for line in [1, 2] { XCTAssertTrue(notes.contains("export.ndjson:\(line): a Patient whose id is not a FHIR id"), notes) }
        XCTAssertTrue(notes.contains("export.ndjson:9: Observation o4 has a subject reference FHIR does not allow and is skipped"), notes)
        XCTAssertTrue(notes.contains("export.ndjson:10: Observation o5 has a subject reference FHIR does not allow"), notes)
        XCTAssertTrue(notes.contains("export.ndjson:11: a Observation whose id is not a FHIR id"), notes)
        XCTAssertFalse(notes.contains("\u{0}"), "no NUL reaches a note")
    }

    /// Two Patients that share an identifier (or a Bundle full URL) keep their own readings by id; a
    /// reading that names the shared identifier belongs to neither, and is noted.
    func testAKeyTwoPatientsShareIsGivenToNeither() throws {
        let identifier = #","identifier":[{"system":"urn:mrn","value":"42"}]"#
        let lines = [
            Self.patient("x", name: "Xena", extra: identifier), Self.patient("y", name: "Yann", extra: identifier),
            Self.heartRate(id: "o1", subject: "Patient/x", value: 71), Self.heartRate(id: "o2", subject: "Patient/y", value: 72),
            Self.heartRate(id: "o3", subjectIdentifier: ("urn:mrn", "42"), value: 73),
            Self.heartRate(id: "o4", subjectIdentifier: ("urn:mrn|4", "2"), value: 74),
        ]
        let result = try Self.read(lines)
        XCTAssertEqual(result.records["x"]?.values, [71])
        XCTAssertEqual(result.records["y"]?.values, [72])
        XCTAssertEqual(result.records["2"]?.values, [74], "a different identifier whose parts join the same way is another patient")
        XCTAssertEqual(result.records["2"]?.subject, #"{"identifier":{"system":"urn:mrn|4","value":"2"}}"#)
        XCTAssertTrue(
            result.notes.contains { $0.contains("1 resource refer to a Patient by an identifier or full URL that two Patients share") },
            "\(result.notes)")
    }

    /// A DocumentReference is never written without its subject: from the record's `patient.subject`,
    /// else its `patient.id`, else the record fails naming the field.
    func testADocumentReferenceAlwaysHasItsSubject() throws {
        func subject(_ json: String) throws -> String { try FHIRDocumentReference.subject(of: JSONTreeParser.parse(Data(json.utf8))).json }
        XCTAssertEqual(try subject(#"{"patient":{"id":"P1","name":"Ana"}}"#), #"{"reference":"Patient/P1","display":"Ana"}"#)
        XCTAssertEqual(
            try subject(#"{"patient":{"id":"x","subject":{"identifier":{"system":"urn:mrn","value":"7"}}}}"#),
            #"{"type":"Patient","identifier":{"system":"urn:mrn","value":"7"}}"#)
        for (json, field) in [
            (#"{"patient":{"id":"P 1"}}"#, "patient.id"), (#"{"patient":{"id":"a/b"}}"#, "patient.id"), (#"{"x":1}"#, "patient.id"),
            (#"{"patient":{"id":"P1","subject":{"reference":"Patient/../x"}}}"#, "patient.subject"),
            // A subject of another type is no patient's: a Group, a Practitioner, a Device.
            (#"{"patient":{"id":"P1","subject":{"reference":"Group/g1"}}}"#, "patient.subject"),
            (#"{"patient":{"id":"P1","subject":{"reference":"Practitioner/dr"}}}"#, "patient.subject"),
            (#"{"patient":{"id":"P1","subject":{"reference":"https://x.example/fhir/Device/d"}}}"#, "patient.subject"),
        ] {
            XCTAssertThrowsError(try subject(json), json) { XCTAssertTrue("\($0)".hasPrefix("\(field): "), "\($0)") }
        }
    }

    // MARK: helpers

    static func patient(_ id: String, name: String, extra: String = "") -> String {
        #"{"resourceType":"Patient","id":\#(TreeValue.string(id).json),"name":[{"text":\#(TreeValue.string(name).json)}]\#(extra)}"#
    }

    static func heartRate(id: String, subject: String? = nil, subjectIdentifier: (String, String)? = nil, value: Double) -> String {
        let reference =
            subject.map { #"{"reference":\#(TreeValue.string($0).json)}"# }
            ?? subjectIdentifier.map {
                #"{"identifier":{"system":\#(TreeValue.string($0.0).json),"value":\#(TreeValue.string($0.1).json)}}"#
            }
            ?? "{}"
        return
            #"{"resourceType":"Observation","id":\#(TreeValue.string(id).json),"status":"final","code":{"coding":[{"system":"http://loinc.org","code":"8867-4"}]},"subject":\#(reference),"effectiveDateTime":"2026-11-10T08:00:00Z","valueQuantity":{"value":\#(value),"system":"http://unitsofmeasure.org","code":"/min"}}"#
    }

    struct Read {
        var name: String?
        var values: [Double]
        var subject: String
    }

    /// Each record by its patient id: name, heart-rate values in order, subject; and the export's notes.
    static func read(_ lines: [String]) throws -> (records: [String: Read], notes: [String], order: [String]) {
        let file = try TestSupport.temporaryFile(Data(lines.joined(separator: "\n").utf8), name: "export.ndjson")
        let export = try FHIRExport(path: file.path, options: try FHIRImportOptions(period: "2026-11-09/P7D", zone: "UTC"))
        var records: [String: Read] = [:]
        var order: [String] = []
        try export.forEachRecord { record in
            guard case .string(let id)? = record.value(at: "patient.id") else { return }
            var values: [Double] = []
            if case .array(let points)? = record.value(at: "series.heartRate.points") {
                for point in points { if case .number(let value)? = point["value"] { values.append(value) } }
            }
            var name: String?
            if case .string(let text)? = record.value(at: "patient.name") { name = text }
            if records[id] != nil { throw FolioError(path: "", "two records for \(id.debugDescription)") }
            records[id] = Read(name: name, values: values, subject: record.value(at: "patient.subject")?.json ?? "")
            order.append(id)
        }
        return (records, export.notes, order)
    }
}

/// Generated ids — valid ones, case variants, NUL, '/', '..', whitespace, letters beyond ASCII —
/// never put two patients' readings in one record, and every valid id keeps exactly its own.
struct FHIRIdentityPropertyTests {
    static let pieces = ["p", "P", "a", "A", "0", "-", ".", "..", "/", "\u{0}", " ", "\t", "é", "e\u{301}", "Patient", "_history", "\n"]

    @Test func noTwoIdsShareARecord() async throws {
        let ids = Gen.int(in: 0..<FHIRIdentityPropertyTests.pieces.count).array(of: 1...4).array(of: 1...8)
        await propertyCheck(count: 60, input: ids) { generated in
            let ids = generated.map { $0.map { FHIRIdentityPropertyTests.pieces[$0] }.joined() }
            var lines: [String] = []
            for (number, id) in ids.enumerated() {
                lines.append(FHIRIdentityTests.patient(id, name: "N\(number)"))
                lines.append(FHIRIdentityTests.heartRate(id: "o\(number)", subject: "Patient/\(id)", value: Double(100 + number)))
            }
            guard let result = try? FHIRIdentityTests.read(lines) else {
                Issue.record("the export could not be read: \(ids.map(\.debugDescription))")
                return
            }
            // The last Patient of an id is the one kept (a later copy is a newer version); readings of the same
            // id are that patient's. Ids FHIR does not allow make no record.
            var expected: [String: [Double]] = [:]
            for (number, id) in ids.enumerated() where FHIRReference.isID(id) { expected[id, default: []].append(Double(100 + number)) }
            #expect(Set(result.records.keys) == Set(expected.keys), "\(ids.map(\.debugDescription)) → \(result.order)")
            for (id, values) in expected { #expect(result.records[id]?.values == values, "\(id.debugDescription)") }
        }
    }
}
