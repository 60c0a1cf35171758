import Foundation
import XCTest

@testable import Folio
@testable import FolioTemplate

/// What a screen reader gets of a tagged PDF (#42): each structure element's marked content decoded
/// through its font's ToUnicode map (`Fixtures/structure_text.py`, with pikepdf, which pdfua installs), not pdftotext's
/// reading of the page: Arabic in logical order, no presentation forms or ligature code points.
final class StructureTextIntegrationTests: XCTestCase {
    /// Each text-bearing element of `pdf` in structure order: its type and its text.
    private func elements(_ pdf: Data) throws -> [(type: String, text: String)] {
        let file = try TestSupport.temporaryFile(pdf, name: "structure.pdf")
        let script = TestSupport.root.appendingPathComponent("Tests/FolioTests/Fixtures/structure_text.py").path
        let result = try TestSupport.run(try TestSupport.python(), [script, file.path])
        XCTAssertEqual(result.status, 0, result.text)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        return (json["elements"] as? [[String: String]] ?? []).map { ($0["type"] ?? "", $0["text"] ?? "") }
    }

    /// Whether `text` holds presentation forms (ligatures ﬁ ﬃ, Arabic contextual forms and lam-alef) or
    /// the replacement character.
    private func unreadable(_ text: String) -> Bool {
        text.unicodeScalars.contains { (0xFB00...0xFDFF).contains($0.value) || (0xFE70...0xFEFF).contains($0.value) || $0.value == 0xFFFD }
    }

    func testEverySampleReadsAsWritten() throws {
        try TestSupport.integrationOnly()
        for name in [
            "weekly-summary.yaml", "weekly-summary-fr.yaml", "weekly-summary-ar.yaml", "packet.yaml", "charts.yaml", "carekit-style.yaml",
            "hard-cases.yaml",
        ] {
            let url = TestSupport.samples.appendingPathComponent(name)
            let document = try DocumentDecoder.decode(try Data(contentsOf: url), format: .yaml)
            let found = try elements(try document.pdf(options: TestSupport.sampleOptions))
            XCTAssertGreaterThan(found.count, 5, name)
            for element in found {
                XCTAssertFalse(unreadable(element.text), "\(name): \(element.type) \(element.text)")
            }
            if name == "hard-cases.yaml" {
                // A passage tagged in its own language reads in its place, its paragraph whole.
                let passage = "Her mother, who reads French, wrote: « Elle dort mieux depuis lundi »."
                XCTAssertTrue(found.contains { TestSupport.normalized($0.text) == passage }, "\(found.map(\.text))")
            }
        }
    }

    func testArabicWithNumbersAndLatinLinksReadsInLogicalOrder() throws {
        try TestSupport.integrationOnly()
        let lines = [
            "سُجلت قيمة 10.4 ملمول/لتر ظهر يوم السبت.",
            "الألم في الساق خفيف اليوم",
        ]
        let yaml = """
            metadata: {language: ar}
            elements:
              - {type: paragraph, text: "\(lines[0])"}
              - {type: paragraph, text: "\(lines[1])"}
              - {type: paragraph, text: "راجع [the guide](https://example.org/guide) ثم 3 أيام"}
              - {type: list, items: ["الجرعة 400 ملغ", "ثم الراحة"]}
            """
        let document = try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml)
        let texts = try elements(try document.pdf()).map { TestSupport.normalized($0.text) }
        for line in lines { XCTAssertTrue(texts.contains(line), "\(line) not read as written: \(texts)") }
        XCTAssertTrue(texts.contains("راجع the guide ثم 3 أيام"), "\(texts)")
        XCTAssertTrue(texts.contains("الجرعة 400 ملغ"), "\(texts)")
    }

    func testAChartsNamesAreItsFiguresTextAndItsNumbersAreNot() throws {
        // A chart's ticks and value labels are artifacts (its text alternative and data table say
        // them; a tick at the paper's top is not read as a page number); its names are content.
        try TestSupport.integrationOnly()
        let yaml = """
            elements:
              - type: chart
                kind: bar
                title: Steps this week
                categories: [Mon, Tue, Wed]
                series: [{title: Steps taken, values: [4200, 8800, 12600]}]
                yAxis: {title: Steps per day}
            """
        let document = try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml)
        let figure = try XCTUnwrap(try elements(try document.pdf()).first { $0.type == "/Figure" })
        for name in ["Steps this week", "Steps taken", "Steps per day", "Mon", "Wed"] {
            XCTAssertTrue(figure.text.contains(name), "\(name) not in \(figure.text)")
        }
        XCTAssertFalse(figure.text.contains { $0.isNumber }, "a number is read in the figure: \(figure.text)")
        let text = try TestSupport.pdfText(try document.pdf())
        XCTAssertTrue(text.contains("12600") && text.contains("10,000"), "the value label or tick is not drawn: \(text)")
    }

    func testWrappedTextReadsAsItsWordsWithNoSoftHyphenButWhereALineBreaks() throws {
        // Justified text carries soft hyphens at every break point of its words; only those a line
        // breaks at may reach the reader (as U+00AD, which says the hyphen is the line's). A link or
        // a bold word that ends a line keeps the space after it, so the words either side stay apart.
        try TestSupport.integrationOnly()
        let words = [
            "Medication", "adherence", "stayed", "above", "the", "threshold", "on", "five", "of", "seven", "days;",
            "the", "physiotherapist", "recommended", "strengthening", "exercises", "and", "a", "reminder",
        ]
        var pieces: [String] = []
        var expected: [String] = []
        for index in 0..<120 {
            let word = words[index % words.count]
            switch index % 7 {
            case 2: pieces.append("[\(word)](https://example.org/\(index))")
            case 5: pieces.append("**\(word)**")
            default: pieces.append(word)
            }
            expected.append(word)
        }
        let paragraph = pieces.joined(separator: " ")
        for width in [300, 333, 377, 420] {
            let yaml = """
                page: {size: {width: \(width + 72), height: 1200}, margins: 36}
                elements:
                  - {type: paragraph, align: justify, text: "\(paragraph)"}
                  - {type: paragraph, text: "\(paragraph)"}
                """
            let document = try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml)
            let pdf = try document.pdf()
            let found = try elements(pdf).filter { $0.type == "/P" }
            XCTAssertEqual(found.count, 2, "width \(width)")
            // The lines the page shows ending in a hyphen: the justified paragraph's broken words.
            let broken = try TestSupport.pdfText(pdf).split(whereSeparator: \.isNewline).filter { line in
                line.last.map { "\u{AD}-\u{2010}".contains($0) } ?? false
            }.count
            XCTAssertGreaterThan(broken, 0, "width \(width): no word broken")
            for (index, element) in found.enumerated() {
                XCTAssertEqual(element.text.replacingOccurrences(of: "\u{AD}", with: ""), expected.joined(separator: " "), "width \(width)")
                let hyphens = element.text.filter { $0 == "\u{AD}" }.count
                XCTAssertEqual(hyphens, index == 0 ? broken : 0, "width \(width): soft hyphens where no line breaks: \(element.text)")
            }
        }
    }
}
