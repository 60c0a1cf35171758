import Foundation
import XCTest

@testable import Folio
@testable import FolioTemplate

/// Pagination, typography, navigation and structure of the PDF, checked on
/// purpose-built documents with poppler, qpdf and the layout report.
final class PDFLayoutTests: XCTestCase {
    private func render(_ document: Document) throws -> PDFRenderer.Result {
        try document.pdfWithReport()
    }

    private let rightEdge = 595.2756 - 56.6929

    func testHeadingsStayWithTheBlockAfterThem() throws {
        var elements: [Block] = []
        for section in 0..<25 {
            elements.append(.subtitle(Subtitle("Heading \(section)")))
            elements.append(.paragraph(Paragraph(String(repeating: "Body text of the section. ", count: 5 + section % 6 * 11))))
        }
        let report = try render(Document(title: "Keep", elements: elements)).report
        XCTAssertGreaterThan(report.pages, 3)
        let byPath = Dictionary(uniqueKeysWithValues: report.blocks.map { ($0.path, $0) })
        for index in stride(from: 0, to: elements.count, by: 2) {
            XCTAssertEqual(
                byPath["elements[\(index)]"]?.pages.first, byPath["elements[\(index + 1)]"]?.pages.first,
                "heading \(index / 2) left alone")
        }
        XCTAssertTrue(report.warnings.isEmpty, "\(report.warnings)")
    }

    func testARowTallerThanAPageSplitsInsideItsCells() throws {
        let long = (1...160).map { "Line \($0) of a very long note." }.joined(separator: "\n")
        let table = Table(
            header: ["Date", "Note"], rows: [["Mon", "short"], ["Tue", long], ["Wed", "after"]],
            caption: "Notes", continuedCaption: "Notes (continued)")
        let result = try render(Document(title: "Tall row", elements: [.table(table)]))
        XCTAssertGreaterThanOrEqual(result.pages, 3)
        XCTAssertEqual(result.report.warnings.map(\.kind), [.rowSplit])
        let pages = try TestSupport.pageTexts(result.data)
        let text = pages.joined()
        for line in 1...160 { XCTAssertTrue(text.contains("Line \(line) of a very long note."), "line \(line) lost") }
        XCTAssertEqual(text.components(separatedBy: "Line 80 of").count, 2, "a line drawn twice")
        for (index, page) in pages.enumerated() {
            XCTAssertTrue(page.contains("Date") && page.contains("Note"), "header missing on page \(index + 1)")
            if index > 0 { XCTAssertTrue(page.contains("Notes (continued)"), "no continued caption on page \(index + 1)") }
        }
        XCTAssertTrue(text.contains("after"))
        // The report lists the rows on each page; the split row appears on several.
        let rows = try XCTUnwrap(result.report.blocks.first { $0.type == "table" }?.rows)
        XCTAssertEqual(rows.first?.first, 0)
        XCTAssertEqual(rows.last?.last, 2)
        XCTAssertGreaterThan(rows.filter { $0.contains(1) }.count, 1)
    }

    func testAHundredThousandRowTableKeepsEveryRowOnce() throws {
        try TestSupport.integrationOnly()
        let rows = (0..<100_000).map { ["R\($0)", String($0 * 3)] }
        let document = Document(
            title: "Long", metadata: Metadata(tagged: false),
            elements: [.table(Table(header: ["Row", "Value"], rows: rows))])
        let result = try render(document)
        let parts = try XCTUnwrap(result.report.blocks.first { $0.type == "table" }?.rows)
        XCTAssertEqual(parts.first?.first, 0)
        XCTAssertEqual(parts.last?.last, 99_999)
        for (a, b) in zip(parts, parts.dropFirst()) { XCTAssertEqual(a[1] + 1, b[0], "rows skipped or repeated") }
        XCTAssertEqual(result.pages, parts.count + 0, "one part per page")
        let last = try TestSupport.pageTexts(result.data).last ?? ""
        XCTAssertTrue(last.contains("R99999") && last.contains("Page \(result.pages) of \(result.pages)"))
    }

