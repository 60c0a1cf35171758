import Foundation
import PropertyBased
import Testing
import XCTest

@testable import Folio
@testable import FolioBatch
@testable import FolioData
@testable import FolioFuzzing
@testable import FolioLayout
@testable import FolioPDF
@testable import FolioPango
@testable import FolioTemplate

/// Work that input drives is linear in its size: placeholders are filled in one pass, running
/// texts are shaped once per render and bounded in lines, and clusters of marks are bounded.
/// Each test puts a size on a time (generous for a busy machine, far below the old quadratic cost).
final class LinearTextTests: XCTestCase {
    private func seconds(_ work: () throws -> Void) rethrows -> Double {
        let start = Date()
        try work()
        return Date().timeIntervalSince(start)
    }

    // MARK: placeholders

    func testFillingPlaceholdersIsOnePass() {
        let values = ["page": "3", "pages": "9"]
        for count in [10_000, 40_000, 160_000] {
            let braces = String(repeating: "{", count: count) + "{page}"
            let unclosed = String(repeating: "{pag", count: count)
            let time = seconds {
                XCTAssertTrue(braces.fillingPlaceholders(values).hasSuffix("{3"))
                XCTAssertEqual(unclosed.fillingPlaceholders(values), unclosed)
                _ = braces.placeholderNames
            }
            // 45,000 braces took 13 s when every `{` searched to the end of the text.
            XCTAssertLessThan(time, Double(count) / 20_000, "\(count) braces")
        }
    }

    func testDoubledBracesAreLiteralBraces() {
        let values = ["page": "3", "pages": "9", "title": "{page}"]
        XCTAssertEqual("Page {page} of {pages}".fillingPlaceholders(values), "Page 3 of 9")
        XCTAssertEqual("{{page} is {page}".fillingPlaceholders(values), "{page} is 3")
        XCTAssertEqual("{title}".fillingPlaceholders(values), "{page}", "an inserted value is never filled again")
        XCTAssertEqual("{unknown} {} {{ {".fillingPlaceholders(values), "{unknown} {} { {")
        XCTAssertEqual("{{page}".placeholderNames, [])
        XCTAssertEqual("{page}{{x}{pages}".placeholderNames, ["page", "pages"])
        XCTAssertEqual("{page}".escapingPlaceholders.fillingPlaceholders(values), "{page}")
    }

    func testStringsPatternsWithManyBracesStayFast() throws {
        let pattern = String(repeating: "{", count: 45_000) + "{count} values"
        let document = Document(
            title: "T", strings: .init([.points: pattern]),
            elements: [.chart(.line(LineChart(x: .categories(["a", "b"]), plots: [LinePlot(title: "p", values: [1, 2])]), title: "C"))])
        let time = try seconds { _ = try document.html() }
        XCTAssertLessThan(time, 5)
    }

    func testRecordValuesStayLiteralInHeadersFootersAndPatterns() throws {
        let template = try DocumentTemplate(
            data: Data(
                """
                title: "{{name}}"
                header: "Patient {{name}}, page {page}"
                footer: {left: "{{name}}", right: "{page} / {pages}"}
                strings: {tip: "{{tip}}"}
                elements:
                  - {type: paragraph, text: "{{name}}"}
                  - {type: message, kind: tip, title: "T", text: "x"}
                """.utf8), format: .yaml)
        let record = TreeValue.object([("name", .string("{page} {{x}} {pages}")), ("tip", .string("{count}"))])
        let document = try template.document(for: record)
        let pdf = try document.pdf()
        let text = try TestSupport.pdfText(pdf)
        XCTAssertTrue(text.contains("Patient {page} {{x}} {pages}, page 1"), text)
        XCTAssertTrue(text.contains("{page} {{x}} {pages}"), text)
        XCTAssertTrue(text.contains("1/1") || text.contains("1 / 1"), "the template's own placeholders still work: \(text)")
        XCTAssertTrue(text.contains("{count}: T"), "a bound string is text too: \(text)")
        let html = try document.html()
        XCTAssertTrue(html.contains("Patient {page} {{x}} {pages}") || html.contains("{page} {{x}} {pages}"), html)
    }

