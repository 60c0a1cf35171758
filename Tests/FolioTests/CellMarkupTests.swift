import Foundation
import XCTest

@testable import Folio
@testable import FolioTemplate

/// Table cells take inline markup as paragraphs do (#42): never printed raw; values bound from
/// records into cells and list items stay literal.
final class CellMarkupTests: XCTestCase {
    func testCellMarkupIsDrawnNotPrinted() throws {
        let yaml = """
            title: T
            elements:
              - {type: subtitle, text: Doses, id: doses}
              - type: table
                header: [Drug, "**Dose**"]
                rows:
                  - ["[Metformin](https://example.org/metformin)", "**500 mg** *twice*"]
                  - ["see [doses](#doses)", "10:30 and 2 * 3"]
            """
        let document = try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml)
        let pdf = try document.pdf(options: TestSupport.sampleOptions)
        let text = try TestSupport.pdfText(pdf)
        XCTAssertTrue(text.contains("Metformin"), text)
        for raw in ["**", "](", "[Metformin"] { XCTAssertFalse(text.contains(raw), "\(raw) printed raw: \(text)") }
        XCTAssertTrue(text.contains("10:30 and 2 * 3"), "a lone star and a time stay as written: \(text)")
        let readable = try TestSupport.readablePDF(pdf)
        XCTAssertTrue(readable.contains("https://example.org/metformin"), "the cell's link is an annotation")
        let html = try document.html(options: TestSupport.sampleOptions)
        XCTAssertTrue(html.contains("<a href=\"https://example.org/metformin\" rel=\"noopener noreferrer\">Metformin</a>"), html)
        XCTAssertTrue(html.contains("<strong>500\u{00A0}mg</strong> <em>twice</em>"), html)
        XCTAssertTrue(html.contains("<th scope=\"col\"><strong>Dose</strong></th>"), html)
        XCTAssertEqual(
            document.elements.last?.textContent, ["Drug", "Dose", "Metformin", "500 mg twice", "see doses", "10:30 and 2 * 3"])
    }

    func testCellLinksAreCheckedWithTheirCell() {
        let yaml = "elements:\n  - {type: table, rows: [[a, \"[x](#nowhere)\"]]}"
        XCTAssertThrowsError(try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml).validate()) {
            XCTAssertEqual("\($0)", ##"elements[0].rows[0][1]: link to "#nowhere", but no subtitle or section has id "nowhere""##)
        }
        let bad = "elements:\n  - {type: table, rows: [[a, \"[x](javascript:alert(1))\"]]}"
        XCTAssertThrowsError(try DocumentDecoder.decode(Data(bad.utf8), format: .yaml).validate()) {
            XCTAssertTrue("\($0)".hasPrefix("elements[0].rows[0][1]: link target"), "\($0)")
        }
    }

    func testValuesBoundIntoCellsAndListItemsStayLiteral() throws {
        let template = try DocumentTemplate(
            data: Data(
                """
                title: T
                elements:
                  - {type: table, header: [Name, Note], rows: [["{{name}}", {text: "{{note}}", span: 1}]]}
                  - {type: list, items: ["{{note}}", {items: ["{{name}}"]}]}
                """.utf8), format: .yaml)
        let bound = try template.document(
            for: .object([("name", .string("**Ann** [x](https://evil.example)")), ("note", .string("*a* https://x.example"))]))
        let html = try bound.html()
        XCTAssertFalse(html.contains("<strong>Ann"), html)
        XCTAssertFalse(html.contains(">x</a>"), "markup from a record never hides an address behind other words")
        // In a cell an address written out is a link, as cells always made it: its own words, shown.
        XCTAssertTrue(
            html.contains("<td>**Ann** [x](<a href=\"https://evil.example\" rel=\"noopener noreferrer\">https://evil.example</a>)</td>"),
            html)
        XCTAssertTrue(html.contains("*a* <a href=\"https://x.example\""), html)
        // In a list item, as in a paragraph, it stays text.
        XCTAssertTrue(html.contains("<li>*a* https://x.example<ul><li>**Ann** [x](https://evil.example)</li></ul></li>"), html)
    }
}
