import Foundation
import XCTest

@testable import Folio

/// `folio preview` (#43): the pages and HTML of a document on 127.0.0.1, rendered again when a
/// file changes and announced on an event stream, errors at their line, a record picker with data.
final class PreviewIntegrationTests: XCTestCase {
    /// A running `folio preview` and the port it bound.
    private final class Preview {
        let process = Process()
        let port: Int
        private let output = Locked("")

        init(_ arguments: [String]) throws {
            process.executableURL = TestSupport.folioBinary
            process.arguments = ["preview", "--port", "0"] + arguments
            try RunningServer.start(process, readingErrorsInto: output)
            var found: Int?
            let deadline = Date().addingTimeInterval(60)
            while found == nil, Date() < deadline, process.isRunning {
                if let range = output.value.range(of: "preview at http://127.0.0.1:") {
                    found = Int(output.value[range.upperBound...].prefix { $0.isNumber })
                } else {
                    usleep(20_000)
                }
            }
            guard let found else { throw FolioError(path: "", "the preview did not start: \(output.value)") }
            port = found
        }

        func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

        /// Chooses record `number` as the preview's own page does (its fetch sends the page's Origin).
        func choose(record number: Int) throws -> Int {
            try HTTPExchange.send("POST", url("/record/\(number)"), headers: ["Origin: http://127.0.0.1:\(port)"]).status
        }

        func state() throws -> [String: Any] { try HTTPExchange.send("GET", url("/state.json")).json }

        /// Waits until the state's version passes `version`; the new state.
        func state(after version: Int) throws -> [String: Any] {
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline {
                let state = try state()
                if (state["version"] as? Int ?? 0) > version { return state }
                usleep(100_000)
            }
            XCTFail("no new render after version \(version)")
            return try state()
        }

        deinit {
            if process.isRunning { kill(process.processIdentifier, SIGTERM) }
            process.waitUntilExit()
        }
    }

