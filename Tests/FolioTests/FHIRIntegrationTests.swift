import Crypto
import Foundation
import XCTest

@testable import Folio

/// `folio records` and `folio batch --data-format fhir --emit fhir` as a care team runs them, and the
/// resources they write checked against FHIR R4 by an independent library.
final class FHIRIntegrationTests: XCTestCase {
    private var folio: String { TestSupport.folioBinary.path }
    private let template = TestSupport.root.appendingPathComponent("Templates/fhir-weekly-summary.yaml").path
    private let export = TestSupport.samples.appendingPathComponent("fhir-export").path
    private let fixture = TestSupport.root.appendingPathComponent("Tests/FolioTests/Fixtures/fhir-export").path
    private let validator = TestSupport.root.appendingPathComponent("Tests/FolioTests/Fixtures/validate_fhir.py").path
    private let week = ["--data-format", "fhir", "--period", "2026-11-09/2026-11-15", "--zone", "America/New_York"]

    private func json(_ url: URL) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    func testRecordsPrintsOneLinePerPatientAndTheExportsProblems() throws {
        let result = try TestSupport.run(folio, ["records", fixture] + week)
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.text.split(separator: "\n")
        XCTAssertEqual(lines.count, 3)
        let first = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        let series = try XCTUnwrap(first["series"] as? [String: Any])
        let heartRate = try XCTUnwrap(series["heartRate"] as? [String: Any])
        XCTAssertEqual((heartRate["daily"] as? [Any])?.map { $0 as? Double }, [72, 80, 90, nil, nil, nil, nil])
        XCTAssertTrue(result.stderr.contains("folio: warning: Observation.ndjson:6: not a JSON resource"), result.stderr)
        // Missing or bad options are one line naming the option.
        // Without a period, all of the data: each record's days run from its first reading to its last.
        let noPeriod = try TestSupport.run(folio, ["records", fixture, "--data-format", "fhir"])
        XCTAssertEqual(noPeriod.status, 0, noPeriod.stderr)
        let whole = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(noPeriod.text.split(separator: "\n")[0].utf8)) as? [String: Any])
        XCTAssertEqual((whole["period"] as? [String: Any])?["start"] as? String, "2026-11-09")
        let badZone = try TestSupport.run(
            folio, ["records", fixture, "--data-format", "fhir", "--period", "2026-11-09/P7D", "--zone", "Nowhere"])
        XCTAssertEqual(badZone.stderr, "folio: error: --zone: \"Nowhere\" is not an IANA time zone, such as UTC or America/New_York\n")
    }

    func testABatchWritesAPDFAndAValidDocumentReferencePerPatientAndOneTransaction() throws {
        let out = try TestSupport.temporaryDirectory()
        let result = try TestSupport.run(
            folio, ["batch", template, "--data", export, "--out", out.path, "--emit", "fhir", "--quiet", "--jobs", "2"] + week)
        XCTAssertEqual(result.status, 0, result.stderr)
        let patients = ["pat-rivera", "pat-okafor", "pat-lindqvist", "pat-haddad"]
        for id in patients {
            let pdf = out.appendingPathComponent("\(id).pdf")
            let data = try Data(contentsOf: pdf)
            let text = try TestSupport.pdfText(data)
            XCTAssertTrue(text.contains("Weekly Care Summary") && text.contains("Blood pressure"), id)
            let reference = try json(out.appendingPathComponent("\(id).fhir.json"))
            XCTAssertEqual(reference["resourceType"] as? String, "DocumentReference")
            XCTAssertEqual(reference["status"] as? String, "current")
            XCTAssertEqual((reference["subject"] as? [String: Any])?["reference"] as? String, "Patient/\(id)")
            let type = try XCTUnwrap(((reference["type"] as? [String: Any])?["coding"] as? [[String: Any]])?.first)
            XCTAssertEqual(type["system"] as? String, "http://loinc.org")
            XCTAssertEqual(type["code"] as? String, "34133-9")
            let period = (reference["context"] as? [String: Any])?["period"] as? [String: String]
            XCTAssertEqual(period, ["start": "2026-11-09", "end": "2026-11-15"])
            let attachment = try XCTUnwrap(((reference["content"] as? [[String: Any]])?.first)?["attachment"] as? [String: Any])
            XCTAssertEqual(attachment["contentType"] as? String, "application/pdf")
            XCTAssertEqual(attachment["url"] as? String, "\(id).pdf")
            XCTAssertEqual(attachment["size"] as? Int, data.count)
            XCTAssertEqual(attachment["hash"] as? String, Data(Insecure.SHA1.hash(data: data)).base64EncodedString(), "base64 SHA-1")
            XCTAssertEqual(attachment["title"] as? String, "Weekly Care Summary")
        }
        let bundle = try json(out.appendingPathComponent("bundle.json"))
        XCTAssertEqual(bundle["type"] as? String, "transaction")
        let entries = try XCTUnwrap(bundle["entry"] as? [[String: Any]])
        XCTAssertEqual(
            entries.compactMap { (($0["resource"] as? [String: Any])?["subject"] as? [String: Any])?["reference"] as? String },
            patients.map { "Patient/\($0)" }, "in record order")
        XCTAssertEqual(Set(entries.compactMap { ($0["request"] as? [String: String])?["method"] }), ["POST"])
        // The manifest lists the references with the documents.
        let manifest = try String(contentsOf: out.appendingPathComponent("manifest.jsonl"), encoding: .utf8)
        XCTAssertEqual(manifest.components(separatedBy: ".fhir.json").count - 1, 4)

        // Independent FHIR R4 validation of every reference and the Bundle.
        try TestSupport.integrationOnly()
        let python = try TestSupport.python()
        let files = patients.map { out.appendingPathComponent("\($0).fhir.json").path } + [out.appendingPathComponent("bundle.json").path]
        let check = try TestSupport.run(python, [validator] + files)
        XCTAssertEqual(check.status, 0, check.text + check.stderr)
        XCTAssertEqual(check.text, "ok 5\n")
        // The checker is not a formality: a broken reference fails it.
        var broken = try json(out.appendingPathComponent("pat-rivera.fhir.json"))
        broken["status"] = "draft"
        let brokenFile = try TestSupport.temporaryFile(try JSONSerialization.data(withJSONObject: broken), name: "broken.fhir.json")
        let refused = try TestSupport.run(python, [validator, brokenFile.path])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.text.contains("status is not a DocumentReference status"), refused.text)

        // --resume skips every record and still writes the whole Bundle.
        let again = try TestSupport.run(
            folio, ["batch", template, "--data", export, "--out", out.path, "--emit", "fhir", "--quiet", "--resume"] + week)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual((try json(out.appendingPathComponent("bundle.json"))["entry"] as? [Any])?.count, 4)
        XCTAssertFalse(
            try FileManager.default.contentsOfDirectory(atPath: out.path).contains { $0.hasPrefix(".folio-tmp") },
            "no temporary file is left")
    }

    func testTheFHIRSummariesPassBothPDFUACheckers() throws {
        try TestSupport.integrationOnly()
        let out = try TestSupport.temporaryDirectory()
        let result = try TestSupport.run(folio, ["batch", template, "--data", export, "--out", out.path, "--quiet"] + week)
        XCTAssertEqual(result.status, 0, result.stderr)
        let pdfs = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".pdf") }.sorted()
            .map { out.appendingPathComponent($0).path }
        XCTAssertEqual(pdfs.count, 4)
        // Warnings count as failures: a split table's long caption, a range chart beside day labels.
        try TestSupport.assertPassesPDFUACheckers(pdfs)
    }

    func testATemplateForFHIRShowsMissingDaysAsGapsNotZeros() throws {
        // Okafor's steps are absent (dataAbsentReason) on 2026-11-14: the chart's text alternative says so.
        let out = try TestSupport.temporaryDirectory()
        let result = try TestSupport.run(
            folio, ["batch", template, "--data", export, "--out", out.path, "--format", "html", "--quiet", "--in-process"] + week)
        XCTAssertEqual(result.status, 0, result.stderr)
        let html = try String(contentsOf: out.appendingPathComponent("pat-okafor.html"), encoding: .utf8)
        let steps = try XCTUnwrap(html.range(of: "Steps by day"))
        let chart = html[steps.lowerBound...].prefix(3000)
        XCTAssertTrue(chart.contains("No data (Sat 14)"), String(chart))
        XCTAssertFalse(chart.contains("lowest value 0 "), "an absent day is not a zero")
    }
}

