import Foundation
import XCTest

@testable import Folio

/// HL7's IPS example Bundles through `Templates/patient-summary.yaml` with `folio batch
/// --data-format fhir`, as a care team would: every section title and the words of every entry the
/// sections list are in the PDF and the HTML, no markup of the narrative shows, and the PDFs pass
/// both PDF/UA checkers.
final class PatientSummaryIntegrationTests: XCTestCase {
    private var folio: String { TestSupport.folioBinary.path }
    private let template = TestSupport.root.appendingPathComponent("Templates/patient-summary.yaml").path
    private let bundles = TestSupport.root.appendingPathComponent("Tests/FolioFHIRTests/Fixtures/ips")

    /// The words a reader looks for of each entry a Composition's sections list: the entry's
    /// concept text or its displays.
    private func expectedTexts(of bundle: [String: Any]) -> (titles: [String], entries: [[String]]) {
        let entries = bundle["entry"] as? [[String: Any]] ?? []
        var byReference: [String: [String: Any]] = [:]
        for entry in entries {
            guard let resource = entry["resource"] as? [String: Any] else { continue }
            if let url = entry["fullUrl"] as? String { byReference[url] = resource }
            if let type = resource["resourceType"] as? String, let id = resource["id"] as? String {
                byReference["\(type)/\(id)"] = resource
            }
        }
        func words(_ concept: Any?) -> [String] {
            guard let concept = concept as? [String: Any] else { return [] }
            var texts = [concept["text"] as? String].compactMap { $0 }
            texts += (concept["coding"] as? [[String: Any]] ?? []).compactMap { $0["display"] as? String }
            return texts
        }
        var titles: [String] = []
        var expected: [[String]] = []
        let composition = entries.compactMap { $0["resource"] as? [String: Any] }.first { $0["resourceType"] as? String == "Composition" }
        for section in composition?["section"] as? [[String: Any]] ?? [] {
            if let title = section["title"] as? String { titles.append(title) }
            for reference in section["entry"] as? [[String: Any]] ?? [] {
                guard let target = reference["reference"] as? String, let resource = byReference[target] else { continue }
                let texts = ["code", "vaccineCode", "medicationCodeableConcept"].lazy.map { words(resource[$0]) }.first { !$0.isEmpty }
                if let texts { expected.append(texts) }
            }
        }
        return (titles, expected)
    }

    private func squeezed(_ text: String) -> String { text.filter { !$0.isWhitespace } }

