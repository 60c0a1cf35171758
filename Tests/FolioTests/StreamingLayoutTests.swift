import Foundation
import XCTest

@testable import Folio
@testable import FolioLayout
@testable import FolioPDF
@testable import FolioPango
@testable import FolioTemplate

/// A long document keeps no page's contents: each page is paginated again from its checkpoint when
/// it is drawn, its blocks laid out again and its text shaped again. That must give the very same
/// file as laying the document out once: every sample, and documents built to split everything
/// (sections, keep-with-next headings, tables, messages and paragraphs across pages, columns,
/// page breaks, charts), are rendered both ways and compared byte for byte.
final class StreamingLayoutTests: XCTestCase {
    private func pdf(_ document: Document, keepingPages: Bool, residency: Bool = true) throws -> Data {
        var renderer = PDFRenderer(theme: .standard, baseDirectory: TestSupport.samples)
        renderer.keptLayoutBytes = keepingPages ? DocumentLayout.keptBytes : 0
        return try renderer.render(document)
    }

    @discardableResult
    private func assertSameBothWays(_ document: Document, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws
        -> Int
    {
        var dated = document
        dated.metadata.creationDate = Date(timeIntervalSince1970: 1_763_280_000)
        let kept = try pdf(dated, keepingPages: true)
        let refilled = try pdf(dated, keepingPages: false)
        XCTAssertEqual(kept.count, refilled.count, "\(name): the same size", file: file, line: line)
        XCTAssertTrue(kept == refilled, "\(name): the same bytes when every page is filled again", file: file, line: line)
        return Int(try TestSupport.pdfInfo(kept)["Pages"] ?? "") ?? 0
    }

    func testEverySampleIsTheSameWhenEveryPageIsFilledAgain() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: TestSupport.samples.path).filter { $0.hasSuffix(".yaml") }.sorted()
        XCTAssertGreaterThanOrEqual(names.count, 6)
        for name in names {
            let data = try Data(contentsOf: TestSupport.samples.appendingPathComponent(name))
            try assertSameBothWays(try DocumentDecoder.decode(data, format: .yaml), name)
        }
    }

    func testADocumentThatSplitsEverythingIsTheSameWhenEveryPageIsFilledAgain() throws {
        var elements: [Block] = []
        let sentence = "The evening reading was higher than the morning one, and the nurse called to ask about dizziness. "
        for part in 0..<6 {
            elements.append(.section(Section(title: "Part \(part + 1)", label: "P\(part + 1)")))
            elements.append(.subtitle(Subtitle("Readings of part \(part + 1)")))
            elements.append(.paragraph(Paragraph(RichText(String(repeating: sentence, count: 12 + part * 5)))))
            elements.append(
                .table(
                    Table(
                        header: ["Day", "Systolic", "Diastolic", "Note"],
                        rows: (0..<(40 + part * 17)).map {
                            ["Day \($0)", String(120 + $0 % 17), String(80 + $0 % 9), String(repeating: "n ", count: $0 % 23)]
                        },
                        caption: "Blood pressure", continuedCaption: "Blood pressure (continued)")))
            elements.append(.message(Message(title: "Note", text: RichText(String(repeating: sentence, count: 9)))))
            elements.append(.subtitle(Subtitle("Kept with its paragraph")))
            elements.append(.paragraph(Paragraph(RichText(String(repeating: "Short. ", count: 3)))))
            if part % 2 == 1 { elements.append(.pageBreak) }
            elements.append(
                .columns(
                    Columns([
                        .paragraph(Paragraph(RichText(String(repeating: sentence, count: 3)))),
                        .paragraph(Paragraph(RichText(String(repeating: sentence, count: 2)))),
                    ])))
        }
        let pages = try assertSameBothWays(
            Document(title: "Everything split", footer: "Page {page} of {pages}", elements: elements), "split")
        XCTAssertGreaterThan(pages, 20)
        // Without a title, the first section starts the first page.
        try assertSameBothWays(Document(title: "", elements: Array(elements.prefix(12))), "untitled")
    }

    /// A long document holds a bounded amount of laid-out blocks: blocks far behind the page being
    /// filled are let go of, and shaped text stays within its residency's budget.
    func testALongDocumentKeepsABoundedAmountOfItsBlocks() throws {
        let paragraphs = (0..<3000).map { index in
            Block.paragraph(Paragraph(RichText("Note \(index): " + String(repeating: "stable readings, no dizziness, ", count: 8))))
        }
        let document = Document(title: "Long", elements: paragraphs)
        let prepared = try PreparedDocument(document, base: .standard, assets: .embeddedOnly)
        let engine = PangoTextEngine()
        let layout = try DocumentLayout(prepared, shaper: engine, pictures: ImageSurfaceCache(), keptBytes: 1 << 20)
        XCTAssertGreaterThan(layout.pageCount, 150)
        XCTAssertLessThanOrEqual(layout.shapedTextKept, TextResidency.standardBudget + 64 << 10)
        for page in 0..<layout.pageCount {
            _ = try layout.frame(ofPage: page)
            layout.discardPage(page)
        }
        XCTAssertLessThanOrEqual(layout.shapedTextKept, TextResidency.standardBudget + 64 << 10)
        XCTAssertLessThan(layout.blocksKept, 64, "only the blocks near the last page drawn are kept")
    }

    /// Nothing of a layout outlives it: its blocks, their shaped text and what bounds it go with it
    /// (a reference cycle between blocks and their residency kept every record of a batch worker).
    func testALayoutIsFreedWithItsBlocks() throws {
        weak var residency: TextResidency?
        func layOut() throws {
            let document = try DocumentDecoder.decode(
                try Data(contentsOf: TestSupport.samples.appendingPathComponent("weekly-summary.yaml")), format: .yaml)
            let prepared = try PreparedDocument(document, base: .standard, assets: .files(relativeTo: TestSupport.samples))
            let layout = try DocumentLayout(prepared, shaper: PangoTextEngine(), pictures: ImageSurfaceCache())
            for page in 0..<layout.pageCount { _ = try layout.frame(ofPage: page) }
            residency = layout.textResidency
            XCTAssertNotNil(residency)
        }
        try layOut()
        XCTAssertNil(residency, "the layout's blocks and their residency are freed with it")
    }
}
