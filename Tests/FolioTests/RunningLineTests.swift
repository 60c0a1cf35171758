import Foundation
import XCTest

@testable import Folio
@testable import FolioTemplate

/// Page header and footer places (CareKit's centred header and "n / N" footer), no footer at all,
/// and what HTML, which has no pages, shows of them.
final class RunningLineTests: XCTestCase {
    private let rightEdge = 595.2756 - 56.6929

    private func decoded(_ yaml: String) throws -> Document { try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml) }

    func testCentredHeaderAndPageOfPagesFooterSitOnThePageAxis() throws {
        let paragraphs = (0..<40).map { "  - {type: paragraph, text: \"Paragraph \($0) of a long note about the week.\"}" }
        let document = try decoded(
            """
            title: Weekly Update
            header: {center: Weekly Update for Kim}
            footer: {center: "{page} / {pages}", right: "{title}"}
            elements:
            \(paragraphs.joined(separator: "\n"))
            """)
        let pdf = try document.pdf()
        let axis = 595.2756 / 2
        for page in 1...2 {
            let words = try TestSupport.words(pdf, page: page)
            let number = try XCTUnwrap(words.firstIndex { $0.text == "\(page)" && $0.yMin > 780 }, "page \(page)")
            let line = words[number...].prefix(3)
            XCTAssertEqual(line.map(\.text), ["\(page)", "/", "2"])
            let middle = ((line.first?.xMin ?? 0) + (line.last?.xMax ?? 0)) / 2
            XCTAssertEqual(middle, axis, accuracy: 1.5, "the footer is centred on page \(page)")
            let header = words.filter { $0.yMin < 56 }
            XCTAssertEqual(header.map(\.text), ["Weekly", "Update", "for", "Kim"])
            XCTAssertEqual(((header.first?.xMin ?? 0) + (header.last?.xMax ?? 0)) / 2, axis, accuracy: 1.5, "the header is centred")
            let title = words.filter { $0.yMin > 780 && $0.text == "Update" }
            XCTAssertEqual(title.first?.xMax ?? 0, rightEdge, accuracy: 1.5, "{title} at the right of the footer")
        }
    }

    func testNoFooterAtAllAndNoHeader() throws {
        let document = try decoded(
            """
            title: Quiet
            header: false
            footer: false
            elements:
              - {type: paragraph, text: Only this.}
            """)
        let words = try TestSupport.words(try document.pdf())
        XCTAssertEqual(words.filter { $0.yMin > 780 }.map(\.text), [], "nothing below the content")
        XCTAssertEqual(try document.pdfWithReport().report.warnings.map(\.path), [])
    }

    func testRunningLinesAreCheckedAndFilledInHTML() throws {
        XCTAssertThrowsError(try decoded("title: T\nheader: true\nelements: []\n")) { error in
            XCTAssertTrue("\(error)".hasPrefix("header:"), "\(error)")
        }
        for line in ["header: 5", "footer: [a, b]"] {
            XCTAssertThrowsError(try decoded("title: T\n\(line)\nelements: []\n")) { error in
                XCTAssertTrue("\(error)".hasSuffix(": expected a text, {left, center, right} or false (no line)"), "\(error)")
            }
        }
        XCTAssertThrowsError(try decoded("title: T\nfooter: {middle: x}\nelements: []\n")) { error in
            XCTAssertTrue("\(error)".hasPrefix("footer.middle:"), "\(error)")
        }
        let document = try decoded(
            """
            title: Week & more
            header: {left: "{title}", center: "Page {page}", right: "Kept {braces}"}
            elements: []
            """)
        let html = try document.html()
        XCTAssertTrue(html.contains("<span class=\"folio-header-left\">Week &amp; more</span>"), html)
        XCTAssertFalse(html.contains("Page "), "no page numbers in HTML, which has no pages")
        XCTAssertTrue(html.contains("<span class=\"folio-header-right\">Kept {braces}</span>"))
        let text = try TestSupport.run("pdftotext", [try TestSupport.temporaryFile(try document.pdf(), name: "h.pdf").path, "-"]).text
        XCTAssertTrue(text.contains("Page 1"))
        XCTAssertTrue(text.contains("Kept {braces}"))
    }
}

/// A document without a title (CareKit allowed one): nothing is shown for it, and the PDF and
/// the HTML page are still named.
final class UntitledDocumentTests: XCTestCase {
    private func pdfTitle(_ document: Document) throws -> String {
        let info = try TestSupport.run("pdfinfo", [try TestSupport.temporaryFile(try document.pdf(), name: "untitled.pdf").path]).text
        return info.split(separator: "\n").first { $0.hasPrefix("Title:") }.map { $0.dropFirst(6).trimmingCharacters(in: .whitespaces) }
            ?? ""
    }

    func testAnUntitledDocumentIsNamedByItsFirstHeadingOrByTheWordReport() throws {
        let withSubtitle = try DocumentDecoder.decode(
            Data("elements:\n  - {type: subtitle, text: Care plan}\n  - {type: paragraph, text: Walk daily.}\n".utf8), format: .yaml)
        XCTAssertEqual(withSubtitle.title, "")
        XCTAssertEqual(try pdfTitle(withSubtitle), "Care plan")
        let html = try withSubtitle.html()
        XCTAssertTrue(html.contains("<title>Care plan</title>"))
        XCTAssertFalse(html.contains("<h1>"), "no empty title heading")
        let text = try TestSupport.run("pdftotext", [try TestSupport.temporaryFile(try withSubtitle.pdf(), name: "u.pdf").path, "-"]).text
        XCTAssertTrue(text.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("Care plan"), "the subtitle comes first")

        let bare = Document(metadata: Metadata(language: "fr"), elements: [.paragraph(Paragraph("Bonjour"))])
        XCTAssertEqual(try pdfTitle(bare), "Rapport")
        XCTAssertTrue(try bare.html().contains("<title>Rapport</title>"))
    }
}
