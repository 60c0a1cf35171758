import CCairoPango
import Foundation
import XCTest

@testable import Folio
@testable import FolioGraphics
@testable import FolioModel
@testable import FolioPDF
@testable import FolioWorkers

/// Failures of C libraries are typed errors naming the library, what it did and its status, in
/// this process and across a render worker's channel.
final class NativeLibraryErrorTests: XCTestCase {
    func testCairoStatusNamesCairoItsStatusAndItsWords() {
        XCTAssertNoThrow(try CairoStatus.require(CAIRO_STATUS_SUCCESS, while: "writing the PDF"))
        XCTAssertThrowsError(try CairoStatus.require(CAIRO_STATUS_NO_MEMORY, while: "writing the PDF")) { error in
            guard let failure = error as? NativeLibraryError else { return XCTFail("\(type(of: error)): \(error)") }
            XCTAssertEqual(failure.library, .cairo)
            XCTAssertEqual(failure.status, 1)
            XCTAssertEqual(failure.description, "Cairo failed while writing the PDF: out of memory (status 1)")
        }
    }

    func testQPDFRefusingItsInputIsALibraryErrorNotTheDocuments() {
        XCTAssertThrowsError(
            try PDFFinisher(document: Document(title: "T", elements: []), date: Date(timeIntervalSince1970: 0)).add(
                Data("not a PDF".utf8), structure: StructureRecord())
        ) { error in
            guard let failure = error as? NativeLibraryError else { return XCTFail("\(type(of: error)): \(error)") }
            XCTAssertEqual(failure.library, .qpdf)
            XCTAssertEqual(failure.operation, "finishing the PDF")
            XCTAssertNotNil(failure.status)
            XCTAssertFalse(failure.reason.isEmpty)
            XCTAssertEqual(failure.description.split(separator: "\n").count, 1)
        }
    }

    /// A long document's parts are finished on a second thread: a part qpdf refuses there fails the
    /// render with qpdf's error, and a part handed over after it is refused with the same error.
    func testAPartRefusedOnTheFinishingThreadFailsTheRender() throws {
        let finisher = try PDFFinisher(document: Document(title: "T", elements: []), date: Date(timeIntervalSince1970: 0))
        let pipeline = PartPipeline(finisher: finisher)
        func part(_ text: String) -> Data { Data(text.utf8) }
        try pipeline.submit(part("not a PDF"), structure: StructureRecord())
        var refusedLater = false
        for _ in 0..<50 where !refusedLater {
            do {
                try pipeline.submit(part("not a PDF either"), structure: StructureRecord())
                usleep(2_000)
            } catch {
                refusedLater = (error as? NativeLibraryError)?.library == .qpdf
            }
        }
        XCTAssertTrue(refusedLater, "a part handed over after a failure is refused")
        XCTAssertThrowsError(try pipeline.finishAll()) { error in
            guard let failure = error as? NativeLibraryError else { return XCTFail("\(type(of: error)): \(error)") }
            XCTAssertEqual(failure.library, .qpdf)
            XCTAssertEqual(failure.operation, "finishing the PDF")
        }
    }

    /// A long render stopped by its deadline while a part is being finished on the second thread
    /// stops (the thread is joined, the waiting part dropped), and the next render is whole.
    func testARenderStoppedWhilePartsAreFinishedStopsCleanly() throws {
        let rows = (1...2_000).map { ["Day \($0)", "\(60 + $0 % 40)", "note \($0)"] }
        // A fixed date: a render a second later would compress its dates to other bytes.
        var document = Document(title: "Long", elements: [.table(Table(headers: ["Day", "Heart rate", "Note"], rows: rows))])
        document.metadata.creationDate = Date(timeIntervalSince1970: 1_795_000_000)
        var options = RenderOptions()
        options.pagesPerPart = 4
        let whole = try document.pdf(options: options)
        // Stopped once the second, the fifth and the last part are drawn: earlier parts are with the
        // finishing thread or waiting for it.
        let parts = (try TestSupport.pageTexts(whole).count + 3) / 4
        XCTAssertGreaterThan(parts, 10)
        for stopAt in [2, 5, parts] {
            let drawn = Locked(0)
            let stopping = RenderDeadline(
                seconds: .infinity, stopRequested: { drawn.value >= stopAt },
                activity: { step in if step == "finishing the PDF" { drawn.withLock { $0 += 1 } } })
            XCTAssertThrowsError(
                try RenderDeadline.$current.withValue(stopping) { try document.pdf(options: options) }, "stopped at part \(stopAt)"
            ) { error in XCTAssertTrue(error is RenderDeadline.Expired, "\(error)") }
            XCTAssertEqual(drawn.value, stopAt)
        }
        let pdf = try document.pdf(options: options)
        XCTAssertEqual(pdf.count, whole.count)
        let pages = try TestSupport.pageTexts(pdf)
        XCTAssertGreaterThan(pages.count, 40)
        XCTAssertTrue(pages.last?.contains("Day 2000") == true)
        let file = try TestSupport.temporaryFile(pdf, name: "after-stops.pdf")
        XCTAssertEqual(try TestSupport.run("qpdf", ["--check", file.path]).status, 0)
    }

    func testALibraryErrorCrossesTheWorkerChannelWhole() {
        let sent = NativeLibraryError(.cairo, operation: "drawing the PDF", status: 23, reason: "invalid size")
        let received = RenderWorker.error(in: RenderWorker.errorAnswer(sent))
        XCTAssertEqual(received as? NativeLibraryError, sent)
        let invalid = FolioError(path: "elements[2].rows", "expected an array")
        XCTAssertEqual(RenderWorker.error(in: RenderWorker.errorAnswer(invalid)) as? FolioError, invalid)
    }
}
