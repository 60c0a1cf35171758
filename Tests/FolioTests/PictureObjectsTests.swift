import FolioGraphics
import Foundation
import XCTest

@testable import Folio
@testable import FolioPDF

/// Pictures drawn from image objects made once per process (`PictureObjects`) must come out as
/// Cairo draws them in the document, the same bytes whether or not the process drew them before,
/// and nothing a document holds may pass for a placeholder.
final class PictureObjectsTests: XCTestCase {
    /// Every page of `pdf` as pdftoppm draws it (PPM images one after another).
    private func pages(_ pdf: Data) throws -> Data {
        let file = try TestSupport.temporaryFile(pdf, name: "pictures.pdf")
        return try TestSupport.run("pdftoppm", ["-r", "60", file.path]).stdout
    }

    /// pdfimages' list of `pdf`'s images without the object numbers: page, size, colour, mask.
    private func images(_ pdf: Data) throws -> [String] {
        let file = try TestSupport.temporaryFile(pdf, name: "pictures.pdf")
        return try TestSupport.run("pdfimages", ["-list", file.path]).text.split(separator: "\n").dropFirst(2).map { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return fields.prefix(9).joined(separator: " ")
        }
    }

    /// A PNG no other test drew (its text is random): a page drawn by Folio and rendered by
    /// pdftocairo, with a transparent background (an alpha channel) or an opaque one.
    private func png(transparent: Bool) throws -> Data {
        let text = UUID().uuidString
        let source = Document(
            title: text, page: PageSetup(size: .custom(width: 240, height: 90), margins: .init(all: 8)),
            elements: [.paragraph(Paragraph(transparent ? "**\(text)**" : "_\(text)_"))])
        let pdf = try TestSupport.temporaryFile(try source.pdf(), name: "source.pdf")
        let base = pdf.deletingLastPathComponent().appendingPathComponent("picture")
        let made = try TestSupport.run(
            "pdftocairo", ["-png"] + (transparent ? ["-transp"] : []) + ["-singlefile", "-r", "72", pdf.path, base.path])
        XCTAssertEqual(made.status, 0, made.stderr)
        return try Data(contentsOf: base.appendingPathExtension("png"))
    }

    /// A JPEG (an RGB one, which Cairo embeds as it is): a page drawn by Folio, rendered by pdftoppm.
    private func jpegPhoto() throws -> Data {
        let page = try TestSupport.temporaryFile(
            try Document(title: "JPEG source", elements: [.paragraph(Paragraph("JPEG"))]).pdf(), name: "jpeg-source.pdf")
        let base = page.deletingLastPathComponent().appendingPathComponent("jpeg-source")
        XCTAssertEqual(try TestSupport.run("pdftoppm", ["-jpeg", "-singlefile", "-r", "20", page.path, base.path]).status, 0)
        return try Data(contentsOf: base.appendingPathExtension("jpg"))
    }

    private func document(_ logo: Data, _ transparent: Data) -> Document {
        var metadata = Metadata()
        metadata.creationDate = Date(timeIntervalSince1970: 1_700_000_000)
        return Document(
            title: "Pictures", metadata: metadata,
            elements: [
                .image(ImageBlock(source: .data(logo), width: Length(points: 120), alt: "logo")),
                .image(ImageBlock(source: .data(transparent), width: Length(points: 200), alt: "transparent")),
                .paragraph(Paragraph("Between the pictures.")),
                .image(ImageBlock(source: .data(transparent), width: Length(points: 80), alt: "transparent, smaller")),
                .pageBreak,
                .image(ImageBlock(source: .data(logo), width: Length(points: 300), alt: "logo again")),
            ])
    }

    func testPicturesFromTheirImageObjectsDrawAsCairoDrawsThemInTheDocument() throws {
        let document = document(try png(transparent: false), try png(transparent: true))
        PictureObjects.drawsFromStore.store(false, ordering: .relaxed)
        let direct = try document.pdf()
        PictureObjects.drawsFromStore.store(true, ordering: .relaxed)
        let stored = try document.pdf()
        XCTAssertEqual(try pages(stored), try pages(direct), "a picture from its image object draws differently")
        XCTAssertEqual(try images(stored), try images(direct))
        XCTAssertTrue(try images(direct).contains { $0.contains("smask") }, "the transparent picture has a soft mask")
        let file = try TestSupport.temporaryFile(stored, name: "stored.pdf")
        XCTAssertEqual(try TestSupport.run("qpdf", ["--check", file.path]).status, 0)
        XCTAssertNil(stored.range(of: Data("/DCTDecode".utf8)), "a placeholder was left in the file")
        XCTAssertNil(stored.range(of: Data("FolioPicture:".utf8)))
    }