    func testSectionsRestartPageNumbersAndNamePages() throws {
        var elements: [Block] = []
        for (name, paragraphs) in [("Ann", 12), ("Bob", 3), ("Cy", 25)] {
            elements.append(.section(Section(title: "Patient \(name)", label: name)))
            elements += (0..<paragraphs).map { _ in .paragraph(Paragraph(String(repeating: "Words for the record. ", count: 30))) }
        }
        let document = Document(title: "Packet", footer: "Page {page} of {pages} ({documentPage}/{documentPages})", elements: elements)
        let result = try render(document)
        let pages = try TestSupport.pageTexts(result.data)
        var expected: [String] = []
        var sectionPages: [Int] = []
        for block in result.report.blocks where block.type == "section" { sectionPages.append(block.pages[0]) }
        XCTAssertEqual(sectionPages.first, 1, "the first section shares the title page")
        let bounds = sectionPages + [pages.count + 1]
        for s in 0..<3 {
            let count = bounds[s + 1] - bounds[s]
            for n in 1...count { expected.append("Page \(n) of \(count) (\(bounds[s] + n - 1)/\(pages.count))") }
        }
        for (page, footer) in zip(pages, expected) { XCTAssertTrue(page.contains(footer), "expected \(footer)") }
        // Page labels name each page after its section.
        let file = try TestSupport.temporaryFile(result.data, name: "packet.pdf")
        let json = try TestSupport.run("qpdf", ["--json", "--json-key=pagelabels", file.path]).text
        XCTAssertTrue(json.contains("\"/P\": \"u:Bob-\"") || json.contains("Bob-"), json)
    }

    func testBookmarksInternalLinksAndTaggedStructure() throws {
        let document = Document(
            title: "Navigation", metadata: Metadata(language: "fr-CA"),
            elements: [
                .paragraph(Paragraph("Jump to [the results](#results).")),
                .subtitle(Subtitle("Method")),
                .paragraph(Paragraph("How it was done.")),
                .pageBreak,
                .subtitle(Subtitle("Results", id: "results")),
                .table(Table(header: ["A", "B"], rows: [["1", "2"]])),
                .image(ImageBlock(source: .file("logo.png"), alt: "Logo")),
            ])
        let data = try document.pdf(options: RenderOptions(baseDirectory: TestSupport.samples))
        let file = try TestSupport.temporaryFile(data, name: "nav.pdf")
        XCTAssertEqual(try TestSupport.run("qpdf", ["--check", file.path]).status, 0)
        let outlines = try TestSupport.run("qpdf", ["--json", "--json-key=outlines", file.path]).text
        for title in ["Navigation", "Method", "Results"] { XCTAssertTrue(outlines.contains("\"title\": \"\(title)\""), title) }
        XCTAssertTrue(outlines.contains("\"destpageposfrom1\": 2"), "Results bookmark on page 2")
        let raw = try TestSupport.readablePDF(data)
        XCTAssertTrue(raw.contains("/Lang (fr-CA)"))
        XCTAssertTrue(raw.contains("/MarkInfo << /Marked true >>"))
        XCTAssertTrue(
            raw.contains("/Dest (folio-results)") || raw.contains("/Dest /folio-results") || raw.contains("folio-results"),
            "no internal link")
        let structure = try TestSupport.run("pdfinfo", ["-struct", file.path]).text
        for tag in ["H1", "P", "H2", "Link", "Table", "TR", "TH", "TD", "Figure"] {
            XCTAssertTrue(structure.contains(tag), "no \(tag) in the structure tree:\n\(structure)")
        }
    }

