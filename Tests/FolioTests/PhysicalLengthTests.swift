import Foundation
import XCTest

@testable import Folio
@testable import FolioTemplate

/// Lengths mean what they say (#42): a length in HTML is as long in print as in the PDF, and page
/// furniture stays inside the band office printers print.
final class PhysicalLengthTests: XCTestCase {
    private func decode(_ yaml: String) throws -> Document {
        try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml)
    }

    func testCentimetresInHTMLAreCentimetresInPrint() throws {
        let document = try decode(
            """
            elements:
              - {type: image, path: logo.png, alt: Logo, width: 3cm}
              - {type: barcode, symbology: code128, data: "MRN-104233", width: 6cm}
            """)
        let html = try document.html(options: TestSupport.sampleOptions)
        // 3 cm = 85.04 pt = 113.4 CSS px (96 px to the inch).
        XCTAssertTrue(html.contains(" width=\"113\" "), "the image: \(html.prefix(400))")
        let barcode = try XCTUnwrap(html.firstMatch(of: #/<figure class="folio-barcode"><svg[^>]* width="([\d.]+)"/#))
        XCTAssertEqual(try XCTUnwrap(Double(barcode.output.1)), 6 / 2.54 * 96, accuracy: 0.5, "the barcode is 6 cm")
    }

    func testHeaderAndFooterBarcodesStayInsideThePrintableBand() throws {
        let yaml = """
            title: Band
            page: {margins: MARGIN}
            header: {left: "Ana Rivera", right: {barcode: {symbology: qr, data: "MRN-104233"}}}
            footer: {center: {barcode: {symbology: code128, data: "MRN-104233"}}}
            elements:
              - {type: paragraph, text: "Text."}
            """
        let band = 6 / 25.4 * 72
        for (margin, expectWarnings) in [("1.5cm", true), ("2.5cm", false)] {
            let result = try decode(yaml.replacingOccurrences(of: "MARGIN", with: margin)).pdfWithReport()
            let warned = result.report.warnings.filter { $0.message.contains("within 6 mm of the paper's edge") }.map(\.path)
            XCTAssertEqual(warned, expectWarnings ? ["header", "footer"] : [], margin)
            // At 72 dpi a pixel is a point: no ink above the band or below it.
            let pixels = try TestSupport.rasterize(result.data, dpi: 72)
            let width = 595
            let rows = pixels.count / width
            let inked = (0..<rows).filter { row in pixels[(row * width)..<((row + 1) * width)].contains(where: \.isInk) }
            let top = try XCTUnwrap(inked.first)
            let bottom = try XCTUnwrap(inked.last)
            XCTAssertGreaterThanOrEqual(Double(top), band - 1, "\(margin): the header's barcode starts \(top) pt from the top")
            XCTAssertLessThanOrEqual(
                Double(bottom), Double(rows) - band + 1, "\(margin): the footer's barcode ends \(rows - bottom) pt from the bottom")
        }
    }
}