    func testEveryIPSExampleRendersItsSectionsAndEntriesInPDFAndHTML() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: bundles.path).filter { $0.hasSuffix(".json") }.sorted()
        XCTAssertEqual(names.count, 5)
        var pdfs: [String] = []
        for name in names {
            let out = try TestSupport.temporaryDirectory()
            let started = Date()
            let result = try TestSupport.run(
                folio,
                [
                    "batch", template, "--data", bundles.appendingPathComponent(name).path, "--data-format", "fhir", "--out", out.path,
                    "--format", "pdf,html", "--quiet",
                ])
            XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
            XCTAssertLessThan(Date().timeIntervalSince(started), 5, "\(name): a summary takes under 5 s")
            let files = try FileManager.default.contentsOfDirectory(atPath: out.path)
            let pdfName = try XCTUnwrap(files.first { $0.hasSuffix(".pdf") }, name)
            let htmlName = try XCTUnwrap(files.first { $0.hasSuffix(".html") }, name)
            // In reading order (a wrapped cell's lines together), as pdftotext reads without -layout.
            let extracted = try TestSupport.run("/usr/bin/pdftotext", ["-raw", out.appendingPathComponent(pdfName).path, "-"])
            let pdfText = squeezed(extracted.text)
            let html = try String(contentsOf: out.appendingPathComponent(htmlName), encoding: .utf8)
            let htmlText = squeezed(
                html.replacingOccurrences(of: "<style[^>]*>[\\s\\S]*?</style>", with: "", options: .regularExpression)
                    .replacingOccurrences(of: "<[^>]+>", with: " ", options: .regularExpression)
                    .replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&lt;", with: "<")
                    .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"")
                    .replacingOccurrences(of: "&#39;", with: "'"))
            let source = try XCTUnwrap(
                try JSONSerialization.jsonObject(with: Data(contentsOf: bundles.appendingPathComponent(name))) as? [String: Any])
            let expected = expectedTexts(of: source)
            XCTAssertFalse(expected.titles.isEmpty, name)
            for title in expected.titles {
                XCTAssertTrue(pdfText.contains(squeezed(title)), "\(name): section \"\(title)\" is not in the PDF")
                XCTAssertTrue(htmlText.contains(squeezed(title)), "\(name): section \"\(title)\" is not in the HTML")
            }
            for texts in expected.entries {
                XCTAssertTrue(texts.contains { pdfText.contains(squeezed($0)) }, "\(name): \(texts) is not in the PDF")
                XCTAssertTrue(texts.contains { htmlText.contains(squeezed($0)) }, "\(name): \(texts) is not in the HTML")
            }
            // The narrative's XHTML is read as words: none of its markup reaches a reader.
            for markup in ["<div", "xmlns", "<td", "</", "&lt;"] {
                XCTAssertFalse(pdfText.contains(squeezed(markup)), "\(name): \(markup) in the PDF")
                XCTAssertFalse(htmlText.contains(squeezed(markup)), "\(name): \(markup) in the HTML's text")
            }
            pdfs.append(out.appendingPathComponent(pdfName).path)
        }
        try TestSupport.assertPassesPDFUACheckers(pdfs)
    }

    /// `folio render` binds a template to the one patient of an IPS Bundle; a file of several
    /// patients needs `--id`, named in one line.
    func testRenderBindsOnePatientOfFHIRData() throws {
        let out = try TestSupport.temporaryDirectory().appendingPathComponent("summary.pdf").path
        let bundle = bundles.appendingPathComponent("IPS-examples-Bundle-01.json").path
        let one = try TestSupport.run(folio, ["render", template, "--data", bundle, "--data-format", "fhir", "-o", out])
        XCTAssertEqual(one.status, 0, one.stderr)
        let text = try TestSupport.pdfText(Data(contentsOf: URL(fileURLWithPath: out)))
        XCTAssertTrue(text.contains("Martha DeLarosa") && text.contains("Allergies and Intolerances"), text)
        let export = TestSupport.samples.appendingPathComponent("fhir-export").path
        let several = try TestSupport.run(folio, ["render", template, "--data", export, "--data-format", "fhir", "-o", out])
        XCTAssertEqual(several.status, 1)
        XCTAssertTrue(several.stderr.hasPrefix("folio: error: --id: ") && several.stderr.contains("holds 4 patients"), several.stderr)
        let chosen = try TestSupport.run(
            folio, ["render", template, "--data", export, "--data-format", "fhir", "--id", "pat-okafor", "-o", out])
        XCTAssertEqual(chosen.status, 0, chosen.stderr)
        XCTAssertTrue(try TestSupport.pdfText(Data(contentsOf: URL(fileURLWithPath: out))).contains("Chidi Okafor"))
        let missing = try TestSupport.run(
            folio, ["render", template, "--data", export, "--data-format", "fhir", "--id", "nobody", "-o", out])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("--id: no patient \"nobody\""), missing.stderr)
        // Other data: one record by --record.
        let records = TestSupport.samples.appendingPathComponent("patients.jsonl").path
        let weekly = TestSupport.root.appendingPathComponent("Templates/weekly-summary.yaml").path
        let second = try TestSupport.run(folio, ["render", weekly, "--data", records, "--record", "2", "-o", out])
        XCTAssertEqual(second.status, 0, second.stderr)
        let noChoice = try TestSupport.run(folio, ["render", weekly, "--data", records, "-o", out])
        XCTAssertTrue(noChoice.stderr.contains("--record: "), noChoice.stderr)
    }

    /// A test measured 300 times: the PDF stays a short summary (the latest value and five earlier,
    /// a trend chart, no printed table of readings); the HTML carries every reading in the chart's
    /// collapsed data table, each value with its time.
    func testTheWholeSeriesTravelsInTheHTMLNotAsPrintedRows() throws {
        var entries: [[String: Any]] = [
            [
                "fullUrl": "https://example.org/fhir/Patient/p1",
                "resource": ["resourceType": "Patient", "id": "p1", "name": [["family": "Test", "given": ["Ann"]]]],
            ]
        ]
        for index in 0..<300 {
            let observation: [String: Any] = [
                "resourceType": "Observation", "id": "o\(index)", "status": "final",
                "category": [["coding": [["system": "http://terminology.hl7.org/CodeSystem/observation-category", "code": "laboratory"]]]],
                "code": ["coding": [["system": "http://loinc.org", "code": "2345-7", "display": "Glucose"]]],
                "subject": ["reference": "Patient/p1"],
                "effectiveDateTime": String(format: "2026-%02d-%02dT08:00:00Z", 1 + index / 28, 1 + index % 28),
                "valueQuantity": ["value": 90 + index % 30, "unit": "mg/dL", "system": "http://unitsofmeasure.org", "code": "mg/dL"],
            ]
            entries.append(["fullUrl": "https://example.org/fhir/Observation/o\(index)", "resource": observation])
        }
        let bundle = try JSONSerialization.data(withJSONObject: ["resourceType": "Bundle", "type": "collection", "entry": entries])
        let input = try TestSupport.temporaryFile(bundle, name: "series.json")
        let folder = try TestSupport.temporaryDirectory()
        for format in ["pdf", "html"] {
            let result = try TestSupport.run(
                folio,
                [
                    "render", template, "--data", input.path, "--data-format", "fhir", "-o",
                    folder.appendingPathComponent("s.\(format)").path,
                ])
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        let html = try String(contentsOf: folder.appendingPathComponent("s.html"), encoding: .utf8)
        let details = try XCTUnwrap(html.range(of: "<details class=\"folio-chart-data\">"), "the chart's data table")
        let rows = html[details.upperBound...].components(separatedBy: "</details>").first?.components(separatedBy: "<tr").count ?? 0
        XCTAssertEqual(rows - 1, 301, "a header row and all 300 readings")
        let pdf = try Data(contentsOf: folder.appendingPathComponent("s.pdf"))
        let pages = try TestSupport.pageTexts(pdf)
        XCTAssertLessThanOrEqual(pages.count, 3, "a summary, not 300 printed rows")
        XCTAssertFalse(pages.joined().contains("Glucose over time: Data"), "no data table printed")
    }
}
