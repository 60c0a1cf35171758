import Foundation
import XCTest

@testable import Folio
@testable import FolioTemplate

/// WCAG 2.2 AA and axe's best practices as auditors check them: axe-core 4.12 in headless
/// Chromium (driven by selenium, `Browser/axe_check.py`; tags wcag2a … wcag22aa and
/// best-practice) on every sample and the hardest layout as a page, as a fragment in a host page
/// and as a shadow-DOM fragment in a host page, at 320, 360, 768 and 1280 px; and every chart
/// text at least 12 CSS px as rendered at each of those widths.
final class AccessibilityIntegrationTests: XCTestCase {
    private struct Finding: Decodable {
        struct Violation: Decodable {
            let id: String
            let impact: String?
            let targets: [String]
        }
        let page: String
        let width: Int
        let violations: [Violation]
        let chartTexts: Int
        let smallestChartText: Double?
        let smallTexts: [String]

        enum CodingKeys: String, CodingKey {
            case page, width, violations
            case chartTexts = "chart_texts"
            case smallestChartText = "smallest_chart_text"
            case smallTexts = "small_texts"
        }
    }

    /// The test venv's Python (make test-deps installs selenium and axe-playwright-python into it).
    private var python: String {
        ProcessInfo.processInfo.environment["FOLIO_PYTHON"] ?? TestSupport.root.appendingPathComponent(".venv/bin/python").path
    }

    /// A neutral, accessible host page around a fragment, as a portal would embed it.
    private func hostPage(_ fragment: String) -> String {
        """
        <!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1"><title>Patient portal</title></head>
        <body><main><h1>Patient portal</h1><p>Your latest summary:</p>
        \(fragment)
        </main></body></html>
        """
    }

    private func run(pages: [URL]) throws -> [Finding] {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw XCTSkip("no test venv: run `make test`, which installs selenium and axe-core into .venv")
        }
        let axe = try TestSupport.run(
            python,
            ["-c", "import axe_playwright_python, os; print(os.path.join(os.path.dirname(axe_playwright_python.__file__), 'axe.min.js'))"]
        ).text.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(FileManager.default.fileExists(atPath: axe), "axe.min.js not found: \(axe)")
        let driver = ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let script = TestSupport.root.appendingPathComponent("Tests/FolioTests/Browser/axe_check.py").path
        let output = try TestSupport.run(
            python, [script, axe, try XCTUnwrap(driver, "chromium-driver is not installed")] + pages.map(\.path))
        XCTAssertEqual(output.status, 0, output.stderr)
        return try output.text.split(separator: "\n").map { try JSONDecoder().decode(Finding.self, from: Data($0.utf8)) }
    }

    func testEverySampleHasNoWCAGViolationsAndLegibleChartsAtEveryWidth() throws {
        let folder = try TestSupport.temporaryDirectory()
        var pages: [URL] = []
        let samples = try FileManager.default.contentsOfDirectory(atPath: TestSupport.samples.path).filter { $0.hasSuffix(".yaml") }
            .sorted()
        XCTAssertGreaterThanOrEqual(samples.count, 5)
        // The samples, and the hardest layout with and without a title (its first heading is then
        // a subtitle, which must still be the page's h1).
        var documents = try samples.map { sample in
            (
                sample.replacingOccurrences(of: ".yaml", with: ""),
                try DocumentDecoder.decode(try Data(contentsOf: TestSupport.samples.appendingPathComponent(sample)), format: .yaml)
            )
        }
        for (name, title) in [("hardest", "Weekly Care Summaries"), ("hardest-untitled", nil)] {
            let yaml = ConformanceIntegrationTests.hardestLayout(title: title)
            documents.append((name, try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml)))
        }
        for (name, document) in documents {
            for output in HTMLRenderer.Output.allCases {
                var html = try document.html(options: RenderOptions(baseDirectory: TestSupport.samples, html: output))
                if output != .page { html = hostPage(html) }
                let page = folder.appendingPathComponent("\(name)-\(output.rawValue).html")
                try Data(html.utf8).write(to: page)
                pages.append(page)
            }
        }
        let findings = try run(pages: pages)
        XCTAssertEqual(findings.count, pages.count * 4, "one result per page and width")
        for finding in findings {
            let label = "\(URL(fileURLWithPath: finding.page).lastPathComponent) at \(finding.width) px"
            XCTAssertEqual(
                finding.violations.map(\.id), [],
                "\(label): \(finding.violations.map { "\($0.id): \($0.targets.joined(separator: "; "))" })")
            if let smallest = finding.smallestChartText {
                XCTAssertGreaterThanOrEqual(smallest, 12, "\(label): chart text below 12 px: \(finding.smallTexts)")
            }
        }
        // The gallery's charts were measured, at every width.
        let gallery = findings.filter { $0.page.hasSuffix("charts-page.html") }
        XCTAssertEqual(gallery.count, 4)
        XCTAssertTrue(gallery.allSatisfy { $0.chartTexts > 100 }, "\(gallery.map(\.chartTexts))")
    }

    /// The harness finds what it is there to find: a missing alt text, unreadably small chart text.
    func testTheCheckerReportsViolationsAndSmallText() throws {
        let page = try TestSupport.temporaryDirectory().appendingPathComponent("bad.html")
        let html = """
            <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Bad</title></head><body><main>
            <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
            <svg viewBox="0 0 10000 100" width="100%"><text x="0" y="50" font-size="10">tiny</text></svg>
            </main></body></html>
            """
        try Data(html.utf8).write(to: page)
        let findings = try run(pages: [page])
        XCTAssertEqual(findings.count, 4)
        for finding in findings {
            XCTAssertTrue(finding.violations.contains { $0.id == "image-alt" }, "\(finding.violations.map(\.id))")
            XCTAssertLessThan(try XCTUnwrap(finding.smallestChartText), 12)
        }
    }
}
