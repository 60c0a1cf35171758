import Foundation
import XCTest

@testable import Folio

/// No secret in any message: a password planted in documents (YAML and JSON), templates, themes,
/// records and password files that fail in every way an input can fail is never in what Folio
/// writes back — `folio render`'s and `folio batch`'s standard output and error, the batch's
/// failures and manifest, the service's answers and its log.
final class SecretIntegrationTests: XCTestCase {
    static let secret = "Zq7-PlantedSecret-9xK"

    /// Documents with the secret in them, each failing somewhere: syntax, types, unknown keys,
    /// values out of range, validation of the protection itself.
    static let failingDocuments: [(name: String, text: String)] = {
        let s = secret
        return [
            ("unclosed-flow.yaml", "title: T\nprotection: {userPassword: \(s)\nelements: []\n"),
            ("unclosed-quote.yaml", "title: T\nprotection:\n  userPassword: \"\(s)\nelements: []\n"),
            ("bad-indent.yaml", "title: T\nprotection:\n  userPassword: \(s)\n - elements\n"),
            ("tab.yaml", "title: T\n\tprotection: {userPassword: \(s)}\n"),
            ("duplicate-key.yaml", "protection: {userPassword: \(s), userPassword: \(s)}\nelements: []\n"),
            ("alias.yaml", "protection: {userPassword: &p \(s)}\nx: *q\n"),
            ("number-password.yaml", "protection: {userPassword: 12345}\ntitle: \(s)\nelements: [{type: nope}]\n"),
            ("unknown-key.yaml", "protection: {userPasword: \(s)}\nelements: []\n"),
            ("too-long.yaml", "protection: {userPassword: \"\(String(repeating: s, count: 10))\"}\nelements: []\n"),
            ("bad-allow.yaml", "protection: {userPassword: \(s), allow: [\(s)]}\nelements: []\n"),
            ("bad-block.yaml", "protection: {userPassword: \(s)}\nelements: [{type: table, rows: 7}]\n"),
            ("html.yaml", "protection: {userPassword: \(s)}\nelements: [{type: paragraph, text: x}]\n"),
            ("unclosed.json", #"{"title": "T", "protection": {"userPassword": "\#(s)"#),
            ("bad-escape.json", #"{"protection": {"userPassword": "\#(s)\q"}, "elements": []}"#),
            ("duplicate.json", #"{"protection": {"userPassword": "\#(s)", "userPassword": "\#(s)"}}"#),
            ("trailing.json", #"{"protection": {"userPassword": "\#(s)"}} \#(s)"#),
        ]
    }()

    private func assertNoSecret(_ text: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(text.contains(Self.secret), "\(what) shows the password: \(text.prefix(400))", file: file, line: line)
    }

    func testFolioRenderNeverShowsThePassword() throws {
        let folder = try TestSupport.temporaryDirectory()
        for (name, text) in Self.failingDocuments {
            let input = folder.appendingPathComponent(name)
            try Data(text.utf8).write(to: input)
            for output in ["out.pdf", "out.html"] {
                let result = try TestSupport.run(
                    TestSupport.folioBinary.path, ["render", input.path, "-o", folder.appendingPathComponent(output).path])
                if name != "html.yaml" || output == "out.html" { XCTAssertEqual(result.status, 1, "\(name) → \(output): \(result.stderr)") }
                assertNoSecret(result.stderr + result.text, "folio render \(name) → \(output)")
            }
            // The same as a theme: a theme file is read as YAML or JSON too.
            let themed = try TestSupport.run(
                TestSupport.folioBinary.path,
                [
                    "render", TestSupport.samples.appendingPathComponent("weekly-summary.yaml").path, "--theme", input.path, "-o",
                    folder.appendingPathComponent("t.pdf").path,
                ])
            XCTAssertEqual(themed.status, 1, name)
            assertNoSecret(themed.stderr, "folio render --theme \(name)")
        }
        // A password file whose first line is the secret, with a document that then fails.
        let passwordFile = folder.appendingPathComponent("pw.txt")
        try Data("\u{FEFF}\(Self.secret)\r\nsecond line\r\n".utf8).write(to: passwordFile)
        let bad = folder.appendingPathComponent("bad.yaml")
        try Data("title: T\nelements: [{type: table, rows: 7}]\n".utf8).write(to: bad)
        let withFile = try TestSupport.run(
            TestSupport.folioBinary.path,
            ["render", bad.path, "--password-file", passwordFile.path, "-o", folder.appendingPathComponent("p.pdf").path])
        XCTAssertEqual(withFile.status, 1)
        assertNoSecret(withFile.stderr, "folio render --password-file")
        // The password file read as people write it: the PDF opens with the first line, nothing else.
        let good = folder.appendingPathComponent("good.yaml")
        try Data("title: T\nelements: [{type: paragraph, text: Private}]\n".utf8).write(to: good)
        let protected = folder.appendingPathComponent("protected.pdf")
        let written = try TestSupport.run(
            TestSupport.folioBinary.path, ["render", good.path, "--password-file", passwordFile.path, "-o", protected.path])
        XCTAssertEqual(written.status, 0, written.stderr)
        XCTAssertEqual(try TestSupport.run("qpdf", ["--password=\(Self.secret)", "--check", protected.path]).status, 0)
        XCTAssertNotEqual(try TestSupport.run("qpdf", ["--password=\(Self.secret)\r", "--check", protected.path]).status, 0)
    }

    func testFolioBatchNeverShowsThePassword() throws {
        let folder = try TestSupport.temporaryDirectory()
        // Templates that fail, each holding the secret.
        for (name, text) in Self.failingDocuments where name.hasSuffix(".yaml") {
            let template = folder.appendingPathComponent("t-" + name)
            try Data(text.utf8).write(to: template)
            let data = folder.appendingPathComponent("d.jsonl")
            try Data("{\"id\": \"a\"}\n".utf8).write(to: data)
            let out = folder.appendingPathComponent("out-" + name)
            let result = try TestSupport.run(
                TestSupport.folioBinary.path, ["batch", template.path, "--data", data.path, "--out", out.path, "--format", "pdf,html"])
            XCTAssertEqual(result.status, 1, name)
            assertNoSecret(result.stderr + result.text, "folio batch template \(name)")
            for log in ["failures.jsonl", "manifest.jsonl"] {
                if let text = try? String(contentsOf: out.appendingPathComponent(log), encoding: .utf8) {
                    assertNoSecret(text, "\(name) \(log)")
                }
            }
        }
        // Records that fail, holding the secret: bound into the protection, and beside it.
        let template = folder.appendingPathComponent("record-template.yaml")
        try Data("title: \"{{name}}\"\nprotection: {userPassword: \"{{pw}}\"}\nelements: [{type: paragraph, text: \"{{note}}\"}]\n".utf8)
            .write(to: template)
        let s = Self.secret
        let records = [
            #"{"id": "1", "name": "A", "pw": "\#(s)", "note": 7}"#,
            #"{"id": "2", "pw": "\#(String(repeating: s, count: 9))", "name": "B", "note": "n"}"#,
            #"{"id": "3", "pw": "\#(s)", "name": "C", "note": "n", "bad": "\#(s)\q"}"#,
            #"{"id": "4", "pw": ["\#(s)"], "name": "D", "note": "n"}"#,
            #"{"id": "5", "pw": "\#(s)", "pw": "\#(s)"}"#, "\(s)",
        ]
        let data = folder.appendingPathComponent("records.jsonl")
        try Data(records.joined(separator: "\n").utf8).write(to: data)
        let out = folder.appendingPathComponent("out-records")
        let result = try TestSupport.run(
            TestSupport.folioBinary.path, ["batch", template.path, "--data", data.path, "--out", out.path, "--format", "pdf,html"])
        XCTAssertEqual(result.status, 1)
        assertNoSecret(result.stderr + result.text, "folio batch records")
        let failures = try String(contentsOf: out.appendingPathComponent("failures.jsonl"), encoding: .utf8)
        XCTAssertEqual(failures.split(separator: "\n").count, records.count, failures)
        assertNoSecret(failures, "failures.jsonl")
    }

    func testTheServiceNeverShowsThePassword() throws {
        let server = try RunningServer([])
        defer { server.stop() }
        for (name, text) in Self.failingDocuments {
            let type = name.hasSuffix(".json") ? "application/json" : "application/yaml"
            for query in ["", "?format=html"] {
                let answer = try HTTPExchange.send(
                    "POST", server.url("/v1/render\(query)"), headers: ["Content-Type: \(type)"], body: Data(text.utf8))
                if name != "html.yaml" || !query.isEmpty { XCTAssertEqual(answer.status, 400, "\(name)\(query): \(answer.status)") }
                assertNoSecret(answer.text, "the service's answer to \(name)\(query)")
            }
        }
        server.stop()
        assertNoSecret(server.log, "the service's log")
    }
}
