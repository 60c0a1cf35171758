import Foundation
import XCTest

@testable import Folio

/// `folio render --format png` (#43): a picture of each page drawn from the same page frames as
/// the PDF, deterministic, at the resolution asked, each with its text in reading order beside it.
final class PagePictureIntegrationTests: XCTestCase {
    private let folio = TestSupport.folioBinary.path
    private var sample: String { TestSupport.samples.appendingPathComponent("weekly-summary.yaml").path }

    func testEachPageIsAPictureOfThePDFsPageWithItsText() throws {
        try TestSupport.integrationOnly()
        let folder = try TestSupport.temporaryDirectory()
        let pattern = folder.appendingPathComponent("page-%d.png").path
        let result = try TestSupport.run(folio, ["render", sample, "--format", "png", "--dpi", "72", "-o", pattern])
        XCTAssertEqual(result.status, 0, result.stderr)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertEqual(names, ["page-1.png", "page-1.txt", "page-2.png", "page-2.txt", "page-3.png", "page-3.txt"])
        // The same picture as the PDF's page drawn by another program (poppler) at the same
        // resolution: blurred a little (their text's anti-aliasing differs), they differ by under 1.5
        // of 255 on average (a page moved by 3 pixels differs by 3.7).
        let pdf = folder.appendingPathComponent("summary.pdf")
        XCTAssertEqual(try TestSupport.run(folio, ["render", sample, "-o", pdf.path]).status, 0)
        XCTAssertEqual(
            try TestSupport.run("pdftoppm", ["-r", "72", "-png", pdf.path, folder.appendingPathComponent("poppler").path]).status, 0)
        let compare = """
            import sys
            from PIL import Image, ImageChops, ImageFilter, ImageStat
            a = Image.open(sys.argv[1]).convert("L"); b = Image.open(sys.argv[2]).convert("L")
            blur = ImageFilter.GaussianBlur(2)
            print(a.size[0], a.size[1], b.size[0], b.size[1], ImageStat.Stat(ImageChops.difference(a.filter(blur), b.filter(blur))).mean[0])
            """
        let script = try TestSupport.temporaryFile(Data(compare.utf8), name: "compare.py")
        for page in 1...3 {
            let ours = folder.appendingPathComponent("page-\(page).png").path
            let theirs = folder.appendingPathComponent("poppler-\(page).png").path
            let output = try TestSupport.run(try TestSupport.python(), [script.path, ours, theirs])
            let fields = output.text.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            XCTAssertEqual(fields.count, 5, output.text + output.stderr)
            guard fields.count == 5 else { continue }
            XCTAssertEqual(fields[0], 596, "an A4 page (595.3 × 841.9 pt) at 72 dpi")
            XCTAssertEqual(fields[1], 842)
            XCTAssertEqual(fields[0], fields[2])
            XCTAssertLessThan(fields[4], 1.5, "page \(page) differs from the PDF's")
        }
        // Its text: the running header first, the page's text in order, a chart by its alternative, the footer last.
        let text = try String(contentsOf: folder.appendingPathComponent("page-1.txt"), encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(text.first, "2026-11-09 to 2026-11-15 update for Émile Okafor")
        XCTAssertEqual(text.last, "Page 1 of 3")
        XCTAssertTrue(text.contains("Key metrics"))
        XCTAssertTrue(text.contains { $0.hasPrefix("[Bar chart, Pain and medication adherence by day") }, "\(text)")
        XCTAssertFalse(text.contains("Mon"), "a chart's words are said by its alternative")
    }

    func testPicturesAreTheSameBytesEachTimeAndTheResolutionIsChecked() throws {
        try TestSupport.integrationOnly()
        let folder = try TestSupport.temporaryDirectory()
        var digests: [Data] = []
        for run in 1...2 {
            let output = folder.appendingPathComponent("run\(run).png").path
            XCTAssertEqual(try TestSupport.run(folio, ["render", sample, "-o", output, "--dpi", "30"]).status, 0)
            digests.append(try Data(contentsOf: folder.appendingPathComponent("run\(run)-2.png")))
        }
        XCTAssertEqual(digests[0], digests[1])
        let tooFine = try TestSupport.run(folio, ["render", sample, "-o", folder.appendingPathComponent("x.png").path, "--dpi", "5000"])
        XCTAssertEqual(tooFine.status, 1)
        XCTAssertTrue(tooFine.stderr.contains("--dpi: expected a resolution from 18 to 600"), tooFine.stderr)
        let toStandardOutput = try TestSupport.run(folio, ["render", sample, "--format", "png", "-o", "-"])
        XCTAssertEqual(toStandardOutput.status, 1)
        XCTAssertTrue(toStandardOutput.stderr.contains("one per page"), toStandardOutput.stderr)
        let notPNG = try TestSupport.run(folio, ["render", sample, "-o", folder.appendingPathComponent("x.pdf").path, "--dpi", "72"])
        XCTAssertEqual(notPNG.status, 1)
        XCTAssertTrue(notPNG.stderr.contains("--dpi is for PNG pages"), notPNG.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("x-1.png").path))
    }
}
