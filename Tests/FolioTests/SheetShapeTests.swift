import Foundation
import XCTest

@testable import Folio
@testable import FolioSheets
@testable import FolioTemplate

/// Spreadsheets in shape (#59): a sheet's name cut between words with "…", every CSV line as many
/// fields as the header, and a cell spanning columns keeping the cells after it under their own.
final class SheetShapeTests: XCTestCase {
    func testALongSheetNameIsCutBetweenWords() {
        let names = SheetNames.unique(["Administrations by medication and week", "Short", "Administrations by medication and week"])
        XCTAssertEqual(names[0], "Administrations by medication…")
        XCTAssertLessThanOrEqual(names[0].utf16.count, 31)
        XCTAssertEqual(names[1], "Short")
        XCTAssertTrue(names[2].hasSuffix(" (2)"), names[2])
        XCTAssertLessThanOrEqual(names[2].utf16.count, 31)
        // One word longer than a sheet name: cut inside it, still marked.
        XCTAssertEqual(SheetNames.unique([String(repeating: "x", count: 40)])[0], String(repeating: "x", count: 30) + "…")
    }

    func testEveryCSVLineHasTheHeadersFieldsAndSpansKeepTheirColumns() throws {
        let table = Table(
            header: ["Given", "Dose", "Unit", "Status"],
            rows: [["Medication: Metformin"], ["2026-11-09", "500", "mg", "given"], ["Subtotal", "500", "", ""]],
            spans: [Table.CellSpan(row: 0, cell: 0, span: 4)])
        let sheet = SpreadsheetTables.sheet(table, number: 1, colors: [:])
        XCTAssertEqual(sheet.rows[0].count, 4, "the group header's cell and the three it covers")
        let csv = String(decoding: CSVTable.data(sheet), as: UTF8.self)
        let lines = csv.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        XCTAssertEqual(lines.count, 4)
        for line in lines { XCTAssertEqual(line.filter { $0 == "," }.count, 3, line) }
        XCTAssertEqual(lines[1], "Medication: Metformin,,,")
    }

    func testASubtotalsLabelSpanningColumnsLeavesItsValuesUnderTheirColumns() throws {
        let table = Table(
            header: ["Given", "Nurse", "Dose"],
            rows: [["2026-11-09", "A. Okafor", "500"], ["Subtotal", "500"]],
            spans: [Table.CellSpan(row: 1, cell: 0, span: 2)])
        let sheet = SpreadsheetTables.sheet(table, number: 1, colors: [:])
        XCTAssertEqual(sheet.rows[1].count, 3)
        guard case .number(let sum, _) = sheet.rows[1][2] else { return XCTFail("the sum under Dose: \(sheet.rows[1])") }
        XCTAssertEqual(sum, 500)
        XCTAssertEqual(sheet.rows[1][1], .empty)
    }
}