    func testAPictureGivesTheSameBytesTheFirstTimeAndEveryTimeAfter() throws {
        let logo = try png(transparent: false)
        let transparent = try png(transparent: true)
        XCTAssertNil(PictureObjects.kept(logo))
        let first = try document(logo, transparent).pdf()
        XCTAssertNotNil(PictureObjects.kept(logo), "the logo's image object is kept for the next render")
        XCTAssertNotNil(PictureObjects.kept(transparent))
        for _ in 0..<2 {
            XCTAssertEqual(try document(logo, transparent).pdf(), first, "a later render gives other bytes")
        }
    }

    func testWhatAProcessKeepsStaysWithinItsBudgetTheOldestGoingFirst() {
        var cache = ByteBudgetCache<Int>(budget: 100)
        let keys = (0..<4).map { Data([UInt8($0)]) }  // one byte each
        for (index, key) in keys.prefix(3).enumerated() { cache.keep(index, for: key, cost: 29) }
        XCTAssertEqual(cache.count, 3)
        cache.keep(3, for: keys[3], cost: 29)  // 4 × 30 > 100: the oldest goes
        XCTAssertNil(cache[keys[0]])
        XCTAssertEqual(cache[keys[1]], 1)
        XCTAssertEqual(cache[keys[3]], 3)
        cache.keep(9, for: keys[1], cost: 1)  // already kept: stays as it was
        XCTAssertEqual(cache[keys[1]], 1)
        cache.keep(7, for: Data([9]), cost: 100)  // more than the whole budget: not kept, nothing let go
        XCTAssertNil(cache[Data([9])])
        XCTAssertEqual(cache.count, 3)
    }

    func testWhatAThreadKeepsStartsAgainPastItsLimitOrBudget() {
        var cache = BoundedCache<String, Int>(limit: 3, budget: 10)
        for (index, key) in ["a", "b", "c"].enumerated() { cache.keep(index, for: key, cost: 2) }
        XCTAssertEqual(cache.count, 3)
        cache.keep(3, for: "d", cost: 2)  // a fourth entry: emptied first
        XCTAssertEqual(cache.count, 1)
        XCTAssertNil(cache["a"])
        XCTAssertEqual(cache["d"], 3)
        cache.keep(4, for: "e", cost: 8)  // 2 + 8 = 10: within the budget
        XCTAssertEqual(cache.count, 2)
        cache.keep(5, for: "f", cost: 1)  // 11: past it
        XCTAssertEqual(cache.count, 1)
        XCTAssertEqual(cache["f"], 5)
    }

    func testNoPictureOfAPDFAAsksForInterpolation() throws {
        // PDF/A-2 (ISO 19005-2, 6.2.8): no image may ask for interpolation; Cairo asks for it on
        // every picture, those from image objects and a JPEG embedded as it is alike.
        let jpeg = try jpegPhoto()
        var document = document(try png(transparent: false), try png(transparent: true))
        document.elements.append(.image(ImageBlock(source: .data(jpeg), width: Length(points: 100), alt: "photo")))
        XCTAssertNotNil(try document.pdf().range(of: Data("/Interpolate true".utf8)), "Cairo asks for interpolation")
        document.metadata.conformance = .archival
        let archival = try document.pdf()
        XCTAssertNil(archival.range(of: Data("/Interpolate true".utf8)))
        let file = try TestSupport.temporaryFile(archival, name: "archival.pdf")
        let rows = try TestSupport.run("pdfimages", ["-list", file.path]).text.split(separator: "\n").dropFirst(2)
            .map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        XCTAssertEqual(rows.count, 7, "the logo twice, the transparent picture twice with its mask, the photo")
        XCTAssertEqual(Set(rows.map { $0.count > 9 ? String($0[9]) : "" }), ["no"], "pdfimages' interp column")
        XCTAssertEqual(try TestSupport.run("qpdf", ["--check", file.path]).status, 0)
    }

    func testAJPEGCannotPassForAPlaceholder() throws {
        // A JPEG whose comment looks like a placeholder's but without the process's random part is
        // embedded as it is, not replaced by a picture.
        let logo = try png(transparent: false)
        _ = try document(logo, logo).pdf()
        var jpeg = [UInt8](try jpegPhoto())
        for guess in ["FolioPicture:1", "FolioPicture:" + String(repeating: "0", count: 32) + ":1"] {
            let comment = Array(guess.utf8)
            let segment: [UInt8] = [0xFF, 0xFE, UInt8((comment.count + 2) >> 8), UInt8((comment.count + 2) & 0xFF)] + comment
            jpeg.insert(contentsOf: segment, at: 2)
        }
        let pdf = try Document(
            title: "Hostile",
            elements: [
                .image(ImageBlock(source: .data(logo), alt: "logo")), .image(ImageBlock(source: .data(Data(jpeg)), alt: "photo")),
            ]
        ).pdf()
        XCTAssertNotNil(pdf.range(of: Data(jpeg)), "the JPEG is embedded as it is")
        XCTAssertEqual(try images(pdf).count, 2)
    }
}
