import FolioModel
import Foundation
import XCTest

@testable import Folio
@testable import FolioTemplate

/// `keepTogether: true` moves a block whole to the next page rather than split it there; a block
/// taller than a page still splits; a heading before it goes with it; every kind accepts it (#42).
final class KeepTogetherTests: XCTestCase {
    private func report(_ yaml: String) throws -> LayoutReport {
        try DocumentDecoder.decode(Data(yaml.utf8), format: .yaml).pdfWithReport().report
    }

    private func filler(_ lines: Int) -> String {
        (1...lines).map { "  - {type: paragraph, text: \"Line \($0) of notes that fill the page.\"}" }.joined(separator: "\n")
    }

    private func table(rows: Int, keep: Bool?) -> String {
        let body = (1...rows).map { "[\"Dose \($0)\", \"\($0 * 10) mg\"]" }.joined(separator: ", ")
        return "  - {type: table, header: [Dose, Amount], rows: [\(body)]\(keep.map { ", keepTogether: \($0)" } ?? "")}"
    }

    /// The pages of the last block of a document of `lines` notes, a subtitle and a 12-row table.
    private func pages(lines: Int, keep: Bool?) throws -> (subtitle: [Int], table: [Int]) {
        let report = try report(
            """
            elements:
            \(filler(lines))
              - {type: subtitle, text: Doses this week}
            \(table(rows: 12, keep: keep))
            """)
        let blocks = report.blocks
        return (blocks[blocks.count - 2].pages, blocks[blocks.count - 1].pages)
    }

    /// A table of contents before the first section keeps its heading with its own list: no
    /// keepBroken warning (#59: --strict failed a normal packet); a subtitle left alone before a
    /// section that starts a new page still is one.
    func testAContentsBeforeTheFirstSectionBreaksNoKeep() throws {
        let packet = try report(
            "title: T\nelements:\n  - {type: contents}\n  - {type: section, title: One}\n  - {type: paragraph, text: Hello}\n"
                + "  - {type: section, title: Two}\n  - {type: paragraph, text: World}\n")
        XCTAssertFalse(packet.warnings.contains { $0.kind == .keepBroken }, "\(packet.warnings)")
        let orphan = try report(
            "title: T\nelements:\n  - {type: subtitle, text: Alone}\n  - {type: section, title: One}\n  - {type: paragraph, text: Hello}\n")
        XCTAssertEqual(orphan.warnings.filter { $0.kind == .keepBroken }.map(\.path), ["elements[0]"])
    }

    func testAKeptTableMovesWholeWithItsHeadingWhereAnotherSplits() throws {
        // Find the notes after which the table splits over pages 1 and 2.
        let lines = try XCTUnwrap(try (20...60).first { try pages(lines: $0, keep: nil).table == [1, 2] })
        XCTAssertEqual(try pages(lines: lines, keep: false).table, [1, 2])
        let kept = try pages(lines: lines, keep: true)
        XCTAssertEqual(kept.table, [2], "the kept table split")
        XCTAssertEqual(kept.subtitle, [2], "the heading was left behind its table")
    }

    func testAKeptTableLongerThanAPageStillSplits() throws {
        let report = try report(
            """
            elements:
            \(filler(5))
            \(table(rows: 90, keep: true))
            """)
        let pages = try XCTUnwrap(report.blocks.last?.pages)
        XCTAssertEqual(pages.first, 1, "a table longer than a page left the first page's room empty")
        XCTAssertGreaterThan(pages.count, 1)
    }

    func testAKeptParagraphAndListMoveWhole() throws {
        let long = (1...12).map { "Sentence \($0) of a note read at once." }.joined(separator: " ")
        let items = (1...8).map { "\"Exercise \($0): ten slow repetitions\"" }.joined(separator: ", ")
        for block in [
            "  - {type: paragraph, text: \"\(long) \(long)\", keepTogether: true}",
            "  - {type: list, ordered: true, items: [\(items)], keepTogether: true}",
            "  - {type: message, kind: alert, title: Call us, text: \"\(long) \(long)\", keepTogether: true}",
        ] {
            let unkept = block.replacingOccurrences(of: ", keepTogether: true", with: "")
            let lines = try XCTUnwrap(
                try (20...70).first { try report("elements:\n\(filler($0))\n\(unkept)").blocks.last?.pages == [1, 2] },
                "\(block) never split")
            XCTAssertEqual(try report("elements:\n\(filler(lines))\n\(block)").blocks.last?.pages, [2], block)
        }
    }

    func testEveryKindAcceptsKeepTogetherAndANonBooleanIsRefusedNamingIt() throws {
        let document = try DocumentDecoder.decode(
            Data(
                """
                elements:
                  - {type: subtitle, text: A, keepTogether: true}
                  - {type: barcode, symbology: qr, data: MRN-1, keepTogether: true}
                  - {type: pageBreak, keepTogether: true}
                  - {type: chart, kind: bar, categories: [A], series: [{title: S, values: [1]}], keepTogether: true}
                """.utf8), format: .yaml)
        XCTAssertEqual(document.elements.count, 4)
        XCTAssertThrowsError(
            try DocumentDecoder.decode(Data("elements:\n  - {type: table, rows: [[a]], keepTogether: often}\n".utf8), format: .yaml)
        ) { error in
            XCTAssertTrue("\(error)".contains("elements[0].keepTogether"), "\(error)")
        }
    }

    func testAHeadingGoesWithAChartThatMovesOrShrinks() throws {
        // A subtitle is kept with the chart after it, whether the chart moves whole (its height as
        // its minHeight) or is drawn shorter to stay: never left alone at a page's foot.
        for minHeight in ["minHeight: 200", ""] {
            for lines in stride(from: 20, through: 56, by: 2) {
                let report = try report(
                    """
                    elements:
                    \(filler(lines))
                      - {type: subtitle, text: Pain this week}
                      - {type: chart, kind: bar, title: Pain, height: 200, \(minHeight.isEmpty ? "" : minHeight + ", ")categories: [Mon, Tue], series: [{title: Pain, values: [3, 5]}]}
                    """)
                let blocks = report.blocks
                XCTAssertEqual(blocks[blocks.count - 2].pages, blocks[blocks.count - 1].pages, "\(lines) lines, \(minHeight)")
                XCTAssertFalse(report.warnings.contains { $0.kind == .keepBroken }, "\(lines) lines: \(report.warnings)")
            }
        }
    }

    func testAKeptBlockIsNotSplitWhenTheHTMLIsPrintedEither() throws {
        let kept = try DocumentDecoder.decode(Data("elements:\n\(table(rows: 3, keep: true))\n".utf8), format: .yaml).html()
        XCTAssertTrue(kept.contains("<div class=\"folio-keep\"><div class=\"folio-table-wrap\""), kept)
        XCTAssertTrue(kept.contains(".folio-keep{break-inside:avoid}"), kept)
        let plain = try DocumentDecoder.decode(Data("elements:\n\(table(rows: 3, keep: nil))\n".utf8), format: .yaml).html()
        XCTAssertFalse(plain.contains("folio-keep"), plain)
    }
}
