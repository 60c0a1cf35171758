import Foundation
import XCTest

@testable import Folio
@testable import FolioTemplate

/// Barcodes read back by an independent decoder (zxing-cpp) from the PDF's pages and from the HTML
/// as Chromium draws it: the same symbols, holding exactly their data.
final class BarcodeIntegrationTests: XCTestCase {
    private let yaml = """
        title: Patient label
        metadata: {language: en}
        elements:
          - {type: barcode, symbology: qr, data: "https://portal.example/p/MRN-104233?week=46&lang=en", caption: Scan to open the portal}
          - {type: barcode, symbology: code128, data: "MRN-104233"}
          - {type: barcode, symbology: datamatrix, data: "MRN-104233|1954-03-02|Ana Rivera"}
          - {type: barcode, symbology: pdf417, data: "Ana Rivera, MRN-104233, Émile's ward"}
          - {type: barcode, symbology: ean13, data: "400638133393"}
        """
    private let expected = [
        "QR Code\thttps://portal.example/p/MRN-104233?week=46&lang=en", "Code 128\tMRN-104233",
        "Data Matrix\tMRN-104233|1954-03-02|Ana Rivera", "PDF417\tAna Rivera, MRN-104233, Émile's ward",
        "EAN-13\t4006381333931",
    ]

    private let reader = TestSupport.root.appendingPathComponent("Tests/FolioTests/Fixtures/read_barcodes.py").path

    func testThePDFsSymbolsReadBackAsTheirData() throws {
        try TestSupport.integrationOnly()
        let document = try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml)
        let pdf = try TestSupport.temporaryFile(try document.pdf(), name: "barcodes.pdf")
        let folder = pdf.deletingLastPathComponent()
        XCTAssertEqual(
            try TestSupport.run("pdftoppm", ["-r", "150", "-png", pdf.path, folder.appendingPathComponent("page").path]).status, 0)
        let read = try TestSupport.run(try TestSupport.python(), [reader, folder.appendingPathComponent("page-1.png").path])
        XCTAssertEqual(read.status, 0, read.stderr)
        XCTAssertEqual(read.text.split(separator: "\n").map(String.init), expected)
        // Each is a figure with a text alternative that says what it is and holds.
        try TestSupport.assertPassesPDFUACheckers([pdf.path])
    }

    func testTheHTMLDrawsTheSameSymbolsAsRectangles() throws {
        let document = try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml)
        let html = try document.html()
        XCTAssertTrue(html.contains(">QR code holding the text “https://portal.example/p/MRN-104233?week=46&amp;lang=en”</title>"), html)
        XCTAssertTrue(html.contains(">EAN-13 barcode holding the number 400638133393</title>"))
        XCTAssertFalse(html.contains("<image"), "vectors, not a bitmap")
        XCTAssertGreaterThan(html.components(separatedBy: "<rect").count, 500)
        try TestSupport.integrationOnly()
        let page = try TestSupport.temporaryFile(Data(html.utf8), name: "barcodes.html")
        let shot = page.deletingLastPathComponent().appendingPathComponent("barcodes.png")
        let chromium = try TestSupport.run(
            "chromium",
            [
                // A phone's or a laptop's screen: two device pixels per CSS pixel.
                "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=900,1400",
                "--force-device-scale-factor=2", "--screenshot=\(shot.path)", page.path,
            ])
        XCTAssertEqual(chromium.status, 0, chromium.stderr)
        let read = try TestSupport.run(try TestSupport.python(), [reader, shot.path])
        XCTAssertEqual(read.text.split(separator: "\n").map(String.init), expected, read.stderr)
    }

    func testAPatientLabelInTheHeaderAndFooterIsOnEveryPage() throws {
        try TestSupport.integrationOnly()
        let document = try DocumentDecoder.decode(
            Data(
                """
                title: Weekly summary
                header: {left: "Ana Rivera · MRN-104233", right: {barcode: {symbology: datamatrix, data: "MRN-104233"}}}
                footer: {left: "{title}", center: {barcode: {symbology: code128, data: "MRN-104233"}}, right: "Page {page} of {pages}"}
                metadata: {language: en}
                elements:
                  - {type: paragraph, text: "Ana Rivera's resting heart rate was 72 beats per minute."}
                  - {type: pageBreak}
                  - {type: paragraph, text: "Second page."}
                """.utf8), format: .yaml)
        let pdf = try TestSupport.temporaryFile(try document.pdf(), name: "label.pdf")
        let folder = pdf.deletingLastPathComponent()
        XCTAssertEqual(
            try TestSupport.run("pdftoppm", ["-r", "200", "-png", pdf.path, folder.appendingPathComponent("label").path]).status, 0)
        for page in 1...2 {
            let read = try TestSupport.run(try TestSupport.python(), [reader, folder.appendingPathComponent("label-\(page).png").path])
            XCTAssertEqual(
                Set(read.text.split(separator: "\n").map(String.init)), ["Data Matrix\tMRN-104233", "Code 128\tMRN-104233"], "page \(page)")
        }
        // Decoration, as the header's texts: both checkers pass.
        try TestSupport.assertPassesPDFUACheckers([pdf.path])
        XCTAssertThrowsError(
            try DocumentDecoder.decodeForRendering(
                Data("header: {right: {barcode: {symbology: ean13, data: letters}}}\nelements: []".utf8), format: .yaml
            ).pdf()
        ) { XCTAssertTrue("\($0)".hasPrefix("header.right.barcode.data: the data cannot be encoded in an EAN-13 barcode"), "\($0)") }
    }

    func testDataASymbologyCannotHoldIsAnErrorNamingTheField() throws {
        let cases: [(String, String)] = [
            (
                #"{type: barcode, symbology: ean13, data: "40063813339A"}"#,
                "elements[0].data: the data cannot be encoded in an EAN-13 barcode"
            ),
            (
                "{type: barcode, symbology: qr, data: \"\(String(repeating: "x", count: 3000))\"}",
                "elements[0].data: the data cannot be encoded in a QR code"
            ),
            (#"{type: barcode, symbology: qr, data: ""}"#, "elements[0].data: a barcode needs data"),
            (#"{type: barcode, symbology: aztec, data: "x"}"#, "elements[0].symbology: unknown value \"aztec\""),
        ]
        for (block, prefix) in cases {
            XCTAssertThrowsError(try DocumentDecoder.decodeForRendering(Data("elements: [\(block)]".utf8), format: .yaml).pdf(), block) {
                XCTAssertTrue("\($0)".hasPrefix(prefix), "\($0)")
            }
        }
    }
}
