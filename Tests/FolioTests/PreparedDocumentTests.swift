import Foundation
import XCTest

@testable import Folio
@testable import FolioTemplate

/// A document is validated and its files read once, before layout: the PDF and HTML writers get
/// bytes, never paths.
final class PreparedDocumentTests: XCTestCase {
    private func documentWithImages(in folder: URL) throws -> Document {
        try FileManager.default.copyItem(
            at: TestSupport.samples.appendingPathComponent("logo.png"), to: folder.appendingPathComponent("picture.png"))
        let yaml = """
            title: Files read once
            theme: {logo: picture.png}
            elements:
              - {type: image, path: picture.png, alt: The clinic's logo}
              - type: columns
                items:
                  - {type: image, path: picture.png, alt: The logo again}
                  - {type: paragraph, text: Beside it}
            """
        return try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml)
    }

    func testRenderingNeedsNoFileAfterPreparing() throws {
        let folder = try TestSupport.temporaryDirectory()
        let document = try documentWithImages(in: folder)
        let prepared = try document.prepared(options: RenderOptions(baseDirectory: folder))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("picture.png"))

        let pdf = try prepared.pdfWithReport().data
        let pdfText = String(decoding: pdf, as: UTF8.self)
        XCTAssertGreaterThanOrEqual(pdfText.components(separatedBy: "/Subtype /Image").count - 1, 1, "the image is in the PDF")
        let html = try prepared.renderedHTML(options: RenderOptions(baseDirectory: folder)).html
        // The page-header logo and both image blocks, as data URIs.
        XCTAssertEqual(html.components(separatedBy: "src=\"data:image/png;base64,").count - 1, 3)
        // Unprepared, the same document now fails naming the field.
        XCTAssertThrowsError(try document.pdf(options: RenderOptions(baseDirectory: folder))) { error in
            XCTAssertTrue("\(error)".hasPrefix("theme.logo:"), "\(error)")
        }
    }

    func testAMissingImageInAColumnIsNamedByItsPath() throws {
        let folder = try TestSupport.temporaryDirectory()
        var document = try documentWithImages(in: folder)
        document.theme = nil
        document.elements.removeFirst()
        try FileManager.default.removeItem(at: folder.appendingPathComponent("picture.png"))
        XCTAssertThrowsError(try document.prepared(options: RenderOptions(baseDirectory: folder))) { error in
            XCTAssertTrue("\(error)".hasPrefix("elements[0].items[0].path:"), "\(error)")
        }
    }

    func testTheDocumentThemeIsAppliedOverTheBaseTheme() throws {
        let document = Document(title: "Themed", theme: ThemeSpec(accent: Color(red: 0.5, green: 0, blue: 0)), elements: [])
        var options = RenderOptions()
        options.theme.text = Color(red: 0, green: 0, blue: 0.4)
        let theme = try document.prepared(options: options).theme
        XCTAssertEqual(theme.accent, Color(red: 0.5, green: 0, blue: 0))
        XCTAssertEqual(theme.text, Color(red: 0, green: 0, blue: 0.4))
    }
}

/// The Swift conveniences: writing a file atomically, rendering from async code, colours that fail loudly.
final class SwiftConvenienceTests: XCTestCase {
    func testWriteChoosesTheFormatFromTheExtensionAndReplacesAtomically() throws {
        let folder = try TestSupport.temporaryDirectory()
        let document = Document(title: "Written", elements: [.paragraph(Paragraph("Hello"))])
        let pdf = folder.appendingPathComponent("report.pdf")
        let html = folder.appendingPathComponent("report.HTML")
        try document.write(to: pdf)
        try document.write(to: html)
        XCTAssertTrue(try Data(contentsOf: pdf).starts(with: Data("%PDF-".utf8)))
        XCTAssertTrue(try String(contentsOf: html, encoding: .utf8).hasPrefix("<!DOCTYPE html>"))
        try document.write(to: pdf, format: .html)
        XCTAssertTrue(try String(contentsOf: pdf, encoding: .utf8).hasPrefix("<!DOCTYPE html>"))
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["report.HTML", "report.pdf"],
            "no temporary file left")
        XCTAssertThrowsError(try document.write(to: folder), "a folder is not a regular file")
    }

    func testAsyncRenderingGivesTheSameBytesAndHonoursCancellation() async throws {
        let document = Document(
            title: "Async", metadata: Metadata(creationDate: Date(timeIntervalSince1970: 1_763_280_000)),
            elements: [.paragraph(Paragraph("Hello"))])
        let html = try await document.rendered(as: .html)
        XCTAssertEqual(html, try document.render(as: .html))
        let pdf = try await document.rendered(as: .pdf)
        XCTAssertTrue(pdf.starts(with: Data("%PDF-".utf8)))
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await document.rendered(as: .pdf)
        }
        do {
            _ = try await task.value
            XCTFail("a cancelled task renders nothing")
        } catch is CancellationError {}
    }
}
