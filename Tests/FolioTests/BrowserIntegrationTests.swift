import Foundation
import XCTest

@testable import Folio
@testable import FolioTemplate

/// Loads the reports in headless Chromium, standalone and embedded in a host page
/// with hostile styles, and checks what a reader sees. Screenshots are kept in
/// `.build/test-artefacts/` (not committed).
final class BrowserIntegrationTests: XCTestCase {
    private static let artefacts = TestSupport.root.appendingPathComponent(".build/test-artefacts")

    private var chromium: String? {
        for path in ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        where FileManager.default.isExecutableFile(atPath: path) { return path }
        return nil
    }

    private func browser(_ arguments: [String]) throws -> TestSupport.Output {
        guard let chromium else { throw XCTSkip("Chromium is not installed: run `make test`, which installs it") }
        let profile = try TestSupport.temporaryDirectory()
        return try TestSupport.run(
            chromium,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                "--no-first-run", "--user-data-dir=\(profile.path)",
            ] + arguments)
    }

    private func documents() throws -> [(name: String, document: Document)] {
        let gallery = try DocumentDecoder.decode(
            try Data(contentsOf: TestSupport.samples.appendingPathComponent("charts.yaml")), format: .yaml)
        let packet = try DocumentDecoder.decode(
            try Data(contentsOf: TestSupport.samples.appendingPathComponent("packet.yaml")), format: .yaml)
        // Hard cases: a three-column table that scrolls on a phone, Arabic and Chinese; the Arabic
        // summary: a right-to-left report; a table of seven columns with dates, which a phone
        // narrows until a date would break at its hyphens.
        let hard = try DocumentDecoder.decode(
            try Data(contentsOf: TestSupport.samples.appendingPathComponent("hard-cases.yaml")), format: .yaml)
        let arabic = try DocumentDecoder.decode(
            try Data(contentsOf: TestSupport.samples.appendingPathComponent("weekly-summary-ar.yaml")), format: .yaml)
        let wide = try DocumentDecoder.decode(
            Data(
                """
                elements:
                  - type: table
                    header: [Medication, Dose, Notes, Prescriber, Pharmacy, Started, Review]
                    rows: [[Metformin, 500 mg, "With meals; read the leaflet", Dr Okafor, Riverside Pharmacy, 2026-11-01, 2026-12-01]]
                  - {type: table, header: [Day, Steps], rows: [[Mon, "4,200"]]}
                """.utf8), format: .yaml)
        return [
            ("weekly-summary", try TestSupport.sampleDocument()), ("charts", gallery), ("packet", packet), ("hard-cases", hard),
            ("weekly-summary-ar", arabic), ("wide-table", wide),
        ]
    }

    func testEveryTextIsVisibleWhenPrinted() throws {
        for (name, document) in try documents() {
            let folder = try TestSupport.temporaryDirectory()
            let page = folder.appendingPathComponent("\(name).html")
            try Data(try document.html(options: TestSupport.sampleOptions).utf8).write(to: page)
            let pdf = folder.appendingPathComponent("\(name).pdf")
            _ = try browser(["--no-pdf-header-footer", "--print-to-pdf=\(pdf.path)", page.path])
            try FileManager.default.createDirectory(at: BrowserIntegrationTests.artefacts, withIntermediateDirectories: true)
            _ = try browser([
                "--window-size=1280,2400",
                "--screenshot=\(BrowserIntegrationTests.artefacts.appendingPathComponent("\(name)-page-1280.png").path)", page.path,
            ])
            let text = TestSupport.normalized(try TestSupport.run("pdftotext", [pdf.path, "-"]).text)
            XCTAssertFalse(text.isEmpty, "Chromium printed nothing for \(name)")
            // Right-to-left text is checked on screen below: pdftotext reorders it.
            for string in TestSupport.visibleStrings(of: document)
            where !string.unicodeScalars.contains(where: { (0x0590...0x08FF).contains($0.value) }) {
                XCTAssertTrue(text.contains(TestSupport.normalized(string)), "\(name): '\(string)' is not visible in Chromium's print")
            }
        }
    }

    /// A host page with hostile ordinary styles, the report embedded, and a script
    /// (the host's, not Folio's) that measures what the reader sees.
    private func hostPage(embedding fragment: String) -> String {
        """
        <!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1"><title>Portal</title>
        <style>
        body { margin: 0; font-family: serif; } p { color: red; font-size: 30px; margin: 40px; }
        table { border: 5px solid red; width: 200px; font-size: 40px; } td, th { padding: 30px; color: red; }
        svg { width: 40px; height: 40px; fill: red; } h1, h2 { color: red; text-transform: uppercase; }
        div { padding: 7px; } * { letter-spacing: 3px; }
        </style></head><body>
        <p id="host-paragraph">Portal text before the report.</p>
        \(fragment)
        <pre id="result"></pre>
        <script>
        const host = document.querySelector('.folio-host');
        const root = (host && host.shadowRoot ? host.shadowRoot : document).querySelector('.folio');
        const width = window.innerWidth, problems = [];
        for (const el of root.querySelectorAll('*')) {
          if (el.closest('.folio-table-wrap') || el.closest('details') || el.closest('svg')) continue;
          const r = el.getBoundingClientRect();
          if (r.width > 0 && (r.right > width + 1 || r.left < -1)) problems.push('overflow ' + el.tagName + '.' + el.className + ' ' + Math.round(r.left) + '..' + Math.round(r.right));
        }
        for (const text of root.querySelectorAll('svg text')) {
          if (getComputedStyle(text).letterSpacing !== 'normal') { problems.push('host letter-spacing leaked into chart text'); break; }
        }
        for (const svg of root.querySelectorAll('svg')) {
          if (getComputedStyle(svg).display === 'none') continue;  // the chart's other layout, for another width
          const r = svg.getBoundingClientRect();
          // A sparkline is small on purpose, but never collapsed by the host's styles.
          if (svg.classList.contains('folio-spark')) { if (r.width < 30 || r.height < 10) problems.push('sparkline collapsed to ' + r.width); continue; }
          if (svg.parentElement.closest('.folio-svg, .folio-page-header, .folio-barcode')) continue;  // pictures, codes: their own size
          if (r.width < 200 && width > 400) problems.push('svg shrunk to ' + r.width);
          if (r.right > width + 1) problems.push('svg overflow ' + r.right);
        }
        for (const p of root.querySelectorAll('p, td, th, h1, h2')) {
          const s = getComputedStyle(p);
          if (s.color === 'rgb(255, 0, 0)') problems.push('host colour leaked into ' + p.tagName);
          if (parseFloat(s.fontSize) > 32) problems.push('host font size leaked into ' + p.tagName + ' ' + s.fontSize);
          if (s.textTransform === 'uppercase') problems.push('host text-transform leaked into ' + p.tagName);
          if (s.letterSpacing !== 'normal') problems.push('host letter-spacing leaked into ' + p.tagName);
          if (s.visibility !== 'visible' || s.display === 'none') problems.push('hidden ' + p.tagName);
        }
        // No word is broken across lines (a narrow column must scroll, not split "Heart" into "Hear t").
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (node.parentElement.closest('svg')) continue;
          const text = node.textContent;
          for (const match of text.matchAll(/\\S+/g)) {
            if (match[0].length > 30) continue;
            const range = document.createRange();
            range.setStart(node, match.index);
            range.setEnd(node, match.index + match[0].length);
            const lines = new Set(Array.from(range.getClientRects()).map(r => Math.round(r.top)));
            if (lines.size > 1) { problems.push('word broken across lines: ' + match[0]); break; }
          }
        }
        // A right-to-left paragraph runs from the right edge.
        for (const p of root.querySelectorAll('p')) {
          if (!/^[\\u0590-\\u08FF]/.test(p.textContent.trim())) continue;
          const range = document.createRange();
          range.selectNodeContents(p);
          const text = range.getBoundingClientRect(), box = p.getBoundingClientRect();
          if (Math.abs(text.right - box.right) > 2) problems.push('right-to-left paragraph not aligned right: ' + Math.round(text.right) + ' vs ' + Math.round(box.right));
        }
        const hostP = getComputedStyle(document.getElementById('host-paragraph'));
        if (hostP.color !== 'rgb(255, 0, 0)' || hostP.fontSize !== '30px') problems.push('report styles leaked into the host page');
        if (document.documentElement.scrollWidth > width + 1) problems.push('page scrolls sideways: ' + document.documentElement.scrollWidth);
        document.getElementById('result').textContent = 'RESULT:' + JSON.stringify(problems) + ':END';
        </script></body></html>
        """
    }

    func testEmbeddedInAHostilePageAtPhoneAndDesktopWidths() throws {
        try FileManager.default.createDirectory(at: BrowserIntegrationTests.artefacts, withIntermediateDirectories: true)
        for (name, document) in try documents() {
            for output in [HTMLRenderer.Output.fragment, .shadow] {
                let fragment = try document.html(options: RenderOptions(baseDirectory: TestSupport.samples, html: output))
                let folder = try TestSupport.temporaryDirectory()
                let page = folder.appendingPathComponent("host.html")
                try Data(hostPage(embedding: fragment).utf8).write(to: page)
                for width in [360, 1280] {
                    let dom = try browser(["--window-size=\(width),2000", "--virtual-time-budget=3000", "--dump-dom", page.path]).text
                    guard let start = dom.range(of: "RESULT:"), let end = dom.range(of: ":END") else {
                        XCTFail("\(name) \(output) \(width): the measuring script did not run")
                        continue
                    }
                    let problems = String(dom[start.upperBound..<end.lowerBound]).replacingOccurrences(of: "&quot;", with: "\"")
                    XCTAssertEqual(problems, "[]", "\(name), \(output), \(width) px")
                    let shot = BrowserIntegrationTests.artefacts.appendingPathComponent("\(name)-\(output.rawValue)-\(width).png")
                    _ = try browser(["--window-size=\(width),1600", "--screenshot=\(shot.path)", page.path])
                    XCTAssertTrue(FileManager.default.fileExists(atPath: shot.path))
                }
            }
        }
    }

    func testATableThatScrollsOnAPhoneShowsAShadowAtItsHiddenEdge() throws {
        // Phones hide scroll bars: a table cut at the screen's edge gave no sign that more of it
        // was there. The edge beyond which it continues is shaded (the right in English, the left
        // in Arabic, where it scrolls the other way); a table that fits is not.
        let wide = "[Medication, Dose, Notes, Prescriber, Pharmacy, Started, Review, Reason]"
        let row = "[Metformin, 500 mg, With meals and water, Dr Okafor, Riverside Pharmacy, 2026-11-01, 2026-12-01, Type 2 diabetes]"
        for (language, hiddenOnTheRight) in [("en", true), ("ar", false)] {
            let yaml = """
                metadata: {language: \(language)}
                elements:
                  - {type: table, header: \(wide), rows: [\(row), \(row), \(row)]}
                  - {type: table, header: [Day, Steps], rows: [[Mon, "4,200"], [Tue, "8,800"], [Wed, "5,100"]]}
                """
            let fragment = try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml).html(options: RenderOptions(html: .fragment))
            let folder = try TestSupport.temporaryDirectory()
            let page = folder.appendingPathComponent("tables.html")
            try Data(
                """
                <!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1"><title>Portal</title></head>
                <body style="margin:0">\(fragment)<pre id="result"></pre><script>
                const boxes = [...document.querySelectorAll('.folio-table-wrap')].map(w => {
                  const r = w.getBoundingClientRect();
                  return [Math.round(r.left), Math.round(r.top), Math.round(r.right), Math.round(r.bottom), w.scrollWidth > w.clientWidth + 1 ? 1 : 0];
                });
                document.getElementById('result').textContent = 'BOXES:' + JSON.stringify(boxes) + ':END';
                </script></body></html>
                """.utf8
            ).write(to: page)
            // 500 px: the narrowest window headless Chromium lays out a page for --dump-dom in (it
            // widens a narrower one), and the screenshot is taken at the same width.
            let dom = try browser(["--window-size=500,900", "--dump-dom", page.path]).text
            let found = try XCTUnwrap(dom.firstMatch(of: /BOXES:(\[.*\]):END/)?.output.1)
            let boxes = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(found.utf8)) as? [[Int]])
            XCTAssertEqual(boxes.map { $0[4] }, [1, 0], "\(language): the wide table scrolls on a phone, the narrow one fits")
            let shot = folder.appendingPathComponent("tables.png")
            _ = try browser(["--window-size=500,900", "--screenshot=\(shot.path)", page.path])
            // The median brightness of a column of pixels just inside each box's left and right edges.
            let script = """
                import json, sys
                from PIL import Image
                image = Image.open(sys.argv[1]).convert("L")
                result = []
                for left, top, right, bottom, _ in json.loads(sys.argv[2]):
                    def median(x):
                        values = sorted(image.getpixel((x, y)) for y in range(top + 2, bottom - 2))
                        return values[len(values) // 2]
                    result.append([median(left + 1), median(right - 2)])
                print(json.dumps(result))
                """
            let measured = try TestSupport.run(try TestSupport.python(), ["-c", script, shot.path, String(found)])
            XCTAssertEqual(measured.status, 0, measured.stderr)
            let edges = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(measured.stdout)) as? [[Int]])
            let (hidden, shown) = hiddenOnTheRight ? (edges[0][1], edges[0][0]) : (edges[0][0], edges[0][1])
            XCTAssertLessThan(hidden, 235, "\(language): the edge the wide table continues beyond is shaded: \(edges)")
            XCTAssertGreaterThan(shown, 238, "\(language): its other edge is not: \(edges)")
            XCTAssertGreaterThan(edges[1].min() ?? 0, 238, "\(language): a table that fits is not shaded: \(edges)")
        }
    }
}
