import Foundation
import XCTest

@testable import Folio
@testable import FolioTemplate

/// The same tables as spreadsheets (#44): XLSX written by libxlsxwriter that openpyxl and
/// LibreOffice open with numbers as numbers and dates as dates; CSV by RFC 4180; from
/// `folio render` and `folio batch`.
final class SpreadsheetIntegrationTests: XCTestCase {
    private func temporaryDirectory() throws -> URL { try TestSupport.temporaryDirectory() }

    /// A batch of medication logs as PDF, XLSX and CSV: each workbook opens in openpyxl with its
    /// header frozen, times as datetimes, doses as numbers with the column's format, the total bold
    /// and equal to the records counted here; LibreOffice converts it to the same rows.
    func testABatchWritesWorkbooksThatOpenpyxlAndLibreOfficeRead() throws {
        try TestSupport.integrationOnly()
        let folder = try temporaryDirectory()
        let sample = try Data(contentsOf: TestSupport.samples.appendingPathComponent("medication-log.json"))
        let record = try XCTUnwrap(JSONSerialization.jsonObject(with: sample) as? [String: Any])
        var lines = ""
        for index in 1...2 {
            var copy = record
            var patient = copy["patient"] as? [String: Any] ?? [:]
            patient["id"] = "MRN-\(index)"
            copy["patient"] = patient
            lines += String(decoding: try JSONSerialization.data(withJSONObject: copy), as: UTF8.self) + "\n"
        }
        let data = folder.appendingPathComponent("logs.jsonl")
        try Data(lines.utf8).write(to: data)
        let out = folder.appendingPathComponent("out")
        let template = TestSupport.root.appendingPathComponent("Templates/medication-log.yaml").path
        let batch = try TestSupport.run(
            TestSupport.folioBinary.path,
            ["batch", template, "--data", data.path, "--out", out.path, "--format", "pdf,xlsx,csv", "--name", "{{patient.id}}", "--quiet"])
        XCTAssertEqual(batch.status, 0, batch.text)
        for name in ["MRN-1.pdf", "MRN-1.xlsx", "MRN-1.csv", "MRN-2.xlsx"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent(name).path), name)
        }
        let administrations = record["administrations"] as? [[String: Any]] ?? []
        let script = """
            import openpyxl, datetime, sys, json
            wb = openpyxl.load_workbook(sys.argv[1])
            ws = wb.worksheets[0]
            rows = list(ws.iter_rows(values_only=True))
            data = [r for r in rows[1:] if isinstance(r[0], datetime.datetime)]
            doses = [r[1] for r in data]
            last = list(ws.iter_rows(min_row=ws.max_row, max_row=ws.max_row))[0]
            print(json.dumps({
              "sheets": wb.sheetnames, "frozen": ws.freeze_panes, "header": list(rows[0]),
              "dataRows": len(data), "dosesAreNumbers": all(isinstance(d, (int, float)) for d in doses),
              "doseFormat": ws.cell(row=4, column=2).number_format,
              "total": [c.value for c in last], "totalBold": all(c.font.b for c in last if c.value is not None),
              "firstTime": data[0][0].isoformat(), "headerBold": ws.cell(row=1, column=1).font.b,
            }))
            """
        let read = try TestSupport.run(
            try TestSupport.python(), ["-c", script, out.appendingPathComponent("MRN-1.xlsx").path])
        XCTAssertEqual(read.status, 0, read.stderr)
        let facts = try XCTUnwrap(JSONSerialization.jsonObject(with: read.stdout) as? [String: Any], read.text + read.stderr)
        XCTAssertEqual(facts["sheets"] as? [String], ["Administrations by medication…"])
        XCTAssertEqual(facts["frozen"] as? String, "A2")
        XCTAssertEqual(facts["header"] as? [String], ["Given", "Dose", "Unit", "Status", "Glucose", "Nurse"])
        XCTAssertEqual(facts["dataRows"] as? Int, administrations.count)
        XCTAssertEqual(facts["dosesAreNumbers"] as? Bool, true)
        XCTAssertEqual(facts["doseFormat"] as? String, "#,##0")
        XCTAssertEqual(facts["headerBold"] as? Bool, true)
        XCTAssertEqual(facts["totalBold"] as? Bool, true)
        // The total counts the administrations; its label goes to the first empty cell.
        let total = facts["total"] as? [Any] ?? []
        XCTAssertEqual((total.first as? NSNumber)?.intValue, administrations.count)
        XCTAssertTrue(total.contains { $0 as? String == "Total" }, "\(total)")
        // The first administration's wall clock, as its record wrote it (Metformin at 08:00 is not first: insulin sorts first).
        XCTAssertTrue((facts["firstTime"] as? String ?? "").hasPrefix("2026-10-19T21:"), "\(facts)")

        // LibreOffice opens the same workbook: its CSV has a row per row, the doses as numbers.
        let converted = folder.appendingPathComponent("lo")
        let office = try TestSupport.run(
            "soffice",
            // Comma-separated, double quotes, UTF-8 (character set 76), from the first line.
            [
                "--headless", "--norestore", "--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76,1", "--outdir", converted.path,
                out.appendingPathComponent("MRN-1.xlsx").path,
            ],
            environment: ["HOME": folder.path])
        XCTAssertEqual(office.status, 0, office.text)
        let csv = try String(contentsOf: converted.appendingPathComponent("MRN-1.csv"), encoding: .utf8)
        // LibreOffice quotes every text field; its values are compared without the quotes.
        let lines2 = csv.replacingOccurrences(of: "\"", with: "").split(whereSeparator: \.isNewline)
        XCTAssertEqual(lines2.first, "Given,Dose,Unit,Status,Glucose,Nurse")
        XCTAssertTrue(lines2.contains { $0.hasPrefix("2026-10-19 21:") && $0.contains(",18,units,") }, csv)
        XCTAssertEqual(
            lines2.count, try String(contentsOf: out.appendingPathComponent("MRN-1.csv"), encoding: .utf8).split(separator: "\r\n").count)
    }

    /// `folio render -o x.csv`: RFC 4180 quoting, numbers plain, a formula-like text kept text, a file
    /// per table when there are several (NAME-1.csv, NAME-2.csv), refused on standard output.
    func testRenderWritesATableAsRFC4180CSVAndSeveralAsAFileEach() throws {
        try TestSupport.integrationOnly()
        let folder = try temporaryDirectory()
        let document = folder.appendingPathComponent("doc.yaml")
        try Data(
            """
            title: T
            elements:
              - type: table
                caption: Readings
                header: [Name, Value, Share, Taken]
                rows:
                  - ["Smith, Ann", "12.5", "51%", "2026-11-14T07:30:00-05:00"]
                  - ["say \\"hi\\"", "-3", "7 %", "=HYPERLINK(\\"x\\")"]
              - type: table
                records: [{drug: A, dose: 2}, {drug: B, dose: 3}]
                total: {dose: sum}
            """.utf8
        ).write(to: document)
        let render = try TestSupport.run(
            TestSupport.folioBinary.path, ["render", document.path, "-o", folder.appendingPathComponent("t.csv").path])
        XCTAssertEqual(render.status, 0, render.text)
        let first = try String(contentsOf: folder.appendingPathComponent("t-1.csv"), encoding: .utf8)
        XCTAssertEqual(
            first,
            "Name,Value,Share,Taken\r\n\"Smith, Ann\",12.5,0.51,2026-11-14T07:30:00-05:00\r\n\"say \"\"hi\"\"\",-3,0.07,\"'=HYPERLINK(\"\"x\"\")\"\r\n"
        )
        let second = try String(contentsOf: folder.appendingPathComponent("t-2.csv"), encoding: .utf8)
        XCTAssertEqual(second, "drug,dose\r\nA,2\r\nB,3\r\nTotal,5\r\n")
        let toStandardOutput = try TestSupport.run(TestSupport.folioBinary.path, ["render", document.path, "--format", "csv", "-o", "-"])
        XCTAssertEqual(toStandardOutput.status, 1)
        XCTAssertTrue(toStandardOutput.stderr.contains("the document has 2 tables, a CSV file each"), toStandardOutput.stderr)
        // A document without a table has no spreadsheet.
        let empty = folder.appendingPathComponent("empty.yaml")
        try Data("title: T\nelements: [{type: paragraph, text: Hi}]\n".utf8).write(to: empty)
        let none = try TestSupport.run(
            TestSupport.folioBinary.path, ["render", empty.path, "-o", folder.appendingPathComponent("e.xlsx").path])
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.stderr.contains("elements: the document has no table to write as a spreadsheet"), none.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("e.xlsx").path))
    }

    /// Written cells are read for what they are in a workbook: numbers with their decimals,
    /// percentages as fractions shown with %, ISO dates and times as dates; the rest text.
    func testWrittenCellsAreTypedInAWorkbook() throws {
        try TestSupport.integrationOnly()
        let document = try DocumentDecoder.decode(
            Data(
                """
                title: T
                elements:
                  - type: table
                    header: [Name, Value, Share, Taken, Day]
                    rows: [["=1+1", "12.50", "51%", "2026-11-14T07:30:00-05:00", "2026-03-08"]]
                """.utf8), format: .yaml)
        let file = try TestSupport.temporaryFile(try document.xlsx(), name: "typed.xlsx")
        let script = """
            import openpyxl, sys
            ws = openpyxl.load_workbook(sys.argv[1]).worksheets[0]
            row = [c for c in ws[2]]
            print(repr([(type(c.value).__name__, str(c.value), c.number_format, c.data_type) for c in row]))
            """
        let read = try TestSupport.run(try TestSupport.python(), ["-c", script, file.path])
        XCTAssertEqual(read.status, 0, read.stderr)
        XCTAssertEqual(
            read.text.trimmingCharacters(in: .whitespacesAndNewlines),
            "[('str', '=1+1', 'General', 's'), ('float', '12.5', '0.00', 'n'), ('float', '0.51', '0%', 'n'), "
                + "('datetime', '2026-11-14 07:30:00', 'yyyy-mm-dd hh:mm', 'd'), ('datetime', '2026-03-08 00:00:00', 'yyyy-mm-dd', 'd')]")
    }
}
