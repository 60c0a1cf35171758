import PropertyBased
import Testing
import XCTest

@testable import Folio
@testable import FolioBatch
@testable import FolioData

/// A batch process reads each record for its file names and id only (`JSONProjection`): it keeps
/// those fields, and it finds every error a whole parse finds, at the same place, so a malformed
/// record fails the same way whoever reads it.
final class JSONProjectionTests: XCTestCase {
    private let record = #"""
        {"patient": {"id": "P00001", "name": "Émile \"E\" Okafor", "tags": ["a", "b"]},
         "id": 7, "pain": [3, 5, 1.5e1, -2], "notes": {"text": "x\ny \u00e9 \ud83d\ude00", "ok": true, "none": null}}
        """#

    func testOnlyTheFieldsNamedAreKept() throws {
        let bytes = Array(record.utf8)
        let kept = try JSONTreeParser.parse(bytes, keeping: JSONProjection(keeping: ["patient.id", "id"]))
        XCTAssertEqual(kept, .object([("patient", .object([("id", .string("P00001"))])), ("id", .number(7))]))
        let whole = try JSONTreeParser.parse(bytes)
        XCTAssertEqual(try JSONTreeParser.parse(bytes, keeping: .whole), whole)
        let pain = try JSONTreeParser.parse(bytes, keeping: JSONProjection(keeping: ["pain"]))
        XCTAssertEqual(pain.value(at: "pain"), whole.value(at: "pain"))
        XCTAssertEqual(
            try JSONTreeParser.parse(bytes, keeping: JSONProjection(keeping: ["patient.tags.1"])).value(at: "patient.tags"),
            whole.value(at: "patient.tags"), "a path into an array keeps the array")
        XCTAssertEqual(
            try JSONTreeParser.parse(bytes, keeping: JSONProjection(keeping: ["patient", "patient.id"])).value(at: "patient"),
            whole.value(at: "patient"), "a shorter path keeps all under it")
        XCTAssertEqual(try JSONTreeParser.parse(bytes, keeping: JSONProjection(keeping: [])), .object([]))
        let array = try JSONTreeParser.parse(Array("[1, 2]".utf8), keeping: JSONProjection(keeping: ["id"]))
        XCTAssertEqual(array, .array([.number(1), .number(2)]), "a value that is no object is kept whole")
    }

    func testFileNamesReadFromTheKeptFieldsAreTheNamesOfTheWholeRecord() throws {
        let bytes = Array(#"{"$id": "dollar", "patient": {"id": "P7", "name": "Ana"}, "week": [46, 2026], "x": {"y": 1}}"#.utf8)
        let whole = try JSONTreeParser.parse(bytes)
        for pattern in ["{{patient.id}}-{{$number}}", "{{$id}}", "{{week.0}}-{{week | join: _}}", "{{patient | count}}-{{x.y}}"] {
            let naming = try FileNaming(pattern: pattern)
            let kept = try JSONTreeParser.parse(bytes, keeping: JSONProjection(keeping: naming.recordPaths))
            XCTAssertEqual(
                try naming.name(record: kept, number: 3, format: .pdf), try naming.name(record: whole, number: 3, format: .pdf), pattern)
        }
    }

    func testAMalformedRecordFailsAtTheSamePlaceWhateverIsKept() {
        let malformed = [
            #"{"patient": {"id": "A"}, "x": [1, 2, }"#, #"{"x": {"a": 1, "a": 2}}"#, #"{"patient": {"id": "C", "id": "D"}}"#,
            #"{"s": "bad \q"}"#, #"{"s": "\u12G4"}"#, "{\"s\": \"tab\there\"}", #"{"n": 1.2.3}"#, #"{"n": tru}"#, #"{"a": 1"#,
            #"{"a": 1} x"#, #"{"a" 1}"#, #"{a: 1}"#, #"{"s": "unterminated}"#, #"{"n": -}"#,
            #"{"d": \#(String(repeating: "[", count: 80))}"#,
        ]
        for text in malformed {
            let bytes = Array(text.utf8)
            let whole = message { try JSONTreeParser.parse(bytes) }
            XCTAssertNotNil(whole, text)
            for paths in [["patient.id"], ["id"], [], ["x", "s", "n"]] {
                let kept = message { try JSONTreeParser.parse(bytes, keeping: JSONProjection(keeping: paths)) }
                XCTAssertEqual(kept, whole, "\(text) keeping \(paths)")
            }
        }
    }

    private func message(_ body: () throws -> TreeValue) -> String? {
        do {
            _ = try body()
            return nil
        } catch {
            return "\(error)"
        }
    }
}

/// Any JSON-like text, well-formed or not, reads the same kept or skipped: the same tree of what is
/// kept, or the same error.
struct JSONProjectionPropertyTests {
    static let pieces = [
        "{", "}", "[", "]", ",", ":", "\"a\"", "\"b\"", "\"c\"", "1", "-2.5", "1e3", "1.2.3", "true", "nul", "null", "\"x\\ny\"",
        "\"\\u00e9\"", "\"\\q\"", " ", "\"", "\\",
    ]

    @Test func anyTextParsesTheSameKeptOrSkipped() async {
        await propertyCheck(count: 400, input: Gen.int(in: 0..<JSONProjectionPropertyTests.pieces.count).array(of: 0...24)) { indices in
            let text = indices.map { JSONProjectionPropertyTests.pieces[$0] }.joined()
            let bytes = Array(text.utf8)
            let projection = JSONProjection(keeping: ["a", "b.c"])
            switch (Result { try JSONTreeParser.parse(bytes) }, Result { try JSONTreeParser.parse(bytes, keeping: projection) }) {
            case (.success(let whole), .success(let kept)):
                #expect(kept.value(at: "a") == whole.value(at: "a"), "\(text)")
                #expect(kept.value(at: "b.c") == whole.value(at: "b.c"), "\(text)")
            case (.failure(let whole), .failure(let kept)):
                #expect("\(whole)" == "\(kept)", "\(text)")
            default:
                Issue.record("one parse failed and the other did not: \(text)")
            }
        }
    }
}