    func testTemplateTextsParsedOnceBindEachRecordAndNameTheirFieldOnError() throws {
        // Placeholders are parsed when the template is read; each record still gets its own values,
        // a lone placeholder keeps its value's type, and a bad placeholder names its own field.
        func template(_ yaml: String) throws -> DocumentTemplate { try DocumentTemplate(data: Data(yaml.utf8), format: .yaml) }
        let greeting = try template(
            """
            title: "{{name | upper}}"
            elements:
              - {type: paragraph, text: "{{name | upper}} is {{age}}"}
              - {type: spacer, height: "{{age}}"}
            """)
        for (name, age) in [("ada", 36.0), ("grace", 85.0)] {
            let bound = try greeting.bind(.object([("name", .string(name)), ("age", .number(age))]))
            XCTAssertEqual(bound["title"], .string(name.uppercased()))
            guard case .array(let elements)? = bound["elements"] else { return XCTFail("\(bound)") }
            XCTAssertEqual(elements[0]["text"], .string("\(name.uppercased()) is \(Int(age))"))
            XCTAssertEqual(elements[1]["height"], .number(age))
        }
        let broken = try template(
            """
            title: "{{name}}"
            elements:
              - {type: paragraph, text: "{{name}}"}
              - {type: paragraph, text: "{{name | shout}}"}
              - {type: paragraph, text: "{{name"}
            """)
        XCTAssertThrowsError(try broken.bind(.object([("name", .string("ada"))]))) { error in
            XCTAssertEqual((error as? FolioError)?.path, "elements[1].text", "\(error)")
            XCTAssertTrue("\(error)".contains("unknown filter \"shout\""), "\(error)")
        }
    }

