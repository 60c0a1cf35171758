import Foundation
import XCTest

@testable import Folio
@testable import FolioBatch
@testable import FolioData
@testable import FolioTemplate

/// Cheap checks of what a user receives, in the fast suite: the finished PDF passes qpdf's own
/// check, a protected one is AES-256 (revision 6, never RC4 or AES-128), and a batch's manifest
/// holds each file's real SHA-256.
final class FinishedFileTests: XCTestCase {
    private func document(_ extra: String = "") throws -> Document {
        try DocumentDecoder.decode(
            Data(
                """
                title: Weekly summary
                \(extra)
                elements:
                  - {type: paragraph, text: "Blood pressure was steady this week."}
                  - type: table
                    header: [Day, Systolic]
                    rows: [[Mon, "128"], [Tue, "131"]]
                """.utf8), format: .yaml)
    }

    private func qpdf(_ arguments: [String]) throws -> TestSupport.Output { try TestSupport.run("qpdf", arguments) }

    func testTheFinishedPDFPassesQPDFsCheck() throws {
        let file = try TestSupport.temporaryFile(try document().pdf(), name: "plain.pdf")
        let check = try qpdf(["--check", file.path])
        XCTAssertEqual(check.status, 0, check.text + check.stderr)
        XCTAssertTrue(check.text.contains("No syntax or stream encoding errors found"), check.text)
        XCTAssertTrue(check.text.contains("File is not encrypted"), check.text)
    }

    func testAProtectedPDFIsAES256RevisionSix() throws {
        let pdf = try document("protection: {userPassword: \"s3cret pass\", allow: [print]}").pdf()
        let file = try TestSupport.temporaryFile(pdf, name: "protected.pdf")
        let encryption = try qpdf(["--password=s3cret pass", "--show-encryption", file.path])
        XCTAssertEqual(encryption.status, 0, encryption.stderr)
        let text = encryption.text
        XCTAssertTrue(text.contains("R = 6"), "revision 6 (PDF 2.0's AES-256): \(text)")
        for method in ["stream encryption method", "string encryption method", "file encryption method"] {
            XCTAssertTrue(text.contains("\(method): AESv3"), "\(method) is AES-256: \(text)")
        }
        XCTAssertFalse(text.contains("RC4"), text)
        XCTAssertTrue(text.contains("extract for accessibility: allowed"), "PDF/UA needs it: \(text)")
        XCTAssertTrue(text.contains("modify document assembly: not allowed"), text)
        let check = try qpdf(["--password=s3cret pass", "--check", file.path])
        XCTAssertEqual(check.status, 0, check.text + check.stderr)
        let refused = try qpdf(["--password=wrong", "--check", file.path])
        XCTAssertNotEqual(refused.status, 0, "a wrong password does not open it")
        XCTAssertFalse(pdf.range(of: Data("Blood pressure".utf8)) != nil, "the text is not in the clear")
    }

    func testABatchManifestHoldsEachFilesSHA256() throws {
        let folder = try TestSupport.temporaryDirectory()
        let template = folder.appendingPathComponent("t.yaml")
        try Data("title: \"{{name}}\"\nelements:\n  - {type: paragraph, text: \"Notes for {{name}}.\"}\n".utf8).write(to: template)
        let data = folder.appendingPathComponent("d.jsonl")
        try Data("{\"id\": \"A\", \"name\": \"Ana\"}\n{\"id\": \"B\", \"name\": \"Ben\"}\n".utf8).write(to: data)
        let out = folder.appendingPathComponent("out")
        var options = BatchOptions(template: template, data: data.path, outputDirectory: out, namePattern: "{{id}}", jobs: 1)
        options.formats = [.pdf, .html]
        options.workers = nil
        let summary = try BatchRunner(options: options).run(progress: nil)
        XCTAssertEqual(summary.written, 2)
        let lines = try String(contentsOf: out.appendingPathComponent("manifest.jsonl"), encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 4, "a line per written file")
        var seen: Set<String> = []
        for line in lines {
            let entry = try JSONTreeParser.parse(Data(line.utf8))
            guard case .string(let file)? = entry["file"], case .string(let digest)? = entry["sha256"],
                case .number(let bytes)? = entry["bytes"]
            else { return XCTFail("a manifest line without file, bytes and sha256: \(line)") }
            let contents = try Data(contentsOf: out.appendingPathComponent(file))
            XCTAssertEqual(digest, SHA256Digest.hex(contents), "\(file)'s digest is the file's")
            XCTAssertEqual(Int(bytes), contents.count, file)
            seen.insert(file)
        }
        XCTAssertEqual(seen, ["A.pdf", "A.html", "B.pdf", "B.html"])
    }
}
