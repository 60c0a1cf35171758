import Foundation
import XCTest

@testable import Folio
@testable import FolioHTML
@testable import FolioLayout
@testable import FolioPDF
@testable import FolioPango
@testable import FolioTemplate

/// Properties every layout keeps, checked on the samples and on generated documents, so a
/// change that lets a block run off its page, leaves a line alone or misplaces text fails here.
final class LayoutInvariantTests: XCTestCase {
    /// Deterministic pseudo-random numbers (`SeededGenerator`), so a failure can be reproduced.
    private struct Random {
        private var generator: SeededGenerator
        init(state: UInt64) { generator = SeededGenerator(seed: state) }
        mutating func next() -> UInt64 { generator.next() }
        mutating func int(_ range: ClosedRange<Int>) -> Int {
            range.lowerBound + Int(next() % UInt64(range.count))
        }
        mutating func words(_ count: Int) -> String {
            let words = [
                "care", "plan", "steps", "heart", "rate", "medication", "adherence", "Émile", "week", "notes",
                "blood-pressure", "follow-up", "appointment", "reviewed", "stable",
            ]
            return (0..<count).map { _ in words[int(0...words.count - 1)] }.joined(separator: " ")
        }
    }

    /// Lays out `document` as the PDF renderer does and returns the content box and the pages.
    private func paginate(_ document: Document, baseDirectory: URL? = nil) throws -> (content: Size, pages: [PageContent]) {
        let prepared = try PreparedDocument(document, base: .standard, assets: .files(relativeTo: baseDirectory))
        let (width, height) = document.page.pageSize
        let m = document.page.margins
        let content = Size(width - m.left.points - m.right.points, height - m.top.points - m.bottom.points)
        let builder = FlowableBuilder(
            text: PangoTextEngine(), theme: prepared.theme, strings: .english, width: content.width, prepared: prepared,
            pictures: ImageSurfaceCache())
        let items = try builder.items(for: document)
        return (content, Paginator(pageHeight: content.height).paginate(items).pages)
    }

    private func assertInsideContentBox(
        _ document: Document, _ name: String, baseDirectory: URL? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let (content, pages) = try paginate(document, baseDirectory: baseDirectory)
        XCTAssertFalse(pages.isEmpty, name, file: file, line: line)
        for (number, page) in pages.enumerated() {
            for placement in page.placements {
                XCTAssertGreaterThanOrEqual(
                    placement.y, -0.01, "\(name): page \(number + 1) starts above the content box",
                    file: file, line: line)
                XCTAssertLessThanOrEqual(
                    placement.y + placement.flowable.height, content.height + 0.01,
                    "\(name): page \(number + 1): a \(type(of: placement.flowable)) ends \(placement.y + placement.flowable.height - content.height) pt below the content box",
                    file: file, line: line)
            }
        }
    }

    func testEveryPlacedBoxLiesInsideTheContentBoxForTheSamples() throws {
        for name in ["weekly-summary", "charts", "packet"] {
            let url = TestSupport.samples.appendingPathComponent("\(name).yaml")
            let document = try DocumentDecoder.decode(try Data(contentsOf: url), format: .yaml)
            try assertInsideContentBox(document, name, baseDirectory: TestSupport.samples)
        }
    }

    func testNoPageOfTheChartGalleryIsMoreThanAThirdEmpty() throws {
        // A chart that does not fit the rest of a page is drawn shorter (to half its plot) rather
        // than move whole and leave the page's foot empty (#42); the last page may end anywhere.
        for name in ["charts", "weekly-summary", "hard-cases"] {
            let url = TestSupport.samples.appendingPathComponent("\(name).yaml")
            let document = try DocumentDecoder.decode(try Data(contentsOf: url), format: .yaml)
            let (content, pages) = try paginate(document, baseDirectory: TestSupport.samples)
            for (number, page) in pages.enumerated().dropLast() {
                let bottom = page.placements.map { $0.y + $0.flowable.height }.max() ?? 0
                XCTAssertLessThanOrEqual(
                    (content.height - bottom) / content.height, 1.0 / 3,
                    "\(name): page \(number + 1) ends at \(Int(bottom)) of \(Int(content.height)) pt")
            }
        }
    }

