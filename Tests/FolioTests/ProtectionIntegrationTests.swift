import Foundation
import XCTest

@testable import Folio

/// Protected PDFs (AES-256) as a recipient and an auditor would check them: qpdf reports revision 6
/// with the right password, the file does not open without it, the text is there with it, the
/// decrypted copy still passes PDF/UA, and no password is written anywhere but into the encryption.
final class ProtectionIntegrationTests: XCTestCase {
    private var folio: String { TestSupport.folioBinary.path }

    private func encryption(_ pdf: URL, password: String) throws -> TestSupport.Output {
        try TestSupport.run("qpdf", ["--show-encryption", "--password=\(password)", pdf.path])
    }

    func testAProtectedPDFOpensOnlyWithItsPasswordAndStaysAccessible() throws {
        let folder = try TestSupport.temporaryDirectory()
        let document = folder.appendingPathComponent("protected.yaml")
        try Data(
            """
            title: Weekly summary
            metadata: {language: en}
            protection: {userPassword: "1954-03-02", ownerPassword: "owner-secret", allow: [print]}
            elements:
              - {type: paragraph, text: "Ana Rivera's resting heart rate was 72 beats per minute."}
              - {type: table, header: [Day, Steps], rows: [[Mon, "4,200"], [Tue, "5,100"]]}
            """.utf8
        ).write(to: document)
        let pdf = folder.appendingPathComponent("protected.pdf")
        let rendered = try TestSupport.run(folio, ["render", document.path, "-o", pdf.path])
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        let shown = try encryption(pdf, password: "1954-03-02")
        XCTAssertTrue(shown.text.contains("R = 6"), shown.text)
        XCTAssertTrue(shown.text.contains("file encryption method: AESv3"), shown.text)
        XCTAssertTrue(shown.text.contains("extract for accessibility: allowed"), shown.text)
        XCTAssertTrue(shown.text.contains("extract for any purpose: not allowed"), shown.text)
        XCTAssertTrue(shown.text.contains("print high resolution: allowed"), shown.text)
        XCTAssertTrue(try encryption(pdf, password: "owner-secret").text.contains("Supplied password is owner password"))
        // Without the password (or with another) the file does not open.
        XCTAssertNotEqual(try TestSupport.run("qpdf", ["--check", pdf.path]).status, 0)
        XCTAssertNotEqual(try TestSupport.run("qpdf", ["--check", "--password=1954-03-03", pdf.path]).status, 0)
        XCTAssertNotEqual(try TestSupport.run("pdftotext", [pdf.path, "-"]).status, 0)
        // With it, the text is there.
        let text = try TestSupport.run("pdftotext", ["-upw", "1954-03-02", pdf.path, "-"]).text
        XCTAssertTrue(text.contains("72 beats per minute"), text)
        // The password is nowhere in the file's bytes.
        let bytes = try Data(contentsOf: pdf)
        XCTAssertNil(bytes.range(of: Data("1954-03-02".utf8)))
        XCTAssertNil(bytes.range(of: Data("owner-secret".utf8)))

        // The decrypted copy passes both PDF/UA checkers.
        try TestSupport.integrationOnly()
        let decrypted = folder.appendingPathComponent("decrypted.pdf")
        XCTAssertEqual(try TestSupport.run("qpdf", ["--decrypt", "--password=1954-03-02", pdf.path, decrypted.path]).status, 0)
        try TestSupport.assertPassesPDFUACheckers([decrypted.path])
    }

