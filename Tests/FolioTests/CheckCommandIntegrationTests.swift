import Foundation
import XCTest

/// `folio check` as a template author runs it before a batch: every record bound and validated,
/// each failing one named where it is, nothing written, exit 1 when any fails.
final class CheckCommandIntegrationTests: XCTestCase {
    private var folio: String { TestSupport.folioBinary.path }
    private let weekly = TestSupport.root.appendingPathComponent("Templates/weekly-summary.yaml").path

    /// Without --data, a document is checked as folio render reads it (#59): its errors at their
    /// line, its images read, nothing written.
    func testADocumentIsCheckedWithoutData() throws {
        let good = try TestSupport.run(folio, ["check", TestSupport.samples.appendingPathComponent("weekly-summary.yaml").path])
        XCTAssertEqual(good.status, 0, good.stderr)
        XCTAssertEqual(good.text, "checked 1 document: none failed\n")
        let folder = try TestSupport.temporaryDirectory()
        let bad = folder.appendingPathComponent("bad.yaml")
        try Data("title: T\nelements:\n  - {type: paragraph, text: Hi}\n  - {type: table, rows: [[1, 2], 3]}\n".utf8).write(to: bad)
        let refused = try TestSupport.run(folio, ["check", bad.path])
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.stderr, "\(bad.path):4:34: error: elements[1].rows[1]: expected an array of strings\n")
        let image = folder.appendingPathComponent("image.yaml")
        try Data("title: T\nelements:\n  - {type: image, path: nothere.png, alt: x}\n".utf8).write(to: image)
        let missing = try TestSupport.run(folio, ["check", image.path, "--render"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("elements[0].path"), missing.stderr)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["bad.yaml", "image.yaml"], "nothing written")
    }

    func testEveryRecordIsCheckedAndEachFailureNamedByLineAndField() throws {
        let data = TestSupport.samples.appendingPathComponent("patients.jsonl").path
        let before = try FileManager.default.contentsOfDirectory(atPath: TestSupport.samples.path)
        let result = try TestSupport.run(folio, ["check", weekly, "--data", data, "--render"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(result.text, "checked 5 records: 1 failed\n")
        XCTAssertEqual(
            result.stderr,
            "folio: error: \(data):4: record 4: elements[2].items[0].value: mean needs numbers, but pain[3] is a string (template \(weekly):23:31)\n"
        )
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: TestSupport.samples.path), before, "nothing is written")
    }

    func testGoodDataPassesAndFailuresBeyondTheLimitAreCounted() throws {
        let good = try TestSupport.temporaryFile(Data("{\"patient\":{\"name\":\"A\"}}\n".utf8), name: "good.jsonl")
        let template = try TestSupport.temporaryFile(Data("title: \"{{patient.name}}\"\nelements: []\n".utf8), name: "t.yaml")
        let passed = try TestSupport.run(folio, ["check", template.path, "--data", good.path])
        XCTAssertEqual(passed.status, 0, passed.stderr)
        XCTAssertEqual(passed.text, "checked 1 record: none failed\n")
        // CSV: three records missing the field, one line each up to --max-failures, all counted.
        let csv = try TestSupport.temporaryFile(Data("other\n1\n2\n3\n".utf8), name: "bad.csv")
        let failed = try TestSupport.run(folio, ["check", template.path, "--data", csv.path, "--max-failures", "2"])
        XCTAssertEqual(failed.status, 1)
        XCTAssertEqual(failed.text, "checked 3 records: 3 failed (the first 2 shown)\n")
        XCTAssertEqual(failed.stderr.split(separator: "\n").count, 2, failed.stderr)
        XCTAssertTrue(failed.stderr.contains("record 1: title: "), failed.stderr)
    }

    func testFHIRDataIsCheckedPatientByPatient() throws {
        let summary = TestSupport.root.appendingPathComponent("Templates/patient-summary.yaml").path
        let export = TestSupport.samples.appendingPathComponent("fhir-export").path
        let result = try TestSupport.run(folio, ["check", summary, "--data", export, "--data-format", "fhir", "--render"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.text, "checked 4 records: none failed\n")
    }
}
