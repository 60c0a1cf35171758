import Foundation
import XCTest

@testable import Folio
@testable import FolioFiles

/// Output files are written whole or not at all, and durably: a reader never sees a partial or an
/// empty file, the bytes and the folder's entry are flushed to the disk before the file is called
/// done, and a failed write leaves the old file and no temporary (#56).
final class AtomicFileTests: XCTestCase {
    func testAReaderSeesTheOldFileOrTheWholeNewOneNeverAPart() throws {
        let folder = try TestSupport.temporaryDirectory()
        let url = folder.appendingPathComponent("summary.pdf")
        let size = 8 << 20
        try AtomicFile.write(Data(repeating: UInt8(ascii: "A"), count: size), to: url)
        let seen = Locked<[String]>([])
        let stop = Locked(false)
        let reader = Thread {
            while !stop.value {
                guard let data = try? Data(contentsOf: url) else {
                    seen.withLock { $0.append("missing") }
                    continue
                }
                let first = data.first ?? 0
                if data.count != size || data.contains(where: { $0 != first }) { seen.withLock { $0.append("partial \(data.count)") } }
            }
        }
        reader.start()
        for round in 0..<12 { try AtomicFile.write(Data(repeating: UInt8(ascii: round % 2 == 0 ? "B" : "C"), count: size), to: url) }
        stop.set(true)
        while !reader.isFinished { usleep(1_000) }
        XCTAssertEqual(seen.value, [], "a reader saw the file missing or in part")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        XCTAssertEqual(names, ["summary.pdf"], "no temporary file is left")
    }

    func testTheFileAndItsFolderAreFlushedBeforeTheWriteIsDone() throws {
        let url = try TestSupport.temporaryDirectory().appendingPathComponent("record.json")
        let before = AtomicFile.flushes.value
        try AtomicFile.write(Data("{}".utf8), to: url)
        XCTAssertGreaterThanOrEqual(AtomicFile.flushes.value - before, 2, "the file and its folder are fsynced")
        XCTAssertEqual(try Data(contentsOf: url), Data("{}".utf8))
    }

    func testAFailedWriteLeavesTheOldFileAndNoTemporary() throws {
        let folder = try TestSupport.temporaryDirectory()
        let url = folder.appendingPathComponent("out.html")
        try AtomicFile.write(Data("old".utf8), to: url)
        struct Failure: Error {}
        XCTAssertThrowsError(
            try AtomicFile.write(to: url) { fd in
                try AtomicFile.writeAll(Data("half".utf8), to: fd)
                throw Failure()
            })
        XCTAssertEqual(try Data(contentsOf: url), Data("old".utf8))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["out.html"])
        // Never over anything but a regular file.
        XCTAssertThrowsError(try AtomicFile.write(Data("x".utf8), to: folder))
    }

    /// `SOURCE_DATE_EPOCH` is the document's date when it gives none: two renders of one document
    /// are the same bytes, dated by it.
    func testSourceDateEpochDatesTheDocument() throws {
        setenv("SOURCE_DATE_EPOCH", "1763280000", 1)
        defer { unsetenv("SOURCE_DATE_EPOCH") }
        let document = Document(title: "Dated", elements: [.paragraph(Paragraph("Text"))])
        XCTAssertEqual(try DocumentDate.resolve(document.metadata), Date(timeIntervalSince1970: 1_763_280_000))
        let first = try document.pdf()
        let second = try document.pdf()
        XCTAssertEqual(first, second, "the same document on the same date is the same bytes")
        XCTAssertTrue(String(decoding: try TestSupport.readablePDF(first).utf8, as: UTF8.self).contains("D:20251116"), "dated 2025-11-16")
        setenv("SOURCE_DATE_EPOCH", "soon", 1)
        XCTAssertThrowsError(try DocumentDate.resolve(document.metadata)) {
            XCTAssertTrue("\($0)".hasPrefix("SOURCE_DATE_EPOCH: "), "\($0)")
        }
    }
}
