import FolioGraphics
import Foundation
import XCTest

@testable import Folio
@testable import FolioTemplate

/// Sparklines in table cells and tiles (#44): a row's values as a small line with its last value and
/// range in words beside it (the words, not the line, are what a screen reader reads), in both outputs.
final class SparklineTests: XCTestCase {
    private let yaml = """
        title: Trends
        elements:
          - type: table
            header: [Patient, Glucose, Weight]
            rows:
              - [Ana, {sparkline: [6.1, 6.8, 7.4, null, 6.9, 7.8, 7.2]}, "71 kg"]
              - [Ben, {sparkline: [9.1, 8.4, 6.8], text: "6.8, falling"}, "88 kg"]
          - type: widgets
            items:
              - {title: Steps, value: "6,200", sparkline: [4200, 5100, 8100, 6200]}
        """

    /// The points run left to right, the lowest value at the bottom and the highest at the top; a
    /// gap stays a gap.
    func testPointsAreToScaleAndGapsStayGaps() {
        let points = Sparkline.points([2, 4, nil, 3], in: Rect(x: 0, y: 0, width: 30, height: 10))
        XCTAssertEqual(points.map { $0?.x }, [0, 10, nil, 30])
        XCTAssertEqual(points.map { $0?.y }, [10, 0, nil, 5])
        XCTAssertEqual(Sparkline.words([2, 4, nil, 3], numbers: .english), "3 (2–\u{2060}4)")
        XCTAssertEqual(Sparkline.words([5.25], numbers: NumberFormat(.forLanguage("fr"))), "5,25")
        XCTAssertEqual(Sparkline.words([nil], numbers: .english), "")
    }

    /// The words are the cell's text in the PDF and the HTML; the line is decoration (an artifact, an
    /// `aria-hidden` SVG); an author's own words replace them.
    func testTheWordsAreTheCellsTextAndTheLineIsDecoration() throws {
        let document = try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml)
        let pdf = try document.pdf(options: TestSupport.sampleOptions)
        let text = TestSupport.normalized(try TestSupport.pdfText(pdf))
        XCTAssertTrue(text.contains("Ana 7.2 (6.1–7.8) 71 kg"), text)
        XCTAssertTrue(text.contains("6.8, falling"), text)
        XCTAssertTrue(text.contains("6,200 (4,200–8,100)"), text)
        let html = try document.html(options: TestSupport.sampleOptions)
        XCTAssertTrue(html.contains("<td><svg class=\"folio-spark\" aria-hidden=\"true\" focusable=\"false\""), html)
        XCTAssertTrue(html.contains("</svg>7.2 (6.1–\u{2060}7.8)</td>"), html)
        // The independent checkers are the test venv's (make test); the structure above is checked here always.
        guard ProcessInfo.processInfo.environment["FOLIO_UNIT_ONLY"] == nil else { return }
        let file = try TestSupport.temporaryFile(pdf, name: "sparklines.pdf")
        try TestSupport.assertPassesPDFUACheckers([file.path])
    }

    func testBadSparklinesNameTheField() throws {
        func error(_ yaml: String) -> String {
            do {
                _ = try DocumentDecoder.decode(Data("title: T\nelements:\n\(yaml)".utf8), format: .yaml)
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        XCTAssertEqual(
            error("  - {type: table, rows: [[a, {sparkline: [1, .inf]}]]}"),
            "elements[0].rows[0][1].sparkline[1]: must be a finite number between -1e15 and 1e15")
        XCTAssertEqual(
            error("  - {type: widgets, items: [{title: A, value: B, sparkline: [1, .nan]}]}"),
            "elements[0].items[0].sparkline[1]: must be a finite number between -1e15 and 1e15")
        XCTAssertTrue(error("  - {type: table, rows: [[a, {span: 2}]]}").contains("expected a string or {text, span, language, sparkline}"))
    }
}
