import FolioGraphics
import FolioModel
import Foundation
import XCTest

@testable import Folio
@testable import FolioLayout
@testable import FolioPDF
@testable import FolioPango
@testable import FolioTemplate

/// A block of fixed-height lines for exercising the paginator.
private final class Lines: Flowable {
    let name: String
    let count: Int
    let lineHeight: Double
    let keepWithNext: Bool
    let splittable: Bool
    let scale: Double

    init(_ name: String, lines: Int, lineHeight: Double = 10, keepWithNext: Bool = false, splittable: Bool = true, scale: Double = 1) {
        self.name = name
        self.count = lines
        self.lineHeight = lineHeight
        self.keepWithNext = keepWithNext
        self.splittable = splittable
        self.scale = scale
    }

    var height: Double { Double(count) * lineHeight * scale }
    var spaceBefore: Double { 0 }
    var minimumHeadHeight: Double { splittable ? min(2, Double(count)) * lineHeight : height }

    func split(available: Double) -> (head: Flowable, tail: Flowable)? {
        let fit = Int(available / lineHeight)
        guard splittable, fit >= 1, fit < count else { return nil }
        return (Lines(name, lines: fit, lineHeight: lineHeight), Lines(name, lines: count - fit, lineHeight: lineHeight))
    }

    func scaled(toFit height: Double) -> Flowable? {
        splittable ? nil : Lines(name, lines: count, lineHeight: lineHeight, splittable: false, scale: height / self.height)
    }

    func draw(on canvas: PageCanvas, at origin: Point) {}
}

final class PaginatorTests: XCTestCase {
    private func layout(_ flowables: [Flowable], pageHeight: Double = 100) -> [[String]] {
        Paginator(pageHeight: pageHeight).paginate(items(flowables)).pages.map { page in
            page.placements.map { placement in
                let lines = placement.flowable as? Lines
                return "\(lines?.name ?? "?")\(lines.map { ":\($0.count)" } ?? "")"
            }
        }
    }

    private func items(_ flowables: [Flowable]) -> [Paginator.Item] {
        flowables.enumerated().map { Paginator.Item(flowable: $0.element, source: $0.offset) }
    }

    func testBlocksFillPagesAndSplitBetweenLines() {
        XCTAssertEqual(layout([Lines("a", lines: 6), Lines("b", lines: 7)]), [["a:6", "b:4"], ["b:3"]])
    }

    func testKeepWithNextMovesAHeadingThatWouldEndAPage() {
        let pages = layout([
            Lines("a", lines: 8), Lines("heading", lines: 1, keepWithNext: true, splittable: false),
            Lines("body", lines: 5),
        ])
        XCTAssertEqual(pages, [["a:8"], ["heading:1", "body:5"]])
    }

    func testAKeepRuleThatCannotHoldIsReported() {
        // The heading starts a page, and what follows is too tall to start on it.
        let (_, warnings) = Paginator(pageHeight: 100).paginate(
            items([
                Lines("heading", lines: 1, keepWithNext: true, splittable: false),
                Lines("figure", lines: 10, lineHeight: 9.5, splittable: false),
            ]))
        XCTAssertEqual(warnings.map(\.kind), [.keepBroken])
    }

    func testSectionsStartPagesAndNumberTheirOwnPages() {
        let items = items([
            Lines("title", lines: 1), SectionFlowable(Section(title: "A")), Lines("a", lines: 15),
            SectionFlowable(Section(title: "B")), Lines("b", lines: 3),
        ])
        let (pages, _) = Paginator(pageHeight: 100).paginate(items)
        XCTAssertEqual(pages.map(\.section), [0, 0, 1], "section A shares the title's page")
        let numbers = DocumentLayout.numbering(ofSections: pages.map(\.section))
        XCTAssertEqual(numbers.map(\.page), [1, 2, 1])
        XCTAssertEqual(numbers.map(\.pages), [2, 2, 1])
        XCTAssertEqual(numbers.map(\.documentPage), [1, 2, 3])
    }

    func testUnsplittableBlockMovesToTheNextPage() {
        XCTAssertEqual(layout([Lines("a", lines: 5), Lines("figure", lines: 6, splittable: false)]), [["a:5"], ["figure:6"]])
    }

    func testBlockTallerThanAPageIsScaledDown() {
        let (pages, warnings) = Paginator(pageHeight: 100).paginate(
            items([Lines("a", lines: 2), Lines("figure", lines: 30, splittable: false)]))
        XCTAssertEqual(pages.count, 2)
        XCTAssertEqual(pages[1].placements[0].flowable.height, 100, accuracy: 1e-9)
        XCTAssertEqual(warnings.map(\.kind), [.scaledToFit])
        XCTAssertEqual(warnings.first?.message, "taller than a page: shrunk to 33%")
    }

    func testPageBreaksStartANewPageOnlyOnce() {
        let pages = layout([Lines("a", lines: 2), PageBreakFlowable(), PageBreakFlowable(), Lines("b", lines: 2), PageBreakFlowable()])
        XCTAssertEqual(pages, [["a:2"], ["b:2"]])
    }

    func testLongBlockSplitsAcrossManyPagesInOrder() {
        let pages = layout([Lines("rows", lines: 1000)])
        XCTAssertEqual(pages.count, 100)
        XCTAssertTrue(pages.allSatisfy { $0 == ["rows:10"] })
    }
}

/// A chart that does not fit the rest of a page is drawn with a shorter plot, down to half its
/// plot or the bound its author sets (minHeight), instead of moving whole and leaving the page a
/// third empty (#42); its `height` as its minHeight keeps it whole.
final class ChartFittingTests: XCTestCase {
    private func report(lines: Int, minHeight: Int?) throws -> LayoutReport {
        let filler = (1...lines).map { "  - {type: paragraph, text: \"Line \($0) of notes that fill the page.\"}" }.joined(separator: "\n")
        let yaml = """
            elements:
            \(filler)
              - type: chart
                kind: bar
                title: Pain
                height: 200
                \(minHeight.map { "minHeight: \($0)" } ?? "")
                categories: [Mon, Tue, Wed]
                series: [{title: Pain, values: [3, 5, 2]}]
            """
        return try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml).pdfWithReport().report
    }

    private func page(lines: Int, minHeight: Int?) throws -> [Int]? {
        try report(lines: lines, minHeight: minHeight).blocks.last?.pages
    }

    func testAChartShrinksToStayOnItsPageWithinItsBound() throws {
        // More notes leave less room: find where the chart kept whole moves, but one drawn at half
        // its plot (the default) stays.
        let lines = try XCTUnwrap(
            try (18...50).first { try page(lines: $0, minHeight: 200) == [2] && page(lines: $0, minHeight: nil) == [1] },
            "no room where only the shorter chart fits")
        // Shrinking is layout, like a paragraph's split: no warning (a `--strict` batch stays clean).
        XCTAssertEqual(try report(lines: lines, minHeight: nil).warnings.map(\.kind), [])
        // Where half its plot does not fit, it moves whole; a lower bound of its author's keeps it.
        let crowded = try XCTUnwrap(try (lines...60).first { try page(lines: $0, minHeight: nil) == [2] })
        XCTAssertGreaterThan(crowded, lines)
        XCTAssertEqual(try page(lines: crowded, minHeight: 60), [1])
        let tooCrowded = try XCTUnwrap(try (crowded...70).first { try page(lines: $0, minHeight: 60) == [2] })
        XCTAssertGreaterThan(tooCrowded, crowded)
    }
}