    func testPasswordFilesAndBadProtectionAreOneLineWithoutThePassword() throws {
        let folder = try TestSupport.temporaryDirectory()
        let password = folder.appendingPathComponent("password.txt")
        try Data("from-a-file-7\n".utf8).write(to: password)
        let pdf = folder.appendingPathComponent("summary.pdf")
        let sample = TestSupport.samples.appendingPathComponent("weekly-summary.yaml").path
        let rendered = try TestSupport.run(folio, ["render", sample, "--password-file", password.path, "-o", pdf.path])
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        XCTAssertTrue(try encryption(pdf, password: "from-a-file-7").text.contains("R = 6"))
        let html = try TestSupport.run(
            folio, ["render", sample, "--password-file", password.path, "-o", folder.appendingPathComponent("s.html").path])
        XCTAssertEqual(html.status, 1)
        XCTAssertTrue(html.stderr.contains("--password-file protects a PDF"), html.stderr)

        let secret = "hunter2-\(UUID().uuidString.prefix(6))"
        let cases: [(String, String)] = [
            (
                "metadata: {conformance: pdfa-2u}\nprotection: {userPassword: \(secret)}\nelements: []",
                "folio: error: protection: PDF/A (metadata.conformance: pdfa-2u) forbids encryption: leave out protection or metadata.conformance\n"
            ),
            ("protection: {userPassword: \"\"}\nelements: []", "folio: error: protection.userPassword: a password may not be empty\n"),
            (
                "protection: {userPassword: \(secret), ownerPassword: \(String(repeating: "x", count: 128))}\nelements: []",
                "folio: error: protection.ownerPassword: a password may have at most 127 bytes of UTF-8\n"
            ),
            (
                "protection: {userPassword: \(secret), allow: [print, extract]}\nelements: []",
                // Not the value: a password written in the wrong place is never shown.
                "folio: error: protection.allow[1]: expected one of: print, copy, modify, annotate\n"
            ),
        ]
        for (yaml, expected) in cases {
            let file = try TestSupport.temporaryFile(Data(yaml.utf8), name: "bad.yaml")
            let result = try TestSupport.run(folio, ["render", file.path, "-o", folder.appendingPathComponent("bad.pdf").path])
            XCTAssertEqual(result.status, 1)
            // Said at the file's line, with the message as ever.
            XCTAssertTrue(result.stderr.hasPrefix(file.path + ":"), result.stderr)
            XCTAssertEqual(TestSupport.unlocated(result.stderr), expected)
            XCTAssertFalse(result.stderr.contains(secret))
        }
        XCTAssertFalse("\(Protection(userPassword: secret, ownerPassword: "o"))".contains(secret), "the description hides passwords")
    }

    func testABatchProtectsEachRecordWithItsOwnPasswordAndWritesItNowhereElse() throws {
        let folder = try TestSupport.temporaryDirectory()
        let template = folder.appendingPathComponent("protected.yaml")
        try Data(
            """
            title: "Summary for {{patient.name}}"
            protection: {userPassword: "{{patient.birthDate}}", allow: [print, copy]}
            elements:
              - {type: paragraph, text: "Steps this week: {{steps}}"}
            """.utf8
        ).write(to: template)
        let records = [
            #"{"patient":{"id":"A","name":"Ana","birthDate":"1954-03-02"},"steps":4200}"#,
            #"{"patient":{"id":"B","name":"Ben","birthDate":"1961-07-14"},"steps":5100}"#,
            #"{"patient":{"id":"C","name":"Cy","birthDate":""},"steps":10}"#,
        ]
        let data = try TestSupport.temporaryFile(Data(records.joined(separator: "\n").utf8), name: "records.jsonl")
        let out = folder.appendingPathComponent("out")
        let result = try TestSupport.run(
            folio, ["batch", template.path, "--data", data.path, "--out", out.path, "--name", "{{patient.id}}", "--quiet"])
        XCTAssertEqual(result.status, 1, "record C has an empty password")
        for (id, password, other) in [("A", "1954-03-02", "1961-07-14"), ("B", "1961-07-14", "1954-03-02")] {
            let pdf = out.appendingPathComponent("\(id).pdf")
            XCTAssertTrue(try encryption(pdf, password: password).text.contains("R = 6"), id)
            XCTAssertNotEqual(try TestSupport.run("qpdf", ["--check", "--password=\(other)", pdf.path]).status, 0, id)
            XCTAssertNotEqual(try TestSupport.run("qpdf", ["--check", pdf.path]).status, 0, id)
        }
        let failures = try String(contentsOf: out.appendingPathComponent("failures.jsonl"), encoding: .utf8)
        XCTAssertTrue(failures.contains("protection.userPassword: a password may not be empty"), failures)
        // No password in any file the batch wrote, nor in what it said.
        for name in try FileManager.default.contentsOfDirectory(atPath: out.path) {
            let bytes = try Data(contentsOf: out.appendingPathComponent(name))
            for password in ["1954-03-02", "1961-07-14"] {
                XCTAssertNil(bytes.range(of: Data(password.utf8)), "\(password) in \(name)")
            }
        }
        XCTAssertFalse(result.stderr.contains("1954-03-02") || result.stderr.contains("1961-07-14"))
    }
}
