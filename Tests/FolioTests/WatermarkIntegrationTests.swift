import Foundation
import XCTest

@testable import Folio
@testable import FolioTemplate

/// A watermark is on every page behind the content, skipped by screen readers, and printed (only)
/// from the HTML.
final class WatermarkIntegrationTests: XCTestCase {
    private func document(_ watermark: String, protection: String = "") throws -> Document {
        try DocumentDecoder.decode(
            Data(
                """
                title: Weekly summary
                metadata: {language: en}
                watermark: \(watermark)
                \(protection)
                elements:
                  - {type: paragraph, text: "Ana Rivera's resting heart rate was 72 beats per minute."}
                  - {type: pageBreak}
                  - {type: paragraph, text: "Second page."}
                """.utf8), format: .yaml)
    }

    func testTheWatermarkIsOnEveryPageAsAnArtifact() throws {
        let pdf = try document(#"{text: "COPY FOR THE PATIENT", opacity: 0.2}"#).pdf()
        XCTAssertEqual(try TestSupport.pageTexts(pdf).count, 2)
        let file = try TestSupport.temporaryFile(pdf, name: "watermark.pdf")
        for page in 1...2 {
            // Turned text comes out in pieces: its letters, in order.
            let text = try TestSupport.run("pdftotext", ["-f", "\(page)", "-l", "\(page)", file.path, "-"]).text
            XCTAssertTrue(text.filter { !$0.isWhitespace }.contains("COPYFORTHEPATIENT"), "page \(page): \(text)")
        }
        // Behind the content: drawn first on the page, as decoration, so both checkers pass (an
        // untagged text outside an artifact would be outloud's TAG-001).
        try TestSupport.integrationOnly()
        try TestSupport.assertPassesPDFUACheckers([file.path])
    }

    func testTheHTMLPrintsTheWatermarkAndHidesItFromReadersAndTheScreen() throws {
        let html = try document(#"{text: "<b>Draft</b> & copy", opacity: 0.3}"#).html()
        XCTAssertTrue(html.contains(#"<div class="folio-watermark" aria-hidden="true">&lt;b&gt;Draft&lt;/b&gt; &amp; copy</div>"#), html)
        XCTAssertTrue(html.contains(".folio-watermark{display:none}@media print{"), "shown only in print")
        XCTAssertTrue(html.contains("opacity:0.3"))
    }

    func testAWatermarkedDocumentCanBeProtectedAndBadWatermarksNameTheField() throws {
        let protected = try document(#"{text: CONFIDENTIAL}"#, protection: "protection: {userPassword: s3cret}").pdf()
        let file = try TestSupport.temporaryFile(protected, name: "both.pdf")
        XCTAssertTrue(try TestSupport.run("qpdf", ["--show-encryption", "--password=s3cret", file.path]).text.contains("R = 6"))
        let text = try TestSupport.run("pdftotext", ["-upw", "s3cret", file.path, "-"]).text
        XCTAssertTrue(text.filter { !$0.isWhitespace }.contains("CONFIDENTIAL"), text)
        for (watermark, expected) in [
            (#"{text: "  "}"#, "watermark.text: a watermark needs a text"),
            (#"{text: Draft, opacity: 0}"#, "watermark.opacity: opacity must be above 0 and at most 1"),
            (#"{text: Draft, opacity: 1.5}"#, "watermark.opacity: opacity must be above 0 and at most 1"),
            ("{text: \"\(String(repeating: "x", count: 201))\"}", "watermark.text: a watermark may have at most 200 characters"),
        ] {
            XCTAssertThrowsError(try document(watermark).validate(), watermark) { XCTAssertEqual("\($0)", expected) }
        }
    }
}
