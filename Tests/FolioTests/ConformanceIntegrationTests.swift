import Foundation
import XCTest

@testable import Folio
@testable import FolioTemplate

/// PDF/UA-1 and PDF/A-2u as an auditor would check them: with outloud (PyPI), a PDF/UA-1 and
/// WCAG 2.2 checker independent of Folio whose rules map to the Matterhorn Protocol's failure
/// conditions, warnings counted as failures, beside pdfua and `qpdf --check`. It reads every
/// sample (tagged, and as PDF/A-2u), a document of every block kind with and without a title,
/// and the hardest layout there is.
final class ConformanceIntegrationTests: XCTestCase {
    /// Split tables with header rows and cells across columns, sections, columns, right-to-left
    /// and Chinese text, images with and without alt text, a picture, every kind of link,
    /// messages, tiles and charts, a running header and footer.
    /// Six pages, each beginning with a gridded chart (its top tick's number at the paper's top)
    /// and two gridded charts to a page: a checker must not take the ticks for page numbers nor
    /// the grids for tables that no Table tags.
    static let chartsAtPageTops: String = {
        // Month names, not numbers: a checker takes a line repeated at the top of pages but for
        // its digits ("Glucose, week 2") for a running header.
        let months = ["January", "February", "March", "April", "May", "June"]
        let charts = (1...6).map { page in
            """
              - type: chart
                kind: line
                title: Glucose in \(months[page - 1])
                plots: [{title: Glucose (mmol/L), x: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], values: [5.1, 7.4, 9.8, 6.2, 11.3, 8.8, 4.9, 7.7, 10.2, 6.6]}]
                xAxis: {title: Day of the study}
                yAxis: {title: Glucose in millimoles per litre}
                thresholds: [{value: 10, label: Above the target range}, {value: 4, label: Below the target range}]
              - type: chart
                kind: bar
                orientation: horizontal
                title: Doses in \(months[page - 1])
                categories: [Metformin, Insulin glargine, Lisinopril]
                series: [{title: Doses taken this week, values: [14, 7, 6]}, {title: Doses scheduled this week, values: [14, 7, 7]}]
            \(page < 6 ? "  - {type: pageBreak}" : "")
            """
        }
        return "title: Charts at the top of pages\nelements:\n" + charts.joined(separator: "\n")
    }()

    static func hardestLayout(title: String?) -> String {
        """
        \(title.map { "title: \"\($0)\"" } ?? "")
        header: Riverside ward · week 46
        footer: "Page {page} of {pages}"
        metadata: {author: Riverside Care Team, language: en, creationDate: 2026-11-16T08:00:00Z}
        elements:
          - {type: subtitle, text: About this report}
          - type: paragraph
            text: "Read **the summary** first, then [the log](#log); the portal is https://portal.example/care and <https://example.org/help>."
          - type: widgets
            items: [{title: Average pain, value: "3.1", detail: out of 10}, {title: Adherence, value: 51%}]
          - {type: section, title: Émile Okafor, label: P1}
          - {type: message, kind: tip, title: Keep it up, text: "Two goals met; see [the guide](https://example.org/guide)."}
          - type: columns
            items:
              - type: chart
                kind: bar
                title: Pain by day
                categories: [Mon, Tue, Wed, Thu, Fri, Sat, Sun]
                series: [{title: Pain, values: [3, 5, 1, 4, 1, 7, 1]}]
              - {type: paragraph, text: "Pain peaked on Saturday after a long shift and eased on Sunday."}
          - {type: image, path: logo.png, alt: Riverside Care logo, caption: The clinic}
          - {type: image, path: logo.png}
          - type: svg
            svg: '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="30"><text x="0" y="20">Signed: A. Nurse</text></svg>'
            alt: Signature of the nurse in charge
          - {type: subtitle, text: Observation log, id: log}
          - type: table
            caption: Daily observations
            continuedCaption: true
            header: [Day, Heart rate, Pain, Note]
            widths: ["18%", "16%", "12%", auto]
            rows:
        \((1...70).map { "      - [\"Day \($0)\", \"\(60 + $0 % 40)\", \"\($0 % 10)\", \"\($0 % 7 == 0 ? "slept badly; woke at 3 am, then again at 5 am" : "ok")\"]" }.joined(separator: "\n"))
              - [{text: "Weekly review: no change to the plan", span: 4}]
              - ["Day 71", {text: "Measured at the clinic", span: 2}, "ok"]
              - ["Day 72", "70", "1", "log at https://portal.example/log, 2 * 3 [sic]"]
          - {type: section, title: Amal Haddad, label: P2}
          - {type: paragraph, text: "تحسن الألم خلال الأسبوع، وتم الالتزام بخطة الأدوية في معظم الأيام."}
          - {type: paragraph, text: "患者本周完成了大部分治疗计划，疼痛在周中达到高峰。"}
          - type: chart
            kind: pie
            title: Share of activity
            segments: [{title: Walking, value: 40}, {title: Cycling, value: 35}, {title: Swimming, value: 25}]
          - {type: pageBreak}
          - {type: message, kind: alert, title: Follow-up, text: Call the family on Monday to review the new dose.}
        """
    }

    private func render(_ document: Document, pagesPerPart: Int? = nil) throws -> Data {
        var options = RenderOptions(baseDirectory: TestSupport.samples)
        options.pagesPerPart = pagesPerPart
        return try document.pdf(options: options)
    }