    func testArabicRunsRightToLeftAndCJKUsesAFallbackFont() throws {
        let arabic = "هذا نص عربي قصير يكتب من اليمين إلى اليسار"
        let chinese = String(repeating: "患者本周完成了大部分治疗计划，疼痛在周中达到高峰。", count: 6)
        let result = try render(Document(title: "Scripts", elements: [.paragraph(Paragraph(arabic)), .paragraph(Paragraph(chinese))]))
        XCTAssertTrue(result.report.warnings.isEmpty, "\(result.report.warnings)")
        let boxes = try TestSupport.words(result.data)
        // The Arabic line starts at the right margin.
        let arabicWords = boxes.filter { $0.text.unicodeScalars.contains { (0x0600...0x06FF).contains($0.value) } }
        XCTAssertFalse(arabicWords.isEmpty)
        XCTAssertEqual(arabicWords.map(\.xMax).max() ?? 0, rightEdge, accuracy: 2)
        // The first letter in reading order (ه of هذا) is the right-most one.
        let rightMost = try XCTUnwrap(arabicWords.max { $0.xMax < $1.xMax })
        XCTAssertEqual(rightMost.text, "ه")
        let file = try TestSupport.temporaryFile(result.data, name: "scripts.pdf")
        let fonts = try TestSupport.run("pdffonts", [file.path]).text
        XCTAssertTrue(fonts.contains("CJK"), "no CJK fallback font:\n\(fonts)")
        let lines = try TestSupport.pageTexts(result.data)[0].split(separator: "\n").filter { $0.contains("患者") || $0.contains("疼痛") }
        XCTAssertGreaterThan(lines.count, 1, "the Chinese paragraph should wrap")
    }

    /// Boxes in a page's header or footer (a patient's name in a script no font has) are reported
    /// as body text's are, once, naming the place.
    func testMissingGlyphsInTheHeaderAndFooterAreReported() throws {
        var document = Document(title: "Report", elements: [.paragraph(Paragraph("Body"))])
        document.header = RunningLine(left: "Patient \u{10FFFD}")
        document.footer = RunningLine(right: "Ward \u{10FFFD}")
        let report = try document.pdfWithReport().report
        XCTAssertEqual(report.warnings.filter { $0.kind == .missingGlyphs }.map(\.path), ["footer.right", "header.left"])
    }

    func testMissingGlyphsAndImagesWithoutAltAreReported() throws {
        let document = Document(
            title: "Report",
            elements: [
                .paragraph(Paragraph("A private-use character: \u{10FFFD}")),
                .image(ImageBlock(source: .file("logo.png"))),
            ])
        let report = try document.pdfWithReport(options: RenderOptions(baseDirectory: TestSupport.samples)).report
        XCTAssertEqual(Set(report.warnings.map(\.kind)), [.missingGlyphs, .missingAlt])
        XCTAssertEqual(report.warnings.first { $0.kind == .missingGlyphs }?.path, "elements[0]")
        XCTAssertEqual(report.warnings.first { $0.kind == .missingAlt }?.path, "elements[1].alt")
    }

    /// WCAG 1.4.11: the default palette's colours reach 3:1 against the page; a series drawn in a
    /// fainter colour (here a pale yellow tint, and a lighter shade of the palette for the ninth
    /// series) is a layout-report warning naming the series.
    func testFaintSeriesColoursAreReportedAndTheDefaultPaletteHasNone() throws {
        for (index, color) in Theme.standard.palette.enumerated() {
            XCTAssertGreaterThanOrEqual(color.contrast(with: .white), 3, "palette[\(index)] \(color.hex)")
        }
        let series = (0..<9).map { ChartSeries(title: "S\($0)", values: [1, 2]) }
        var faint = series
        faint[2].tint = Color(parsing: "#FFE066")
        let document = Document(
            title: "Report",
            elements: [
                .chart(.bar(BarChart(categories: ["A", "B"], series: Array(series.prefix(8))), title: "Eight")),
                .chart(.bar(BarChart(categories: ["A", "B"], series: faint), title: "Nine")),
            ])
        let report = try document.pdfWithReport().report
        let warnings = report.warnings.filter { $0.kind == .lowContrast }
        XCTAssertEqual(warnings.map(\.path), ["elements[1]"], "\(report.warnings)")
        XCTAssertTrue(warnings.first?.message.contains("series[2] #FFE066") == true, warnings.first?.message ?? "")
        XCTAssertTrue(warnings.first?.message.contains("series[8]") == true, warnings.first?.message ?? "")
    }

