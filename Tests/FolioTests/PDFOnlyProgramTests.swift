import Foundation
import XCTest

@testable import FolioServer

/// A program that wants only a PDF imports `Folio` and builds none of the rest (#56): the example
/// `weekly-summary-pdf` (Examples/) links no code of the reading of YAML and JSON, templates,
/// FHIR, spreadsheets, render workers, batch, the service, schemas or fuzz harnesses, nor the
/// libraries only they use, and still writes the whole weekly summary.
final class PDFOnlyProgramTests: XCTestCase {
    /// The modules a PDF-only program must not contain, as Swift mangles a module name in every
    /// symbol of it (its length, then the name).
    private static let absentModules = [
        "FolioData", "FolioTemplate", "FolioFHIR", "FolioSheets", "FolioWorkers", "FolioBatch", "FolioServer", "FolioSchema",
        "FolioFuzzing", "FolioConnect", "Yams", "CSV", "Hummingbird", "NIOCore", "ArgumentParser",
    ]
    /// C functions of the libraries only those modules open (SQLite for FHIR, libxlsxwriter for workbooks, libcurl for servers).
    private static let absentFunctions = ["sqlite3_open", "workbook_new", "curl_easy_perform"]

    private var example: URL { TestSupport.folioBinary.deletingLastPathComponent().appendingPathComponent("weekly-summary-pdf") }

    private static func mangled(_ module: String) -> String { "\(module.utf8.count)\(module)" }

    func testAPDFOnlyProgramLinksNoneOfTheReadingTemplatesFHIRSpreadsheetsWorkersOrSchemas() throws {
        let program = try Data(contentsOf: example)
        // The same search finds each of them in `folio`, which uses them all: the search itself works.
        let folio = try Data(contentsOf: TestSupport.folioBinary)
        for module in Self.absentModules where !["FolioFuzzing"].contains(module) {
            XCTAssertNotNil(folio.range(of: Data(Self.mangled(module).utf8)), "folio has no symbol of \(module): the search is wrong")
        }
        XCTAssertNotNil(program.range(of: Data(Self.mangled("FolioPDF").utf8)), "the example has no FolioPDF symbol: the search is wrong")
        for module in Self.absentModules {
            XCTAssertNil(program.range(of: Data(Self.mangled(module).utf8)), "a PDF-only program links \(module)")
        }
        for function in Self.absentFunctions {
            XCTAssertNil(program.range(of: Data(function.utf8)), "a PDF-only program names \(function)")
        }
    }

    func testTheExampleWritesTheWholeWeeklySummary() throws {
        let output = try TestSupport.temporaryDirectory().appendingPathComponent("summary.pdf")
        let run = try TestSupport.run(example.path, [output.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        let text = try TestSupport.pdfText(try Data(contentsOf: output))
        for words in ["Weekly Care Summary", "Key metrics", "55,037", "Medication adherence", "Pain", "Ibuprofen", "400 mg", "Keep it up"] {
            XCTAssertTrue(text.contains(words), "the summary lacks \"\(words)\": \(text)")
        }
    }
}