    private func decode(_ yaml: String) throws -> Document {
        try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml)
    }

    /// Resource dictionaries are copied from Cairo's text unless one names something twice (Cairo
    /// 1.16 can name one image twice): none in the finished file does, whatever the document.
    func testNoResourceIsNamedTwice() throws {
        try TestSupport.integrationOnly()
        let script = TestSupport.root.appendingPathComponent("Tests/FolioTests/Fixtures/resource_names.py").path
        // The check itself finds a repeated name.
        let repeated = try TestSupport.temporaryFile(
            Data("1 0 obj << /XObject << /x1 5 0 R /x1 5 0 R >> >> endobj".utf8), name: "repeated.pdf")
        XCTAssertEqual(try TestSupport.run(try TestSupport.python(), [script, repeated.path]).status, 1)
        var paths = [try TestSupport.temporaryFile(try render(try decode(Self.hardestLayout(title: "Hardest"))), name: "hardest.pdf").path]
        let samples = try FileManager.default.contentsOfDirectory(atPath: TestSupport.samples.path).filter { $0.hasSuffix(".yaml") }
        for name in samples.sorted() {
            let document = try DocumentDecoder.decode(try Data(contentsOf: TestSupport.samples.appendingPathComponent(name)), format: .yaml)
            paths.append(try TestSupport.temporaryFile(try render(document), name: name + ".pdf").path)
        }
        let check = try TestSupport.run(try TestSupport.python(), [script] + paths)
        XCTAssertEqual(check.status, 0, check.text)
    }

    func testTheIndependentCheckerFindsNothingWithWarningsCountedAsFailures() throws {
        try TestSupport.integrationOnly()
        let outloud = try TestSupport.venvTool("outloud", variable: "FOLIO_OUTLOUD")
        let pdfua = try TestSupport.venvTool("pdfua", variable: "FOLIO_PDFUA")
        // A long document is drawn and finished in parts of a few pages; every document is also
        // checked made of one-page parts (a table split over parts, links and bookmarks to pages
        // of other parts, page labels).
        var documents: [(name: String, document: Document, pagesPerPart: Int?)] = []
        let samples = try FileManager.default.contentsOfDirectory(atPath: TestSupport.samples.path).filter { $0.hasSuffix(".yaml") }
        XCTAssertGreaterThanOrEqual(samples.count, 6)
        for sample in samples.sorted() {
            let document = try decode(try String(contentsOf: TestSupport.samples.appendingPathComponent(sample), encoding: .utf8))
            documents.append((sample, document, nil))
            documents.append((sample + " in one-page parts", document, 1))
            var archival = document
            archival.metadata.conformance = .archival
            documents.append(("pdfa-2u " + sample, archival, nil))
        }
        for kind in Block.Kind.allCases {
            let block = BlockKindTests.sample(of: kind)
            // The samples link to "#pain".
            let anchor = Block.subtitle(Subtitle("Pain", id: "pain"))
            documents.append(("\(kind) with a title", Document(title: "Kinds", elements: [anchor, block]), nil))
            documents.append(("\(kind) first, no title", Document(title: "", elements: [block, anchor]), nil))
        }
        for title in ["Weekly Care Summaries", nil] {
            let hard = try decode(ConformanceIntegrationTests.hardestLayout(title: title))
            documents.append(("hardest layout, title \(title ?? "none")", hard, nil))
            documents.append(("hardest layout in one-page parts, title \(title ?? "none")", hard, 1))
            var archival = hard
            archival.metadata.conformance = .archival
            documents.append(("hardest layout as PDF/A-2u, title \(title ?? "none")", archival, nil))
            documents.append(("hardest layout as PDF/A-2u in parts of two pages, title \(title ?? "none")", archival, 2))
        }
        documents.append(("charts at the top of every page", try decode(ConformanceIntegrationTests.chartsAtPageTops), nil))
        var files: [String: String] = [:]
        for (index, entry) in documents.enumerated() {
            let file = try TestSupport.temporaryFile(
                try render(entry.document, pagesPerPart: entry.pagesPerPart), name: "conformance-\(index).pdf")
            files[file.path] = entry.name
        }
        let paths = files.keys.sorted()
        let result = try TestSupport.run(outloud, ["--fail-on", "warning", "--no-info", "--json", "-"] + paths)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.text.utf8)) as? [String: Any], result.stderr)
        let results = try XCTUnwrap(report["results"] as? [[String: Any]])
        XCTAssertEqual(results.count, paths.count)
        for checked in results {
            let name = files[checked["path"] as? String ?? ""] ?? "?"
            let findings = (checked["findings"] as? [[String: Any]] ?? []).filter { ($0["severity"] as? String) != "info" }
            let lines = findings.map { "\($0["rule"] ?? "?") \($0["message"] ?? "") — \($0["evidence"] ?? "")" }
            XCTAssertEqual(checked["verdict"] as? String, "pass", "\(name): \(lines.joined(separator: "; "))")
            XCTAssertTrue(findings.isEmpty, "\(name): \(lines.joined(separator: "; "))")
        }
        XCTAssertEqual(result.status, 0, result.stderr)
        for path in paths {
            let checked = try TestSupport.run(pdfua, ["check", path])
            XCTAssertTrue(checked.text.contains("errors=0 warnings=0"), "\(files[path] ?? path): \(checked.text)")
            let qpdf = try TestSupport.run("qpdf", ["--check", path])
            XCTAssertEqual(qpdf.status, 0, "\(files[path] ?? path): \(qpdf.text)")
        }
    }
}