    func testEveryPlacedBoxLiesInsideTheContentBoxForGeneratedDocuments() throws {
        var random = Random(state: 20_261_122)
        for round in 0..<12 {
            var elements: [Block] = []
            for _ in 0..<random.int(3...8) {
                switch random.int(0...4) {
                case 0: elements.append(.subtitle(Subtitle(random.words(random.int(1...6)))))
                case 1: elements.append(.paragraph(Paragraph(RichText(random.words(random.int(5...400))))))
                case 2:
                    let columns = random.int(1...5)
                    let rows = (0..<random.int(1...120)).map { _ in
                        (0..<columns).map { _ in random.words(random.int(0...(random.int(0...9) == 0 ? 200 : 6))) }
                    }
                    elements.append(
                        .table(
                            Table(
                                header: (0..<columns).map { "Column \($0)" }, rows: rows,
                                caption: random.int(0...1) == 0 ? nil : "Caption",
                                continuedCaption: random.int(0...1) == 0 ? nil : "Caption (continued)")))
                case 3:
                    elements.append(
                        .chart(
                            .bar(
                                BarChart(
                                    categories: ["a", "b", "c"],
                                    series: [
                                        ChartSeries(title: "S", values: [1, Double(random.int(0...100)), 3])
                                    ]), title: "Bars")))
                default:
                    elements.append(.message(Message(title: "Note", text: RichText(random.words(random.int(1...300))), kind: .tip)))
                }
            }
            let page = PageSetup(
                size: random.int(0...1) == 0 ? .a4 : .custom(width: Length(points: 300), height: Length(points: 400)),
                margins: PageSetup.Margins(all: Length(points: Double(random.int(30...60)))))
            let document = Document(title: "Generated \(round)", page: page, elements: elements)
            try assertInsideContentBox(document, "generated document \(round)")
        }
    }

    func testParagraphsNeverLeaveOneLineAloneOnAPage() throws {
        let text = PangoTextEngine()
        let block = try TextBlock(
            [TextRun(String(repeating: "word ", count: 60))], engine: text, font: Theme.standard.font(10), width: 120,
            alignment: Paragraph.Alignment.left, linkColor: nil, residency: nil)
        let paragraph = TextFlowable(block: block, color: .black, spaceBefore: 0)
        let lines = paragraph.lines
        XCTAssertGreaterThanOrEqual(lines.count, 6)
        for available in stride(from: 0.0, through: paragraph.height + 10, by: 1) {
            guard let (head, tail) = paragraph.split(available: available) else { continue }
            let headLines = try XCTUnwrap(head as? TextFlowable).range.count
            let tailLines = try XCTUnwrap(tail as? TextFlowable).range.count
            XCTAssertGreaterThanOrEqual(headLines, 2, "one line left at the bottom of a page (available \(available))")
            XCTAssertGreaterThanOrEqual(tailLines, 2, "one line carried to the next page (available \(available))")
            XCTAssertLessThanOrEqual(head.height, available + 0.01, "the head must fit where it is put")
        }
        // Too little room for two lines: nothing is split off.
        XCTAssertNil(paragraph.split(available: lines[0].height * 1.5))
    }

    func testTableSplitsFitTheRoomTheyAreGiven() throws {
        let table = Table(header: ["A", "B"], rows: (0..<60).map { ["Row \($0)", String(repeating: "text ", count: $0 % 7 * 8)] })
        let layout = try TableLayout(table: table, width: 300, text: PangoTextEngine(), theme: .standard, strings: .english)
        let flowable = TableFlowable(layout: layout, range: 0..<table.rows.count, isFirstPart: true)
        for available in stride(from: 20.0, through: 700, by: 7) {
            guard let (head, _) = flowable.split(available: available) else { continue }
            XCTAssertLessThanOrEqual(head.height, available + 0.01, "a table part taller than its room (\(available) pt)")
        }
    }