    func testTheThousandsFilterGroupsDigitsFromTheRight() throws {
        let template = try DocumentTemplate(
            data: Data(#"{title: "{{a | thousands}} {{b | thousands}} {{c | thousands: ' '}} {{d | thousands}}"}"#.utf8), format: .yaml)
        let bound = try template.bind(.object([("a", .number(1_234_567)), ("b", .number(999)), ("c", .number(-1000)), ("d", .number(0))]))
        XCTAssertEqual(bound["title"], .string("1,234,567 999 -1 000 0"))
    }

    func testDottedPathsReachObjectsArraysAndLoopVariables() throws {
        let record = TreeValue.object([
            ("patient", .object([("name", .string("Ada")), ("ids", .array([.string("A1"), .string("B2")]))])),
            ("stress", .array([.array([.number(2), .number(5)])])), ("", .string("empty key")),
            ("meds", .array([.object([("name", .string("Aspirin")), ("dose", .object([("mg", .number(81))]))])])),
        ])
        XCTAssertEqual(record.value(at: "patient.name"), .string("Ada"))
        XCTAssertEqual(record.value(at: "patient.ids.1"), .string("B2"))
        XCTAssertEqual(record.value(at: "stress.0.1"), .number(5))
        XCTAssertEqual(record.value(at: ""), .string("empty key"))
        for missing in ["patient.age", "patient.ids.2", "patient.ids.x", "stress.0.1.0", "patient..name", "patient.name."] {
            XCTAssertNil(record.value(at: missing), missing)
        }
        let template = try DocumentTemplate(
            data: Data(
                #"{title: "{{patient.name}} {{patient.ids.0}}", elements: [{$each: meds, $as: m, $item: {type: paragraph, text: "{{m.name}} {{m.dose.mg}}"}}]}"#
                    .utf8), format: .yaml)
        let bound = try template.bind(record)
        XCTAssertEqual(bound["title"], .string("Ada A1"))
        guard case .array(let elements)? = bound["elements"], let first = elements.first else { return XCTFail("\(bound)") }
        XCTAssertEqual(first["text"], .string("Aspirin 81"), "\(first)")
    }

    // MARK: running header and footer

    func testLongRunningTextsAreShapedOnceAndCutToThreeLines() throws {
        let long = String(repeating: "word ", count: 199)
        let pages = (0..<30).flatMap { _ in [Block.paragraph(Paragraph("p")), .pageBreak] }
        var document = Document(title: "T", elements: pages)
        document.header = RunningLine(left: long, right: "{page}")
        document.footer = RunningLine(right: String(repeating: "\n", count: 500) + "x")
        var result: PDFRenderer.Result?
        let time = try seconds { result = try document.pdfWithReport() }
        XCTAssertLessThan(time, 5, "30 pages with a 1,000-character header")
        let report = try XCTUnwrap(result).report
        XCTAssertTrue(
            report.warnings.contains { $0.path == "header.left" && $0.message.contains("cut with an ellipsis") }, "\(report.warnings)")
        XCTAssertTrue(report.warnings.contains { $0.path == "footer.right" }, "\(report.warnings)")
        let first = try TestSupport.pageTexts(try XCTUnwrap(result).data)[0]
        XCTAssertTrue(first.contains("word…"), first)
        // A 1 MB header (a bound value) is cut to 1,000 characters before it is filled and shaped on each page.
        let huge = Document(
            title: "T", header: String(repeating: "a ", count: 500_000) + "{page}", elements: Array(pages.prefix(40)))
        var hugeResult: PDFRenderer.Result?
        XCTAssertLessThan(try seconds { hugeResult = try huge.pdfWithReport() }, 5, "20 pages with a 1 MB header")
        XCTAssertTrue(try XCTUnwrap(hugeResult).report.warnings.contains { $0.path == "header.left" })
    }

    // MARK: characters

    func testLongClustersOfMarksAreCutToThirtyMarks() throws {
        let zalgo = "a" + String(repeating: "\u{301}", count: 100_000)
        let chart = Chart.bar(BarChart(categories: [zalgo, "b"], series: [ChartSeries(title: "s", values: [1, 2])]), title: "C")
        let document = Document(title: "T", elements: [.chart(chart), .paragraph(Paragraph(zalgo))])
        let time = try seconds {
            _ = try document.pdf()
            _ = try document.html()
        }
        XCTAssertLessThan(time, 5, "a category of one letter and 100,000 combining marks took 16 s")
        XCTAssertEqual(zalgo.replacingDisallowedCharacters.unicodeScalars.count, 31)
        XCTAssertEqual(MarkupEscaping.escape(zalgo).unicodeScalars.count, 31)
        let vietnamese = "Nguyễn Thị Hương"
        XCTAssertEqual(vietnamese.replacingDisallowedCharacters, vietnamese, "ordinary marks are untouched")
    }

    func testWhiteSpaceWithoutThePropertyTableAnswersAsTheTableDoes() {
        // Rich text asks every character whether it is white space: ASCII is answered without
        // Unicode's table, and the answer must be the table's for every scalar.
        var disagreements: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if scalar.hasWhiteSpaceProperty != scalar.properties.isWhitespace { disagreements.append(value) }
        }
        XCTAssertEqual(disagreements, [])
        XCTAssertTrue(Unicode.Scalar(UInt8(0x20)).hasWhiteSpaceProperty)
        XCTAssertTrue(Unicode.Scalar(UInt8(0xA0)).hasWhiteSpaceProperty, "no-break space")
        XCTAssertFalse(Unicode.Scalar(UInt8(0x41)).hasWhiteSpaceProperty)
    }

    func testReturnAndCarriageReturnNewlineBreakLines() throws {
        let document = Document(
            title: "T",
            elements: [
                .paragraph(Paragraph("line one\r\nline two\rline three")),
                .table(Table(header: ["A"], rows: [["cell one\r\ncell two"]])),
            ])
        let text = try TestSupport.pdfText(try document.pdf())
        XCTAssertFalse(text.contains("\u{FFFD}"), text)
        for line in ["line one", "line two", "line three", "cell one", "cell two"] {
            XCTAssertTrue(
                text.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces) == line }, "\(line) on its own line: \(text)"
            )
        }
        let html = try document.html()
        XCTAssertFalse(html.contains("\u{FFFD}"))
        XCTAssertEqual(MarkupEscaping.escape("a\r\nb\rc\n"), "a\nb\nc\n")
    }

    func testMessagesShowControlAndBidiCharactersAsEscapes() {
        let error = FolioError(path: "elements[0].\u{1B}[31mred", "unknown key \u{202E}txt.exe\n")
        XCTAssertEqual(error.description, "elements[0].\\u{1B}[31mred: unknown key \\u{202E}txt.exe\\n")
        XCTAssertEqual(FileNaming.sanitized("report\u{202E}fdp.exe\u{1B}[0m\u{85}"), "report" + "fdp.exe_[0m")
    }

    func testTinySizesAreRefusedBeforeTheyReachCairo() {
        for (json, field) in [
            (#"{"title": "T", "elements": [{"type": "image", "path": "x.png", "width": "1e-300pt"}]}"#, "elements[0].width"),
            (#"{"title": "T", "elements": [{"type": "svg", "svg": "<svg/>", "width": 0.5}]}"#, "elements[0].width"),
        ] {
            XCTAssertEqual(
                FuzzHarness.run(Data(json.utf8), lenient: false), "\(field): must be a length from 1 to 14400 points (200 inches)")
        }
    }

    func testStacksWithOnlyMissingValuesShowNoTotal() throws {
        let bar = BarChart(
            categories: ["Mon", "Tue"],
            series: [ChartSeries(title: "a", values: [1, nil]), ChartSeries(title: "b", values: [2, nil])],
            stacked: true, valueLabels: true)
        let document = Document(title: "T", elements: [.chart(.bar(bar, title: "C"))])
        let words = try TestSupport.words(try document.pdf()).map(\.text)
        XCTAssertTrue(words.contains("3"), "Monday's total: \(words)")
        XCTAssertEqual(words.filter { $0 == "0" }.count, 1, "the axis's 0 only: Tuesday has no values, so no total: \(words)")
    }
}

/// The one-pass filler agrees with a direct reading of the rules on texts of braces, letters and names.
@Suite struct PlaceholderPropertyTests {
    @Test func fillingMatchesAPlainReadingOfTheRules() async {
        let pieces = ["{", "}", "{{", "page", "pages", "x", " ", "{page}", "{pages}", "é", "{nope}"]
        await propertyCheck(input: Gen.int(in: 0..<pieces.count).array(of: 0...30)) { indices in
            let text = indices.map { pieces[$0] }.joined()
            let values = ["page": "1", "pages": "2"]
            #expect(text.fillingPlaceholders(values) == Self.reference(text, values))
        }
    }

    /// The rules read directly: `{{` is `{`; `{letters}` naming a value is that value; all else as written.
    private static func reference(_ text: String, _ values: [String: String]) -> String {
        let characters = Array(text)
        var out = ""
        var index = 0
        while index < characters.count {
            if characters[index] == "{", index + 1 < characters.count, characters[index + 1] == "{" {
                out.append("{")
                index += 2
                continue
            }
            if characters[index] == "{" {
                var end = index + 1
                while end < characters.count, characters[end].isASCII, characters[end].isLetter { end += 1 }
                if end > index + 1, end - index - 1 <= 32, end < characters.count, characters[end] == "}",
                    let value = values[String(characters[(index + 1)..<end])]
                {
                    out += value
                    index = end + 1
                    continue
                }
            }
            out.append(characters[index])
            index += 1
        }
        return out
    }
}
