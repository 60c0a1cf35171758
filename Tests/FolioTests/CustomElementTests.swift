import Foundation
import XCTest

@testable import Folio
@testable import FolioTemplate

/// A signature line, the README's custom element.
private struct SignatureLine: CustomElement {
    var name: String
    var typeName: String { "signature" }
    var alternativeText: String? { "Signature line for \(name)" }
    var textContent: [String] { [name] }

    func height(forWidth width: Double, style: ElementStyle) -> Double { style.bodySize * 4 }

    func draw(on canvas: ElementCanvas, width: Double, height: Double) {
        let baseline = height - canvas.style.smallSize * 1.8
        canvas.line(x1: 0, y1: baseline, x2: width * 0.6, y2: baseline, color: canvas.style.muted)
        canvas.text(name, x: 0, y: baseline + 2, size: canvas.style.smallSize, bold: false, color: canvas.style.muted, anchor: .start)
        canvas.fillCircle(centerX: .infinity, centerY: 0, radius: 3, color: .black)  // ignored: not finite
    }
}

/// An element that writes its own HTML, with hostile text in every place it can put text.
private struct Card: CustomElement {
    var title: String
    var typeName: String { "card" }
    var alternativeText: String? { nil }
    func height(forWidth width: Double, style: ElementStyle) -> Double { 20 }
    func draw(on canvas: ElementCanvas, width: Double, height: Double) {
        canvas.fillRect(x: 0, y: 0, width: width, height: height, color: .black)
    }
    func html() -> ElementMarkup? {
        .tag(.div, [.class: #"card" onclick="steal()"#], .tag(.strong, [:], .text(title)), .drawing)
    }
    func validate(path: String) throws {
        if title.isEmpty { throw FolioError(path: "\(path).title", "a card needs a title") }
    }
}

final class CustomElementTests: XCTestCase {
    func testACustomElementDrawsTheSameInPDFAndHTML() throws {
        let document = Document(title: "Signed") {
            Paragraph("Reviewed.")
            CustomBlock(SignatureLine(name: "Dr Émile Okafor"))
        }
        let pdf = try document.pdf()
        XCTAssertTrue(try TestSupport.pdfText(pdf).contains("Dr Émile Okafor"))
        let qdf = try TestSupport.run(
            "qpdf", ["--qdf", "--object-streams=disable", try TestSupport.temporaryFile(pdf, name: "c.pdf").path, "-"])
        XCTAssertTrue(qdf.text.contains("/Alt (Signature line for Dr "), "a Figure with its text alternative")
        let html = try document.html
        XCTAssertTrue(html.contains(">Dr Émile Okafor</text>"), "the same drawing as inline SVG")
        XCTAssertTrue(html.contains("Signature line for Dr Émile Okafor</desc>"))
        XCTAssertFalse(html.contains("inf"), "non-finite numbers are not drawn")
    }

    func testItsOwnHTMLIsEscapedByConstruction() throws {
        let document = Document(title: "Cards") { CustomBlock(Card(title: "<script>alert(1)</script>")) }
        let html = try document.html(options: RenderOptions(fragment: true))
        XCTAssertTrue(html.contains(#"<div class="card&quot; onclick=&quot;steal()">"#), html)
        XCTAssertTrue(html.contains("<strong>&lt;script&gt;alert(1)&lt;/script&gt;</strong><svg"), "text escaped, drawing where asked")
        XCTAssertFalse(html.contains("<script"))
    }

    func testValidationNamesTheFieldAndDocumentsCannotNameCustomElements() throws {
        let document = Document(title: "Cards") {
            Paragraph("x")
            CustomBlock(Card(title: ""))
        }
        XCTAssertThrowsError(try document.pdf()) { XCTAssertEqual("\($0)", "elements[1].title: a card needs a title") }
        XCTAssertThrowsError(
            try DocumentDecoder.decode(Data(#"{"elements": [{"type": "custom", "name": "card"}]}"#.utf8), format: .json)
        ) {
            XCTAssertTrue("\($0)".hasPrefix(#"elements[0].type: unknown block type "custom"; expected one of: subtitle,"#), "\($0)")
        }
        XCTAssertEqual(CustomBlock(SignatureLine(name: "A")), CustomBlock(SignatureLine(name: "A")))
        XCTAssertNotEqual(CustomBlock(SignatureLine(name: "A")), CustomBlock(SignatureLine(name: "B")))
        XCTAssertNotEqual(CustomBlock(SignatureLine(name: "A")), CustomBlock(Card(title: "A")))
    }
}
