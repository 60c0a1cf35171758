import Foundation
import XCTest

@testable import FolioGraphics
@testable import FolioInput
@testable import FolioLayout
@testable import FolioModel

/// Text of fixed advances (0.6 em a character, lines 1.2 em), wrapped at spaces: layout with no
/// text engine, no Cairo and no Pango behind it.
private final class FixedText: ShapedText {
    let lines: [String]
    let size: Double
    init(lines: [String], size: Double) {
        self.lines = lines.isEmpty ? [""] : lines
        self.size = size
    }
    var metrics: TextMetrics {
        TextMetrics(
            width: lines.map { Double($0.count) * size * 0.6 }.max() ?? 0, height: Double(lines.count) * size * 1.2,
            baseline: size * 0.95)
    }
    var lineExtents: [Rect] {
        lines.enumerated().map {
            Rect(x: 0, y: Double($0.offset) * size * 1.2, width: Double($0.element.count) * size * 0.6, height: size * 1.2)
        }
    }
    var unknownGlyphCount: Int { 0 }
    func text(throughLine index: Int) -> String { lines.prefix(index + 1).joined(separator: "\n") }
    var string: String { lines.joined(separator: " ") }
}

private final class FixedShaper: TextShaper {
    func measure(_ text: String, font: FontSpec) -> TextMetrics {
        TextMetrics(width: Double(text.count) * font.size * 0.6, height: font.size * 1.2, baseline: font.size * 0.95)
    }
    func singleLine(_ text: String, font: FontSpec) -> ShapedText { FixedText(lines: [text], size: font.size) }
    func wrapped(
        _ runs: [TextRun], font: FontSpec, width: Double, alignment: Paragraph.Alignment, linkColor: Color?, lineSpacing: Double,
        direction: TextDirection?
    ) -> ShapedText {
        FixedText(lines: FixedShaper.wrap(runs.map(\.text).joined(), size: font.size, width: width), size: font.size)
    }
    func lineWidth(_ text: String, font: FontSpec) -> Double { Double(text.count) * font.size * 0.6 }
    func wrappedHeight(_ text: String, font: FontSpec, width: Double, alignment: Paragraph.Alignment, lineSpacing: Double) -> Double {
        Double(FixedShaper.wrap(text, size: font.size, width: width).count) * font.size * 1.2
    }
    static func wrap(_ text: String, size: Double, width: Double) -> [String] {
        let perLine = max(1, Int(width / (size * 0.6)))
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                if !line.isEmpty, line.count + 1 + word.count > perLine {
                    lines.append(line)
                    line = ""
                }
                line += (line.isEmpty ? "" : " ") + word
            }
            lines.append(line)
        }
        return lines
    }
}

private final class NoPictures: PictureSupport {
    func decoding(_ image: ImageData) -> PictureDecoding { .decoded }
    var drawsSVG: Bool { true }
}

/// Pagination, table splitting and page frames, tested with a fixed-advance text shaper: the
/// layout module needs neither Cairo nor Pango.
final class LayoutWithoutCairoTests: XCTestCase {
    private func layout(_ document: Document) throws -> DocumentLayout {
        let prepared = try PreparedDocument(document, base: .standard, assets: .embeddedOnly)
        return try DocumentLayout(prepared, shaper: FixedShaper(), pictures: NoPictures())
    }

    private func strings(_ frame: PageFrame) -> [String] {
        frame.texts.compactMap { ($0.text as? FixedText)?.string }
    }