    func testAChangeIsRenderedAgainAndAnErrorIsShownAtItsLine() throws {
        try TestSupport.integrationOnly()
        let folder = try TestSupport.temporaryDirectory()
        let document = folder.appendingPathComponent("notes.yaml")
        try Data("title: Notes\nelements:\n  - {type: paragraph, text: First}\n".utf8).write(to: document)
        let preview = try Preview([document.path])
        let first = try preview.state()
        XCTAssertEqual(first["pages"] as? Int, 1)
        let version = first["version"] as? Int ?? 0
        // The page: its own script and style under a policy that allows nothing else, the report in a sandboxed frame.
        let page = try HTTPExchange.send("GET", preview.url("/"))
        XCTAssertTrue(page.headers["content-security-policy"]?.contains("script-src 'self'") == true, "\(page.headers)")
        XCTAssertTrue(page.text.contains("<iframe id=\"report\" title=\"The report as HTML\" sandbox"))
        let picture = try HTTPExchange.send("GET", preview.url("/pages/1.png"))
        XCTAssertEqual(picture.headers["content-type"], "image/png")
        XCTAssertEqual(Array(picture.body.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        XCTAssertTrue(try HTTPExchange.send("GET", preview.url("/report.html")).text.contains("First"))
        // Saved with an error: the error at its line, the last good render still shown.
        try Data("title: Notes\nelements:\n  - {type: table, rows: [[a], 7]}\n".utf8).write(to: document)
        let broken = try preview.state(after: version)
        let failure = broken["failure"] as? [String: Any]
        XCTAssertEqual(failure?["line"] as? Int, 3, "\(broken)")
        XCTAssertTrue((failure?["message"] as? String ?? "").hasPrefix("\(document.path):3:"), "\(broken)")
        XCTAssertEqual(broken["pages"] as? Int, 1, "the last good render stays")
        // Fixed: shown again, and the event stream announces the render.
        try Data("title: Notes\nelements:\n  - {type: paragraph, text: Second}\n".utf8).write(to: document)
        let fixed = try preview.state(after: broken["version"] as? Int ?? 0)
        XCTAssertNil(fixed["failure"])
        XCTAssertTrue(try HTTPExchange.send("GET", preview.url("/report.html")).text.contains("Second"))
        let events = try TestSupport.run("curl", ["-s", "-N", "--max-time", "1", preview.url("/events")])
        XCTAssertTrue(events.text.hasPrefix("event: render\ndata: \(fixed["version"] as? Int ?? 0)\n"), events.text)
        // Another host's name (a web page rebinding its name to 127.0.0.1) is refused.
        XCTAssertEqual(try HTTPExchange.send("GET", preview.url("/state.json"), headers: ["Host: evil.example"]).status, 403)
    }

    func testARecordIsChosenFromTheData() throws {
        try TestSupport.integrationOnly()
        let folder = try TestSupport.temporaryDirectory()
        let template = folder.appendingPathComponent("card.yaml")
        try Data("title: \"Card for {{name}}\"\nelements:\n  - {type: paragraph, text: \"Hello {{name}}\"}\n".utf8).write(to: template)
        let data = folder.appendingPathComponent("people.jsonl")
        try Data("{\"name\": \"Ana\"}\n{\"name\": \"Ben\"}\n".utf8).write(to: data)
        let preview = try Preview([template.path, "--data", data.path])
        let first = try preview.state()
        XCTAssertEqual(first["records"] as? Int, 2)
        XCTAssertTrue(try HTTPExchange.send("GET", preview.url("/report.html")).text.contains("Hello Ana"))
        XCTAssertEqual(try preview.choose(record: 2), 204)
        let second = try preview.state(after: first["version"] as? Int ?? 0)
        XCTAssertEqual(second["record"] as? Int, 2)
        XCTAssertTrue(try HTTPExchange.send("GET", preview.url("/report.html")).text.contains("Hello Ben"))
    }

    /// FHIR data: a record per patient, picked by its place; a file the template includes is
    /// watched, and an error about a patient's bound field is shown at the template's line.
    func testFHIRPatientsIncludedFilesAndBoundErrors() throws {
        try TestSupport.integrationOnly()
        let export = TestSupport.samples.appendingPathComponent("fhir-export").path
        let summary = TestSupport.root.appendingPathComponent("Templates/fhir-weekly-summary.yaml").path
        let preview = try Preview([
            summary, "--data", export, "--data-format", "fhir", "--period", "2026-11-09/2026-11-15", "--zone", "America/New_York",
        ])
        let first = try preview.state()
        XCTAssertEqual(first["records"] as? Int, 4, "\(first)")
        XCTAssertGreaterThan(first["pages"] as? Int ?? 0, 0)
        XCTAssertNil(first["failure"])
        XCTAssertEqual(try preview.choose(record: 3), 204)
        let third = try preview.state(after: first["version"] as? Int ?? 0)
        XCTAssertEqual(third["record"] as? Int, 3)
        XCTAssertNil(third["failure"], "\(third)")

        let folder = try TestSupport.temporaryDirectory()
        let parts = folder.appendingPathComponent("parts")
        try FileManager.default.createDirectory(at: parts, withIntermediateDirectories: true)
        let template = folder.appendingPathComponent("card.yaml")
        try Data("title: Card\nelements:\n  - $include: parts/items.yaml\n".utf8).write(to: template)
        let items = parts.appendingPathComponent("items.yaml")
        try Data("- {$each: people, $as: p, $item: {type: paragraph, text: \"Hello {{p.name}}\"}}\n".utf8).write(to: items)
        let data = folder.appendingPathComponent("people.jsonl")
        try Data("{\"people\": [{\"name\": \"Ana\"}, {\"name\": \"Ben\"}]}\n".utf8).write(to: data)
        let cards = try Preview([template.path, "--data", data.path])
        let shown = try cards.state()
        XCTAssertTrue(try HTTPExchange.send("GET", cards.url("/report.html")).text.contains("Hello Ben"))
        // The included file changes: rendered again, and its error placed in it, at the field that made the value.
        try Data("- {$each: people, $as: p, $item: {type: table, rows: \"{{p.name}}\"}}\n".utf8).write(to: items)
        let broken = try cards.state(after: shown["version"] as? Int ?? 0)
        let failure = broken["failure"] as? [String: Any]
        XCTAssertTrue((failure?["message"] as? String ?? "").hasPrefix("\(parts.path)/items.yaml:1:"), "\(broken)")
        XCTAssertEqual(failure?["line"] as? Int, 1)
    }

    /// The preview in Chromium (selenium), as an author uses it: pages and HTML shown, an edit on
    /// screen, a broken edit at its line with the pages kept, another record, nothing fetched from
    /// anywhere but 127.0.0.1, and the page itself clean under axe-core.
    func testInChromiumAnEditIsShownAndNothingLeavesThisMachine() throws {
        try TestSupport.integrationOnly()
        let python = try TestSupport.python()
        guard
            let driver = ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else { throw XCTSkip("no chromedriver: run `make test`") }
        let axe = try TestSupport.run(
            python,
            ["-c", "import axe_playwright_python, os; print(os.path.join(os.path.dirname(axe_playwright_python.__file__), 'axe.min.js'))"]
        ).text.trimmingCharacters(in: .whitespacesAndNewlines)
        let folder = try TestSupport.temporaryDirectory()
        let template = folder.appendingPathComponent("weekly-summary.yaml")
        try FileManager.default.copyItem(at: TestSupport.root.appendingPathComponent("Templates/weekly-summary.yaml"), to: template)
        try FileManager.default.copyItem(
            at: TestSupport.root.appendingPathComponent("Templates/logo.png"), to: folder.appendingPathComponent("logo.png"))
        let preview = try Preview([template.path, "--data", TestSupport.samples.appendingPathComponent("patients.jsonl").path])
        let output = try TestSupport.run(
            python,
            [
                TestSupport.root.appendingPathComponent("Tests/FolioTests/Browser/preview_check.py").path, driver, preview.url("/"),
                template.path, "Gül Tanaka", axe,
            ])
        XCTAssertEqual(output.status, 0, output.stderr)
        let result = try XCTUnwrap(try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any], output.text + output.stderr)
        let first = result["first"] as? [String: Any]
        XCTAssertGreaterThan(first?["loaded"] as? Int ?? 0, 0, "the pages' pictures are shown: \(result)")
        XCTAssertEqual(result["first_html_has_title"] as? Bool, true)
        XCTAssertNotNil(result["edited"] as? [String: Any], "an edit is shown: \(result)")
        XCTAssertEqual(result["edited_html"] as? Bool, true)
        XCTAssertEqual(result["error_located"] as? Bool, true, "\(result["error_message"] ?? "no error shown")")
        XCTAssertGreaterThan(result["pages_kept"] as? Int ?? 0, 0, "the last good pages stay beside the error")
        XCTAssertEqual(result["error_cleared"] as? Bool, true)
        XCTAssertEqual(result["second_record_shown"] as? Bool, true)
        XCTAssertGreaterThan(result["requests"] as? Int ?? 0, 3)
        XCTAssertEqual(result["elsewhere"] as? [String], [], "requests that left 127.0.0.1")
        XCTAssertEqual((result["violations"] as? [Any])?.count, 0, "axe-core on the preview page: \(result["violations"] ?? "")")
    }

    /// r62: the preview is the author's alone. Another site's page cannot choose its record (a browser
    /// lets any page POST anywhere, saying where it comes from), nothing may frame it but its own page,
    /// and the loopback names it is meant to answer to are all accepted.
    func testOnlyThePreviewsOwnPageCanDriveIt() throws {
        try TestSupport.integrationOnly()
        let folder = try TestSupport.temporaryDirectory()
        let template = folder.appendingPathComponent("card.yaml")
        try Data("title: Card\nelements:\n  - {type: paragraph, text: \"Hello {{name}}\"}\n".utf8).write(to: template)
        let data = folder.appendingPathComponent("people.jsonl")
        try Data("{\"name\": \"Ana\"}\n{\"name\": \"Ben\"}\n".utf8).write(to: data)
        let preview = try Preview([template.path, "--data", data.path])
        let record = preview.url("/record/2")
        for headers in [
            ["Origin: https://evil.example"], ["Origin: null"], ["Sec-Fetch-Site: cross-site"], ["Sec-Fetch-Site: same-site"],
            ["Origin: http://127.0.0.1:\(preview.port)", "Sec-Fetch-Site: cross-site"], ["Origin: http://127.0.0.1:1"], [],
        ] {
            XCTAssertEqual(try HTTPExchange.send("POST", record, headers: headers).status, 403, "\(headers)")
        }
        XCTAssertEqual(try preview.state()["record"] as? Int, 1, "no refused request chose a record")
        XCTAssertEqual(try HTTPExchange.send("POST", record, headers: ["Sec-Fetch-Site: same-origin"]).status, 204)
        // Framed by nothing but its own page: every response says so, the report frames only there.
        for path in ["/", "/state.json", "/pages/1.png", "/preview.js", "/nothing-here"] {
            let response = try HTTPExchange.send("GET", preview.url(path))
            XCTAssertTrue(
                response.headers["content-security-policy"]?.contains("frame-ancestors 'none'") == true, "\(path): \(response.headers)")
            XCTAssertEqual(response.headers["x-frame-options"], "DENY", path)
        }
        let report = try HTTPExchange.send("GET", preview.url("/report.html"))
        XCTAssertTrue(report.headers["content-security-policy"]?.hasSuffix("frame-ancestors 'self'") == true, "\(report.headers)")
        XCTAssertEqual(report.headers["x-frame-options"], "SAMEORIGIN")
        // The loopback's names, with or without a port; nothing else.
        for host in ["127.0.0.1", "localhost", "LOCALHOST:8700", "[::1]", "[::1]:\(preview.port)"] {
            XCTAssertEqual(try HTTPExchange.send("GET", preview.url("/state.json"), headers: ["Host: \(host)"]).status, 200, host)
        }
        for host in ["evil.example", "127.0.0.1.evil.example", "[::1].evil.example", "[::2]", "localhost:80x", "[::1]x", "0.0.0.0"] {
            XCTAssertEqual(try HTTPExchange.send("GET", preview.url("/state.json"), headers: ["Host: \(host)"]).status, 403, host)
        }
    }

    /// `folio preview --fhir-server BASE --patient ID`: the patient's record read once from the
    /// server, its summary shown, the copy of the record removed when the preview stops.
    func testAPatientFromTheServerIsPreviewed() throws {
        try TestSupport.integrationOnly()
        var behaviour = FHIRTestServer.Behaviour()
        behaviour.requiresAuthorization = false
        let server = try FHIRTestServer(
            folder: TestSupport.samples.appendingPathComponent("fhir-export"), behaviour: behaviour, clients: [:])
        try server.start()
        defer { server.stop() }
        let before = Set((try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? []).filter {
            $0.hasPrefix("folio-record-")
        }
        var preview: Preview? = try Preview([
            TestSupport.root.appendingPathComponent("Templates/fhir-weekly-summary.yaml").path, "--fhir-server", server.base, "--patient",
            "pat-rivera", "--data-format", "fhir", "--period", "2026-11-09/2026-11-15", "--zone", "America/New_York",
        ])
        let report = try HTTPExchange.send("GET", try XCTUnwrap(preview).url("/report.html")).text
        XCTAssertTrue(report.contains("Ana Rivera"), String(report.prefix(500)))
        preview = nil
        let after = Set((try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? []).filter {
            $0.hasPrefix("folio-record-")
        }
        XCTAssertEqual(after.subtracting(before), [], "the record's copy removed")
    }
}