    func testJustifiedParagraphFillsItsLines() throws {
        let text = String(repeating: "Justified text spreads its words so both edges are straight. ", count: 8)
        let data = try render(Document(title: "Justify", elements: [.paragraph(Paragraph(text, align: .justify))])).data
        let body = try TestSupport.words(data).filter { $0.yMin > 100 && $0.yMin < 700 }
        let lines = Dictionary(grouping: body) { Int($0.yMin.rounded()) }.sorted { $0.key < $1.key }
        XCTAssertGreaterThan(lines.count, 3)
        for (_, words) in lines.dropLast() {
            XCTAssertEqual(words.map(\.xMax).max() ?? 0, rightEdge, accuracy: 1.5, "a full line ends at the margin")
        }
    }

    func testExplicitColumnWidths() throws {
        let table = Table(header: ["Left", "Right"], rows: [["a", "b"]], widths: [.percent(25), .auto])
        let data = try render(Document(title: "Widths", elements: [.table(table)])).data
        let right = try XCTUnwrap(try TestSupport.words(data).first { $0.text == "Right" })
        XCTAssertEqual(right.xMin, 56.6929 + (rightEdge - 56.6929) * 0.25 + TableLayoutPadding.x, accuracy: 1)
    }

    func testLayoutReportAndStrictModeOnTheCommandLine() throws {
        let yaml = "title: T\nelements:\n  - {type: image, path: logo.png}\n  - {type: paragraph, text: Body}\n"
        let input = TestSupport.samples.appendingPathComponent("..").appendingPathComponent(".build/strict-\(UUID().uuidString).yaml")
        try Data(yaml.utf8).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let folder = try TestSupport.temporaryDirectory()
        let report = folder.appendingPathComponent("report.json")
        // Image paths are relative to the input: put the logo beside it.
        let logo = input.deletingLastPathComponent().appendingPathComponent("logo.png")
        try? FileManager.default.copyItem(at: TestSupport.samples.appendingPathComponent("logo.png"), to: logo)
        let folio = TestSupport.folioBinary.path
        let relaxed = try TestSupport.run(
            folio,
            [
                "render", input.path, "-o", folder.appendingPathComponent("a.pdf").path,
                "--layout-report", report.path,
            ])
        XCTAssertEqual(relaxed.status, 0, relaxed.stderr)
        let decoded = try JSONDecoder().decode(LayoutReport.self, from: Data(contentsOf: report))
        XCTAssertEqual(decoded.pages, 1)
        XCTAssertEqual(decoded.blocks.map(\.path), ["title", "elements[0]", "elements[1]"])
        XCTAssertEqual(decoded.warnings.map(\.kind), [.missingAlt])
        let strict = try TestSupport.run(folio, ["render", input.path, "-o", folder.appendingPathComponent("b.pdf").path, "--strict"])
        XCTAssertEqual(strict.status, 1)
        // The image without `alt` is placed at the element, the nearest field the file holds.
        XCTAssertEqual(
            strict.stderr,
            "\(input.path):3:5: error: elements[0].alt: layout: the image has no text alternative, so it is treated as decoration\n")
    }

    func testSourceDateEpochGivesIdenticalBytes() throws {
        try TestSupport.integrationOnly()
        let yaml = try TestSupport.temporaryFile(
            Data("title: Same\nelements:\n  - {type: paragraph, text: Body}\n".utf8), name: "same.yaml")
        var environment = ProcessInfo.processInfo.environment
        environment["SOURCE_DATE_EPOCH"] = "1763280000"
        let a = try TestSupport.run(TestSupport.folioBinary.path, ["render", yaml.path, "-o", "-"], environment: environment).stdout
        usleep(1_100_000)
        let b = try TestSupport.run(TestSupport.folioBinary.path, ["render", yaml.path, "-o", "-"], environment: environment).stdout
        XCTAssertFalse(a.isEmpty)
        XCTAssertEqual(a, b)
        XCTAssertTrue(try TestSupport.pdfInfo(a)["CreationDate"]?.contains("2025") == true)
    }