    func testATableSplitsBetweenRowsWithItsHeaderOnEveryPageAndOneTableInTheStructure() throws {
        let rows = (1...120).map { ["row \($0)", "\($0 * 3)"] }
        let document = Document(title: "Readings", elements: [.table(Table(header: ["Reading", "Value"], rows: rows))])
        let laidOut = try layout(document)
        XCTAssertGreaterThan(laidOut.pageCount, 2)
        var seen: [String] = []
        for page in 0..<laidOut.pageCount {
            let frame = try laidOut.frame(ofPage: page)
            let texts = strings(frame)
            XCTAssertEqual(texts.filter { $0 == "Reading" }.count, 1, "the header row on page \(page + 1)")
            seen += texts.filter { $0.hasPrefix("row ") }
            // One Table element across pages: later parts continue it, and a repeated header is decoration.
            let tables = frame.items.compactMap { if case .beginTable(let continues) = $0 { return continues } else { return nil } }
            XCTAssertEqual(tables, [page > 0], "page \(page + 1)")
            XCTAssertEqual(frame.tags.contains(.headerCell), page == 0, "header cells are tagged once, on page 1")
        }
        XCTAssertEqual(seen, rows.map { $0[0] }, "every row once, in order")
        let report = laidOut.report
        let parts = try XCTUnwrap(report.blocks.first { $0.path == "elements[0]" }?.rows)
        XCTAssertEqual(parts.first?.first, 0)
        XCTAssertEqual(parts.last?.last, 119)
        for (a, b) in zip(parts, parts.dropFirst()) { XCTAssertEqual(b[0], a[1] + 1, "parts follow each other") }
    }

    func testAParagraphSplitsWithoutLeavingOneLineAlone() throws {
        let words = Array(repeating: "word", count: 120).joined(separator: " ")
        // Filler takes most of the first page, so the paragraph starts near its bottom.
        var splits = 0
        for fillers in 30...44 {
            let filler = (1...fillers).map { Block.paragraph(Paragraph("filler \($0)")) }
            let laidOut = try layout(Document(title: "T", elements: filler + [.paragraph(Paragraph(words))]))
            // The paragraph is one text drawn in parts, each with the lines its page shows: never one alone.
            let parts = try (0..<laidOut.pageCount).flatMap { try laidOut.frame(ofPage: $0).items }.compactMap {
                item -> ClosedRange<Double>? in
                guard case .text(let text, _, _, let visible) = item, (text as? FixedText)?.string.hasPrefix("word") == true else {
                    return nil
                }
                return visible ?? 0...(text.metrics.height)
            }
            XCTAssertFalse(parts.isEmpty)
            if parts.count > 1 { splits += 1 }
            let lineHeight = 10 * 1.2
            for visible in parts {
                XCTAssertGreaterThanOrEqual(
                    ((visible.upperBound - visible.lowerBound) / lineHeight).rounded(), 2, "\(fillers) fillers: a part of one line")
            }
        }
        XCTAssertGreaterThan(splits, 3, "the paragraph was split at several places")
    }

    func testAHeadingNeverEndsAPage() throws {
        let filler = (1...29).map { Block.paragraph(Paragraph("filler \($0)")) }
        let document = Document(
            title: "T", elements: filler + [.subtitle(Subtitle("Medications")), .paragraph(Paragraph("After the heading."))])
        let laidOut = try layout(document)
        let last = try laidOut.frame(ofPage: laidOut.pageCount - 1)
        let texts = strings(last)
        XCTAssertTrue(texts.contains("Medications") && texts.contains("After the heading."), "\(texts)")
    }

    func testHeadersAndFootersAreInEveryFrameWithTheirNumbers() throws {
        var document = Document(title: "T", elements: [.paragraph(Paragraph("one")), .pageBreak, .paragraph(Paragraph("two"))])
        document.header = RunningLine(left: "Summary", right: "{page}/{pages}")
        let laidOut = try layout(document)
        XCTAssertEqual(laidOut.pageCount, 2)
        XCTAssertTrue(strings(try laidOut.frame(ofPage: 0)).contains("1/2"))
        XCTAssertTrue(strings(try laidOut.frame(ofPage: 1)).contains("2/2"))
        // Page furniture is decoration: drawn outside every structure element.
        let frame = try laidOut.frame(ofPage: 1)
        guard case .text(let first, _, _, _)? = frame.items.first else { return XCTFail("the header comes first") }
        XCTAssertEqual((first as? FixedText)?.string, "Summary")
    }

    func testTheLayoutModuleImportsNoCModule() throws {
        let folder = TestSupport.root.appendingPathComponent("Sources/FolioLayout")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".swift") {
            let source = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            for line in source.split(separator: "\n") where line.hasPrefix("import ") {
                XCTAssertTrue(
                    ["import FolioModel", "import FolioGraphics", "import FolioCharts", "import FolioInput", "import Foundation"].contains(
                        String(line)),
                    "\(name): \(line)")
            }
        }
    }
}
