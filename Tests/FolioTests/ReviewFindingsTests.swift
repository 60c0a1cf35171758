import Foundation
import XCTest

@testable import Folio
@testable import FolioBatch

/// Blind spots a review found: each test fails when its rule is loosened or its bug comes back.
final class ReviewFindingsTests: XCTestCase {
    private func themeError(_ spec: ThemeSpec) -> String? {
        do {
            try spec.validate(path: "theme")
            return nil
        } catch {
            return "\(error)"
        }
    }

    func testThemeBoundsHoldAtBothEnds() {
        let sizes: [(String, WritableKeyPath<ThemeSpec, Double?>)] = [
            ("titleSize", \.titleSize), ("subtitleSize", \.subtitleSize), ("bodySize", \.bodySize), ("smallSize", \.smallSize),
        ]
        for (name, key) in sizes {
            for (value, accepted) in [(3.99, false), (4, true), (96, true), (96.01, false), (.nan, false), (.infinity, false)] {
                var spec = ThemeSpec()
                spec[keyPath: key] = value
                XCTAssertEqual(
                    themeError(spec), accepted ? nil : "theme.\(name): font sizes must be between 4 and 96 points", "\(name) = \(value)")
            }
        }
        for (count, accepted) in [(0, false), (1, true), (256, true), (257, false)] {
            var spec = ThemeSpec()
            spec.palette = Array(repeating: Color(red: 0, green: 0, blue: 0), count: count)
            XCTAssertEqual(themeError(spec) == nil, accepted, "\(count) colours")
        }
        for (family, accepted) in [
            ("", false), ("A", true), (String(repeating: "A", count: 100), true), (String(repeating: "A", count: 101), false),
        ] {
            var spec = ThemeSpec()
            spec.fontFamily = family
            XCTAssertEqual(themeError(spec) == nil, accepted, "font family of \(family.count) characters")
        }
    }

    func testABlankChartAltIsDescribedFromTheDataAndReported() throws {
        let chart = Chart.bar(BarChart(categories: ["Mon", "Tue"], series: [ChartSeries(title: "Pain", values: [3, 5])]), title: "Pain")
        var blank = chart
        blank.alt = "   \n"
        let document = Document(title: "T", elements: [.chart(blank)])
        let result = try document.pdfWithReport()
        XCTAssertEqual(result.report.warnings.map(\.path), ["elements[0].alt"])
        let qdf = try TestSupport.run(
            "qpdf", ["--qdf", "--object-streams=disable", try TestSupport.temporaryFile(result.data, name: "alt.pdf").path, "-"])
        XCTAssertTrue(qdf.text.contains("/Alt (Bar chart, Pain"), "the PDF's /Alt is the generated description")
        let html = try document.html()
        XCTAssertTrue(html.contains("-desc\">Bar chart, Pain"), "so is the SVG's <desc>")
        XCTAssertFalse(html.contains("-desc\">   "))
    }

    /// `--resume` skips a record only when every file it writes exists and is listed in the manifest.
    func testResumeSkipsOnlyRecordsWhoseFilesExistAndAreListed() throws {
        let folder = try TestSupport.temporaryDirectory()
        let template = folder.appendingPathComponent("t.yaml")
        try Data("title: \"{{id}}\"\nelements:\n  - {type: paragraph, text: \"x\"}\n".utf8).write(to: template)
        let data = folder.appendingPathComponent("d.jsonl")
        try Data(["A", "B", "C", "D"].map { "{\"id\": \"\($0)\"}" }.joined(separator: "\n").utf8).write(to: data)
        let out = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        // A: written and listed. B: written, not listed (killed before its line). C: listed, file gone. D: neither.
        for name in ["A", "B"] { try Data("%PDF-old".utf8).write(to: out.appendingPathComponent("\(name).pdf")) }
        let listed = ["A", "C"].map { "{\"record\": 1, \"file\": \"\($0).pdf\", \"bytes\": 8, \"pages\": 1, \"sha256\": \"x\"}" }
        try Data((listed.joined(separator: "\n") + "\n").utf8).write(to: out.appendingPathComponent("manifest.jsonl"))
        var options = BatchOptions(template: template, data: data.path, outputDirectory: out, namePattern: "{{id}}", jobs: 1, resume: true)
        options.workers = nil
        let summary = try BatchRunner(options: options).run(progress: nil)
        XCTAssertEqual(summary.skipped, 1)
        XCTAssertEqual(summary.written, 3)
        XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent("A.pdf")), Data("%PDF-old".utf8), "A was skipped")
        for name in ["B", "C", "D"] {
            XCTAssertTrue(try Data(contentsOf: out.appendingPathComponent("\(name).pdf")).starts(with: Data("%PDF-1".utf8)), name)
        }
    }
}