    /// Every sample and template gives the same bytes in every process, PDF, HTML and workbook alike
    /// (a Set's order, seeded per process, once ordered a table's highlight rules).
    func testEveryOutputIsTheSameInEveryProcess() throws {
        try TestSupport.integrationOnly()
        var environment = ProcessInfo.processInfo.environment
        environment["SOURCE_DATE_EPOCH"] = "1763280000"
        let log = [
            "render", TestSupport.root.appendingPathComponent("Templates/medication-log.yaml").path, "--data",
            TestSupport.samples.appendingPathComponent("medication-log.json").path,
        ]
        for (arguments, format) in [
            (log, "html"), (log, "pdf"), (log, "xlsx"),
            (["render", TestSupport.samples.appendingPathComponent("hard-cases.yaml").path], "html"),
        ] {
            var outputs = Set<Data>()
            for _ in 0..<4 {
                let result = try TestSupport.run(
                    TestSupport.folioBinary.path, arguments + ["--format", format, "-o", "-"], environment: environment)
                XCTAssertEqual(result.status, 0, result.stderr)
                outputs.insert(result.stdout)
            }
            XCTAssertEqual(
                outputs.count, 1, "\(arguments.dropFirst().first ?? "") as \(format): \(outputs.count) different outputs in 4 processes")
        }
    }
}

/// The table cell padding, restated for geometry assertions.
enum TableLayoutPadding {
    static let x = 5.0
}

/// Blocks side by side and internal-link checks.
final class ColumnsTests: XCTestCase {
    func testColumnsStandSideBySideOnOnePage() throws {
        let pie = Chart(
            title: "Share", .pie(PieChart(segments: [ChartSegment(title: "Steps", value: 60), ChartSegment(title: "Tasks", value: 40)])))
        let rings = Chart(title: "Rings", .rings(RingChart(rings: [ChartSegment(title: "Move", value: 0.5)])))
        let document = Document(title: "Columns", elements: [.columns(Columns([.chart(pie), .chart(rings)], widths: [3, 2]))])
        let result = try document.pdfWithReport()
        XCTAssertEqual(result.pages, 1)
        let file = try TestSupport.temporaryFile(result.data, name: "columns.pdf")
        let html = try TestSupport.run("pdftotext", ["-bbox", file.path, "-"]).text
        func x(_ word: String) -> Double? {
            html.firstMatch(of: try! Regex(#"<word xMin="([\d.]+)" yMin="([\d.]+)"[^>]*>"# + word + "</word>"))
                .flatMap { $0.output[1].substring.flatMap { Double($0) } }
        }
        func y(_ word: String) -> Double? {
            html.firstMatch(of: try! Regex(#"<word xMin="[\d.]+" yMin="([\d.]+)"[^>]*>"# + word + "</word>"))
                .flatMap { $0.output[1].substring.flatMap { Double($0) } }
        }
        let share = try XCTUnwrap(x("Share"))
        let ringsX = try XCTUnwrap(x("Rings"))
        // The second column starts 3/5 of the way across (less the gap).
        XCTAssertEqual(ringsX - share, (481.89 - 14) * 0.6 + 14, accuracy: 1)
        XCTAssertEqual(try XCTUnwrap(y("Share")), try XCTUnwrap(y("Rings")), accuracy: 0.5, "titles on one line")
        let page = try document.html()
        XCTAssertTrue(page.contains("<div class=\"folio-columns\"><div class=\"folio-column folio-share-60\">"))
        XCTAssertTrue(page.contains("folio-share-40{flex:40 1 256px}"))
    }

    func testColumnsRejectBlocksThatCannotStandInThem() throws {
        let yaml = "title: T\nelements:\n  - {type: columns, items: [{type: paragraph, text: a}, {type: table, rows: [[x]]}]}\n"
        XCTAssertThrowsError(try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml)) {
            XCTAssertEqual("\($0)", "elements[0].items[1]: a table cannot stand in a column")
        }
    }

    func testInternalLinksMustNameAnAnchor() throws {
        let document = Document(
            title: "T", elements: [.paragraph(Paragraph("See [results](#results)")), .subtitle(Subtitle("Results", id: "result"))])
        XCTAssertThrowsError(try document.pdf()) {
            XCTAssertEqual("\($0)", ##"elements[0].text: link to "#results", but no subtitle or section has id "results""##)
        }
    }
}