/// The render service takes one patient's FHIR Bundle as it takes a record.
final class FHIRServiceIntegrationTests: XCTestCase {
    /// A collection Bundle of one sample patient's resources, their references turned into the Patient's urn:uuid.
    private func bundle(for ids: [String]) throws -> Data {
        let folder = TestSupport.samples.appendingPathComponent("fhir-export")
        var entries: [String] = []
        for file in ["Patient", "Observation", "MedicationAdministration"] {
            let text = try String(contentsOf: folder.appendingPathComponent("\(file).ndjson"), encoding: .utf8)
            for line in text.split(separator: "\n")
            where ids.contains(where: { line.contains("\"\($0)\"") || line.contains("Patient/\($0)\"") }) {
                var resource = String(line)
                var fullUrl = ""
                for (index, id) in ids.enumerated() {
                    let urn = "urn:uuid:00000000-0000-4000-8000-00000000000\(index)"
                    resource = resource.replacingOccurrences(of: "\"Patient/\(id)\"", with: "\"\(urn)\"")
                    if file == "Patient", line.contains("\"id\": \"\(id)\"") { fullUrl = urn }
                }
                entries.append(fullUrl.isEmpty ? #"{"resource":\#(resource)}"# : #"{"fullUrl":"\#(fullUrl)","resource":\#(resource)}"#)
            }
        }
        return Data(#"{"resourceType":"Bundle","type":"collection","entry":[\#(entries.joined(separator: ","))]}"#.utf8)
    }

    func testAPatientsBundleRendersWithThePeriodInTheQuery() throws {
        let root = TestSupport.root
        let server = try RunningServer([
            "--templates", root.appendingPathComponent("Templates").path, "--assets", root.appendingPathComponent("Templates").path,
        ])
        defer { server.stop() }
        let route = server.url("/v1/templates/fhir-weekly-summary/render")
        let fhir = ["Content-Type: application/fhir+json"]
        let one = try bundle(for: ["pat-okafor"])
        let response = try HTTPExchange.send(
            "POST", route + "?period=2026-11-09/2026-11-15&zone=America/New_York", headers: fhir, body: one)
        XCTAssertEqual(response.status, 200, response.text.prefix(400).description)
        let text = try TestSupport.pdfText(response.body)
        XCTAssertTrue(text.contains("Chidi Okafor") && text.contains("MRN-104250"), text.prefix(400).description)
        XCTAssertTrue(text.contains("Blood pressure by day"))

        // Without a period: all of the Bundle's data.
        let noPeriod = try HTTPExchange.send("POST", route, headers: fhir, body: one)
        XCTAssertEqual(noPeriod.status, 200, noPeriod.text.prefix(400).description)
        XCTAssertTrue(try TestSupport.pdfText(noPeriod.body).contains("Chidi Okafor"))
        let badZone = try HTTPExchange.send("POST", route + "?period=2026-11-09/P7D&zone=Atlantis", headers: fhir, body: one)
        XCTAssertEqual(badZone.status, 400)
        XCTAssertTrue((badZone.json["detail"] as? String ?? "").hasPrefix("zone: \"Atlantis\""), badZone.text)
        let two = try HTTPExchange.send(
            "POST", route + "?period=2026-11-09/P7D", headers: fhir, body: try bundle(for: ["pat-okafor", "pat-rivera"]))
        XCTAssertEqual(two.status, 400)
        XCTAssertTrue((two.json["detail"] as? String ?? "").contains("more than one patient"), two.text)
        let notJSON = try HTTPExchange.send("POST", route + "?period=2026-11-09/P7D", headers: fhir, body: Data("{".utf8))
        XCTAssertEqual(notJSON.status, 400)
        let periodWithRecord = try HTTPExchange.send(
            "POST", route + "?period=2026-11-09/P7D", headers: ["Content-Type: application/json"], body: Data("{}".utf8))
        XCTAssertEqual(periodWithRecord.status, 400)
    }
}