    func testInternalLinksLeadToTheirHeadingsPage() throws {
        let document = Document(
            title: "Navigation",
            elements: [
                .paragraph(Paragraph("Jump to [the results](#results).")),
                .pageBreak,
                .subtitle(Subtitle("Results", id: "results")),
            ])
        let file = try TestSupport.temporaryFile(try document.pdf(), name: "links.pdf")
        let json = try TestSupport.run("qpdf", ["--json", "--json-key=qpdf", "--json-key=pages", file.path]).stdout
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let pages = try XCTUnwrap(root["pages"] as? [[String: Any]]).compactMap { $0["object"] as? String }
        XCTAssertEqual(pages.count, 2)
        let objects = try XCTUnwrap((root["qpdf"] as? [Any])?.last as? [String: Any])
        func value(_ reference: String) -> Any? { (objects["obj:" + reference] as? [String: Any])?["value"] }
        // The link annotation on page 1 names a destination…
        let links = objects.values.compactMap { ($0 as? [String: Any])?["value"] as? [String: Any] }
            .filter { $0["/Subtype"] as? String == "/Link" }
        XCTAssertEqual(links.count, 1)
        let name = try XCTUnwrap(links.first?["/Dest"] as? String)
        // …which the document's name tree sends to page 2.
        var target: String?
        for object in objects.values {
            guard let names = ((object as? [String: Any])?["value"] as? [String: Any])?["/Names"] as? [Any] else { continue }
            for index in stride(from: 0, to: names.count - 1, by: 2) where names[index] as? String == name {
                let destination = names[index + 1] as? [Any] ?? (names[index + 1] as? String).flatMap { value($0) as? [Any] }
                target = destination?.first as? String
            }
        }
        XCTAssertEqual(target, pages[1], "the link's destination is on the results page")
    }

    func testSVGTextSitsOnItsBaseline() throws {
        let item = TextItem(
            text: "Mon", origin: Point(10, 20), font: FontSpec(family: "DejaVu Sans", size: 10, bold: false, italic: false),
            color: .black, metrics: TextMetrics(width: 20, height: 12, baseline: 9.5))
        let canvas = SVGCanvas()
        canvas.draw(text: item)
        XCTAssertEqual(canvas.markup, ##"<text x="10" y="29.5" font-size="10" fill="#000000">Mon</text>"##)
    }

    /// Every chart of the gallery drawn as SVG, compared byte for byte with Tests/FolioTests/Golden.
    /// `FOLIO_UPDATE_GOLDEN=1 swift test --filter testChartDrawingsMatchTheirGoldenFiles` rewrites them after a deliberate change.
    func testChartDrawingsMatchTheirGoldenFiles() throws {
        let gallery = try DocumentDecoder.decode(
            try Data(contentsOf: TestSupport.samples.appendingPathComponent("charts.yaml")), format: .yaml)
        let renderer = ChartRenderer(measurer: PangoTextEngine(), theme: .standard, strings: .english)
        let folder = TestSupport.root.appendingPathComponent("Tests/FolioTests/Golden")
        let update = ProcessInfo.processInfo.environment["FOLIO_UPDATE_GOLDEN"] != nil
        if update { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let charts = TestSupport.charts(of: gallery)
        XCTAssertGreaterThan(charts.count, 10)
        for (index, chart) in charts.enumerated() {
            let svg =
                SVGCanvas.svgMarkup(
                    renderer.drawing(for: chart, width: 480), id: "c\(index)", title: chart.title ?? "",
                    fontFamily: "DejaVu Sans") + "\n"
            let file = folder.appendingPathComponent(String(format: "chart-%02d-%@.svg", index, chart.kind))
            if update {
                try Data(svg.utf8).write(to: file)
            } else {
                let expected = try String(contentsOf: file, encoding: .utf8)
                XCTAssertEqual(svg, expected, "\(file.lastPathComponent) differs; if the change is deliberate, set FOLIO_UPDATE_GOLDEN=1")
            }
        }
    }
}
