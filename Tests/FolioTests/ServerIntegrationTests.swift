import Foundation
import XCTest

@testable import Folio
@testable import FolioServer

/// `folio serve` started as a real process on a loopback port and called with curl.
final class ServerIntegrationTests: XCTestCase {
    private var folio: String { TestSupport.folioBinary.path }

    /// The output `folio render` writes for `input` with `arguments`.
    private func commandLineOutput(_ input: URL, _ arguments: [String]) throws -> Data {
        let output = try TestSupport.temporaryDirectory().appendingPathComponent("out")
        let result = try TestSupport.run(
            folio, ["render", input.path, "-o", output.path] + arguments,
            environment: ["SOURCE_DATE_EPOCH": "1763280000"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return try Data(contentsOf: output)
    }

    func testRendersTheSameBytesAsTheCommandLine() throws {
        let server = try RunningServer(["--assets", TestSupport.samples.path])
        defer { server.stop() }
        for sample in ["weekly-summary", "charts", "packet"] {
            let input = TestSupport.samples.appendingPathComponent("\(sample).yaml")
            let body = try Data(contentsOf: input)
            let cases: [(query: String, arguments: [String], type: String)] = [
                ("format=pdf", ["--format", "pdf"], "application/pdf"),
                ("format=html", ["--format", "html"], "text/html; charset=utf-8"),
                ("format=html&html=fragment", ["--format", "html", "--html", "fragment"], "text/html; charset=utf-8"),
                ("format=html&html=shadow", ["--format", "html", "--html", "shadow"], "text/html; charset=utf-8"),
            ]
            // The tables as a workbook: the same bytes (the document's date, not the clock's, inside).
            let spreadsheets: [(query: String, arguments: [String], type: String)] =
                sample == "charts"
                ? [("format=xlsx", ["--format", "xlsx"], "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")] : []
            for (query, arguments, type) in cases + spreadsheets {
                let response = try HTTPExchange.send(
                    "POST", server.url("/v1/render?\(query)"),
                    headers: ["Content-Type: application/yaml"], body: body)
                XCTAssertEqual(response.status, 200, "\(sample) \(query): \(response.text.prefix(300))")
                XCTAssertEqual(response.headers["content-type"], type)
                let expected = try commandLineOutput(input, arguments)
                XCTAssertEqual(response.body, expected, "\(sample) \(query) differs from folio render")
                XCTAssertEqual(response.headers["etag"], "\"\(SHA256Digest.hex(expected))\"")
                XCTAssertEqual(response.headers["content-length"], String(expected.count))
                XCTAssertEqual(response.headers["cache-control"], "no-store")
            }
        }
        // The page's CSP header is the policy `--csp` prints; JSON bodies render the same as YAML.
        let input = TestSupport.samples.appendingPathComponent("charts.yaml")
        let csp = try TestSupport.run(folio, ["render", input.path, "--format", "html", "--csp", "-o", "-"]).stderr
        let page = try HTTPExchange.send(
            "POST", server.url("/v1/render?format=html"),
            headers: ["Content-Type: application/yaml"], body: try Data(contentsOf: input))
        XCTAssertEqual(
            "Content-Security-Policy: \(page.headers["content-security-policy"] ?? "")",
            csp.trimmingCharacters(in: .whitespacesAndNewlines))
        let fragment = try HTTPExchange.send(
            "POST", server.url("/v1/render?format=html&html=fragment"),
            headers: ["Content-Type: application/yaml"], body: try Data(contentsOf: input))
        XCTAssertNil(fragment.headers["content-security-policy"])
        XCTAssertTrue(fragment.headers["folio-content-security-policy"]?.contains("style-src 'sha256-") == true)

        let json =
            #"{"title":"Vitals","metadata":{"creationDate":"2026-11-16T08:00:00Z"},"elements":[{"type":"paragraph","text":"Résumé **bold**"}]}"#
        let jsonFile = try TestSupport.temporaryFile(Data(json.utf8), name: "vitals.json")
        let fromJSON = try HTTPExchange.send(
            "POST", server.url("/v1/render"), headers: ["Content-Type: application/json"],
            body: Data(json.utf8))
        XCTAssertEqual(fromJSON.status, 200)
        XCTAssertEqual(fromJSON.body, try commandLineOutput(jsonFile, []))
        XCTAssertEqual(fromJSON.headers["folio-pages"], "1")
        XCTAssertTrue(try TestSupport.pdfText(fromJSON.body).contains("Résumé bold"))
    }

    func testLayoutReportIsTheCommandLinesReport() throws {
        let server = try RunningServer(["--assets", TestSupport.samples.path])
        defer { server.stop() }
        let input = TestSupport.samples.appendingPathComponent("packet.yaml")
        let response = try HTTPExchange.send(
            "POST", server.url("/v1/render?report=true"), headers: ["Content-Type: application/yaml"],
            body: try Data(contentsOf: input))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.headers["content-type"], "application/json")
        let reportFile = try TestSupport.temporaryDirectory().appendingPathComponent("report.json")
        _ = try commandLineOutput(input, ["--layout-report", reportFile.path])
        XCTAssertEqual(response.body, try Data(contentsOf: reportFile))
        XCTAssertGreaterThan(response.json["pages"] as? Int ?? 0, 1)
    }

    func testTemplatesRenderRecordsAsBatchDoes() throws {
        let root = TestSupport.root
        let server = try RunningServer([
            "--templates", root.appendingPathComponent("Templates").path,
            "--assets", root.appendingPathComponent("Templates").path,
        ])
        defer { server.stop() }
        let list = try HTTPExchange.send("GET", server.url("/v1/templates"))
        XCTAssertEqual(list.status, 200)
        XCTAssertTrue((list.json["templates"] as? [String])?.contains("weekly-summary") == true, list.text)

        let record = try XCTUnwrap(
            try String(contentsOf: TestSupport.samples.appendingPathComponent("patients.jsonl"), encoding: .utf8)
                .split(separator: "\n").first.map { Data($0.utf8) })
        let response = try HTTPExchange.send(
            "POST", server.url("/v1/templates/weekly-summary/render"),
            headers: ["Content-Type: application/json"], body: record)
        XCTAssertEqual(response.status, 200, response.text.prefix(300).description)
        XCTAssertTrue(try TestSupport.pdfText(response.body).contains("Émile Okafor"))

        // The same record through `folio batch` gives the same bytes.
        let folder = try TestSupport.temporaryDirectory()
        let data = try TestSupport.temporaryFile(record + Data("\n".utf8), name: "one.jsonl")
        let batch = try TestSupport.run(
            folio,
            [
                "batch", root.appendingPathComponent("Templates/weekly-summary.yaml").path,
                "--data", data.path, "--out", folder.path, "--name", "one", "--quiet",
            ],
            environment: ["SOURCE_DATE_EPOCH": "1763280000"])
        XCTAssertEqual(batch.status, 0, batch.stderr)
        XCTAssertEqual(response.body, try Data(contentsOf: folder.appendingPathComponent("one.pdf")))

        let html = try HTTPExchange.send(
            "POST", server.url("/v1/templates/weekly-summary/render?format=html&html=shadow"),
            headers: ["Content-Type: application/json"], body: record)
        XCTAssertEqual(html.status, 200)
        XCTAssertTrue(html.text.contains("shadowrootmode=\"open\""))

        let missing = try HTTPExchange.send(
            "POST", server.url("/v1/templates/no-such/render"),
            headers: ["Content-Type: application/json"], body: record)
        XCTAssertEqual(missing.status, 404)
        XCTAssertEqual(missing.json["detail"] as? String, "no template \"no-such\"")
        let traversal = try HTTPExchange.send(
            "POST", server.url("/v1/templates/..%2F..%2Fetc%2Fpasswd/render"),
            headers: ["Content-Type: application/json"], body: record)
        XCTAssertEqual(traversal.status, 404)
        let notObject = try HTTPExchange.send(
            "POST", server.url("/v1/templates/weekly-summary/render"),
            headers: ["Content-Type: application/json"], body: Data("[1,2]".utf8))
        XCTAssertEqual(notObject.status, 400)
        XCTAssertEqual(notObject.json["detail"] as? String, "the record must be a JSON object")
        let yaml = try HTTPExchange.send(
            "POST", server.url("/v1/templates/weekly-summary/render"),
            headers: ["Content-Type: application/yaml"], body: record)
        XCTAssertEqual(yaml.status, 415)
    }

    func testErrorsAreProblemDocumentsNamingTheField() throws {
        let server = try RunningServer(["--max-body-bytes", "4096", "--max-header-bytes", "2048"])
        defer { server.stop() }
        func post(_ query: String, _ body: String, type: String = "application/json", headers: [String] = []) throws -> HTTPExchange {
            try HTTPExchange.send(
                "POST", server.url("/v1/render\(query)"), headers: ["Content-Type: \(type)"] + headers,
                body: Data(body.utf8))
        }
        let expectations: [(HTTPExchange, Int, String, String)] = [
            (
                try post("", #"{"title":"T","elements":[{"type":"table","rows":[["a"],"b"]}]}"#), 400, "invalid-document",
                "elements[0].rows[1]: expected an array of strings"
            ),
            (try post("", "title: [unclosed", type: "application/yaml"), 400, "invalid-document", ""),
            (
                try post("?fromat=pdf", #"{"title":"T"}"#), 400, "invalid-request",
                "unknown query parameter \"fromat\"; expected format, html or report (and period, zone with a FHIR Bundle)"
            ),
            (
                try post("?format=docx", #"{"title":"T"}"#), 400, "invalid-request",
                "format: expected pdf, html, xlsx or csv, found \"docx\""
            ),
            (try post("?format=pdf&html=page", #"{"title":"T"}"#), 400, "invalid-request", "html: needs format=html"),
            (
                try post("?format=pdf&format=html", #"{"title":"T"}"#), 400, "invalid-request",
                "query parameter \"format\" is given twice"
            ),
            (
                try post("", "<doc/>", type: "application/xml"), 415, "unsupported-media-type",
                "the body must be a document as application/json or application/yaml"
            ),
            (
                try post("", #"{"title":"T"}"#, headers: ["Content-Encoding: gzip"]), 415, "unsupported-media-type",
                "Content-Encoding \"gzip\" is not supported; send the body uncompressed"
            ),
            (
                try post("", #"{"title":"\#(String(repeating: "x", count: 5000))"}"#), 413, "body-too-large",
                "the request body has more than 4096 bytes (--max-body-bytes)"
            ),
            (
                try post("", #"{"title":"T"}"#, headers: ["X-Padding: \(String(repeating: "p", count: 3000))"]), 431,
                "headers-too-large", "the request's target and header fields have more than 2048 bytes (--max-header-bytes)"
            ),
            (
                try post("?format=pdf&\(String(repeating: "x", count: 3000))=1", #"{"title":"T"}"#), 431,
                "headers-too-large", "the request's target and header fields have more than 2048 bytes (--max-header-bytes)"
            ),
            (try HTTPExchange.send("GET", server.url("/v1/nothing")), 404, "not-found", "no route GET /v1/nothing"),
            (try HTTPExchange.send("GET", server.url("/v1/render")), 405, "method-not-allowed", "GET is not allowed on /v1/render"),
            (try HTTPExchange.send("DELETE", server.url("/healthz")), 405, "method-not-allowed", "DELETE is not allowed on /healthz"),
        ]
        for (response, status, kind, detail) in expectations {
            XCTAssertEqual(response.status, status, response.text)
            XCTAssertEqual(response.headers["content-type"], "application/problem+json")
            XCTAssertEqual(response.json["type"] as? String, "urn:folio:problem:\(kind)")
            XCTAssertEqual(response.json["status"] as? Int, status)
            XCTAssertNotNil(response.json["title"] as? String)
            if !detail.isEmpty { XCTAssertEqual(response.json["detail"] as? String, detail) }
            XCTAssertNotNil(response.headers["x-request-id"])
        }
        XCTAssertEqual(expectations[12].0.headers["allow"], "POST")
        // A YAML syntax error still says where.
        XCTAssertTrue((expectations[1].0.json["detail"] as? String ?? "").contains("line"), expectations[1].0.text)
        // An invalid document names the field, and the line and column of the body that hold it.
        XCTAssertEqual(expectations[0].0.json["field"] as? String, "elements[0].rows[1]")
        XCTAssertEqual(expectations[0].0.json["line"] as? Int, 1)
        XCTAssertEqual(expectations[0].0.json["column"] as? Int, 56)
        let yaml = try post(
            "", "title: T\nelements:\n  - type: chart\n    kind: pie\n    segments: [{title: A, value: -1}]\n", type: "application/yaml")
        XCTAssertEqual(yaml.status, 400, yaml.text)
        XCTAssertEqual(yaml.json["line"] as? Int, 5, yaml.text)
        XCTAssertNotNil(yaml.json["column"] as? Int, yaml.text)
    }

    func testBearerTokenAndLoopbackRule() throws {
        let token = "s3cret-token-0123456789"
        let tokenFile = try TestSupport.temporaryFile(Data("\(token)\n".utf8), name: "token")
        let server = try RunningServer(["--token-file", tokenFile.path])
        defer { server.stop() }
        let body = Data(#"{"title":"T"}"#.utf8)
        let none = try HTTPExchange.send("POST", server.url("/v1/render"), headers: ["Content-Type: application/json"], body: body)
        XCTAssertEqual(none.status, 401)
        XCTAssertEqual(none.headers["www-authenticate"], "Bearer realm=\"folio\"")
        XCTAssertEqual(none.json["type"] as? String, "urn:folio:problem:unauthorized")
        for wrong in ["Bearer \(token)x", "Bearer s3cret", "Basic \(token)", token] {
            let response = try HTTPExchange.send(
                "POST", server.url("/v1/render"),
                headers: ["Content-Type: application/json", "Authorization: \(wrong)"], body: body)
            XCTAssertEqual(response.status, 401, wrong)
        }
        let right = try HTTPExchange.send(
            "POST", server.url("/v1/render"),
            headers: ["Content-Type: application/json", "Authorization: Bearer \(token)"], body: body)
        XCTAssertEqual(right.status, 200)
        XCTAssertEqual(try HTTPExchange.send("GET", server.url("/metrics")).status, 401)
        XCTAssertEqual(try HTTPExchange.send("GET", server.url("/metrics"), headers: ["Authorization: Bearer \(token)"]).status, 200)
        for open in ["/healthz", "/readyz", "/v1/openapi.yaml"] {
            XCTAssertEqual(try HTTPExchange.send("GET", server.url(open)).status, 200, open)
        }

        // Beyond loopback without a token: refused, unless explicitly insecure.
        let refused = try TestSupport.run(folio, ["serve", "--host", "0.0.0.0", "--port", "0"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("--host: listening on 0.0.0.0, beyond this machine, needs --token-file"), refused.stderr)
        let insecure = try RunningServer(["--host", "0.0.0.0", "--insecure-no-auth"])
        XCTAssertEqual(try HTTPExchange.send("GET", insecure.url("/readyz")).status, 200)
        XCTAssertEqual(insecure.stop(), 0)
        let short = try TestSupport.temporaryFile(Data("short".utf8), name: "short-token")
        let weak = try TestSupport.run(folio, ["serve", "--port", "0", "--token-file", short.path])
        XCTAssertEqual(weak.status, 1)
        XCTAssertTrue(weak.stderr.contains("--token-file: the token must have at least 16 characters"), weak.stderr)
    }

    func testImagesComeOnlyFromTheAssetsFolder() throws {
        let assets = try TestSupport.temporaryDirectory()
        let outside = try TestSupport.temporaryDirectory()
        let logo = try Data(contentsOf: TestSupport.samples.appendingPathComponent("logo.png"))
        try logo.write(to: assets.appendingPathComponent("logo.png"))
        try FileManager.default.createDirectory(at: assets.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try logo.write(to: assets.appendingPathComponent("sub/inner.png"))
        try logo.write(to: outside.appendingPathComponent("secret.png"))
        try FileManager.default.createSymbolicLink(
            at: assets.appendingPathComponent("escape.png"),
            withDestinationURL: outside.appendingPathComponent("secret.png"))
        try FileManager.default.createSymbolicLink(
            at: assets.appendingPathComponent("inside.png"),
            withDestinationURL: assets.appendingPathComponent("sub/inner.png"))
        func document(_ path: String, logo: Bool = false) -> Data {
            let image = #"{"type":"image","path":"\#(path)","alt":"Logo"}"#
            return Data((logo ? #"{"title":"T","theme":{"logo":"\#(path)"}}"# : #"{"title":"T","elements":[\#(image)]}"#).utf8)
        }
        let server = try RunningServer(["--assets", assets.path])
        defer { server.stop() }
        func render(_ body: Data) throws -> HTTPExchange {
            try HTTPExchange.send("POST", server.url("/v1/render"), headers: ["Content-Type: application/json"], body: body)
        }
        for allowed in ["logo.png", "sub/inner.png", "./logo.png", "inside.png"] {
            XCTAssertEqual(try render(document(allowed)).status, 200, allowed)
        }
        XCTAssertEqual(try render(document("logo.png", logo: true)).status, 200)
        let refused: [(String, String)] = [
            ("../\(outside.lastPathComponent)/secret.png", "is not a path inside the assets folder"),
            ("sub/../../\(outside.lastPathComponent)/secret.png", "is not a path inside the assets folder"),
            (outside.appendingPathComponent("secret.png").path, "is not a path inside the assets folder"),
            ("/etc/passwd", "is not a path inside the assets folder"),
            ("escape.png", "leaves the assets folder through a symbolic link"),
            ("missing.png", "no image \\\"missing.png\\\" in the assets folder"),
            ("http://169.254.169.254/latest/meta-data.png", "images are never fetched from URLs"),
            ("file:///etc/passwd", "images are never fetched from URLs"),
            ("sub", "it is a folder"),
        ]
        for (path, message) in refused {
            for asLogo in [false, true] {
                let response = try render(document(path, logo: asLogo))
                XCTAssertEqual(response.status, 400, path)
                let detail = response.json["detail"] as? String ?? ""
                XCTAssertTrue(detail.hasPrefix(asLogo ? "theme.logo: " : "elements[0].path: "), detail)
                XCTAssertTrue(detail.contains(message.replacingOccurrences(of: "\\\"", with: "\"")), "\(path): \(detail)")
            }
        }
        // Without --assets only embedded images render.
        let bare = try RunningServer([])
        defer { bare.stop() }
        let noFiles = try HTTPExchange.send(
            "POST", bare.url("/v1/render"), headers: ["Content-Type: application/json"],
            body: document("logo.png"))
        XCTAssertEqual(noFiles.status, 400)
        XCTAssertEqual(
            noFiles.json["detail"] as? String,
            "elements[0].path: image files cannot be read here; embed the image as base64 \"data\"")
        let embedded = #"{"title":"T","elements":[{"type":"image","data":"\#(logo.base64EncodedString())","alt":"Logo"}]}"#
        XCTAssertEqual(
            try HTTPExchange.send(
                "POST", bare.url("/v1/render"), headers: ["Content-Type: application/json"],
                body: Data(embedded.utf8)
            ).status, 200)
    }

    /// A document whose PDF takes seconds: one table of many rows.
    private func slowDocument(rows: Int) -> Data {
        let row = #"["2026-11-16 08:00","Blood pressure","128/82 mmHg","Taken at home, seated, after five minutes' rest"]"#
        let rowsText = Array(repeating: row, count: rows).joined(separator: ",")
        return Data(#"{"title":"Long","elements":[{"type":"table","header":["When","What","Value","Note"],"rows":[\#(rowsText)]}]}"#.utf8)
    }

    func testSlowRendersAreStoppedAtTheTimeout() throws {
        let server = try RunningServer(["--timeout", "0.5", "--max-body-bytes", String(32 << 20)])
        defer { server.stop() }
        let started = Date()
        let response = try HTTPExchange.send(
            "POST", server.url("/v1/render"), headers: ["Content-Type: application/json"],
            body: slowDocument(rows: 100_000))
        XCTAssertEqual(response.status, 504, response.text)
        XCTAssertEqual(response.json["type"] as? String, "urn:folio:problem:render-timeout")
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
        // The render was stopped, not left running: no render in flight a moment later.
        var inFlight: Double?
        for _ in 0..<50 {
            inFlight = try server.metric("folio_renders_in_flight")
            if inFlight == 0 { break }
            usleep(100_000)
        }
        XCTAssertEqual(inFlight, 0)
        XCTAssertEqual(
            try HTTPExchange.send(
                "POST", server.url("/v1/render"), headers: ["Content-Type: application/json"],
                body: Data(#"{"title":"Quick"}"#.utf8)
            ).status, 200)
        let metrics = try HTTPExchange.send("GET", server.url("/metrics")).text
        XCTAssertTrue(metrics.contains(#"folio_http_rejected_total{reason="render_timeout"} 1"#), metrics)
    }

    func testAFullQueueAnswers503WithRetryAfter() throws {
        let server = try RunningServer(["--workers", "1", "--queue", "0"])
        defer { server.stop() }
        let slow = slowDocument(rows: 6_500)
        let first = Locked<HTTPExchange?>(nil)
        let thread = Thread {
            first.set(try? HTTPExchange.send("POST", server.url("/v1/render"), headers: ["Content-Type: application/json"], body: slow))
        }
        thread.start()
        // Wait until the first render runs, then ask for another.
        var running = false
        for _ in 0..<200 where !running {
            running = try server.metric("folio_renders_in_flight") == 1
            if !running { usleep(20_000) }
        }
        XCTAssertTrue(running)
        let second = try HTTPExchange.send(
            "POST", server.url("/v1/render"), headers: ["Content-Type: application/json"],
            body: Data(#"{"title":"Second"}"#.utf8))
        XCTAssertEqual(second.status, 503, second.text)
        XCTAssertEqual(second.headers["retry-after"], "1")
        XCTAssertEqual(second.json["type"] as? String, "urn:folio:problem:unavailable")
        while !thread.isFinished { usleep(20_000) }
        XCTAssertEqual(first.value?.status, 200)
    }

    func testSlowClientsAreCutOff() throws {
        let server = try RunningServer(["--idle-timeout", "1", "--read-timeout", "1"])
        let patient = try RunningServer(["--idle-timeout", "5", "--read-timeout", "1"])
        defer { patient.stop() }
        defer { server.stop() }
        // A head that never ends (slowloris): the connection is closed after the idle timeout.
        let slowHead = try RawConnection(port: server.port)
        slowHead.send("POST /v1/render HTTP/1.1\r\nHost: x\r\n")
        let started = Date()
        _ = slowHead.readToEnd()
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
        // A body that stops arriving: 408 after the read timeout.
        let slowBody = try RawConnection(port: patient.port)
        slowBody.send("POST /v1/render HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"title\"")
        let answer = slowBody.readToEnd()
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 408"), answer)
        XCTAssertTrue(answer.contains("urn:folio:problem:request-timeout"), answer)
        // A body that stops for longer than the idle timeout: the connection is closed.
        let stalled = try RawConnection(port: server.port)
        stalled.send("POST /v1/render HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
        _ = stalled.readToEnd()
        XCTAssertEqual(try server.metric("folio_http_requests_total", labels: #"route="/v1/render",status="500""#), nil)
    }

    func testClientsThatDoNotReadTheirResponseAreDisconnected() throws {
        let server = try RunningServer(["--write-timeout", "1"])
        defer { server.stop() }
        // Rows enough for a PDF larger than the socket's buffers (structure elements are compressed).
        let body = String(decoding: slowDocument(rows: 26_000), as: UTF8.self)
        let connection = try RawConnection(port: server.port, receiveBuffer: 4096)
        connection.send(
            "POST /v1/render HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
        // Wait for the render, then more than the write timeout, without reading.
        var waited = 0
        while try server.metric("folio_http_requests_total", labels: #"route="/v1/render",status="200""#) == nil, waited < 600 {
            usleep(50_000)
            waited += 1
        }
        sleep(3)
        let started = Date()
        let received = connection.readToEnd()
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "the connection was not closed")
        XCTAssertTrue(received.hasPrefix("HTTP/1.1 200 OK"), String(received.prefix(200)))
        let length =
            received.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
        XCTAssertGreaterThan(length, 4 << 20)
        XCTAssertLessThan(received.utf8.count, length, "the whole response arrived; the client was meant to be too slow")
        // Only the connection asking for the metrics is open.
        XCTAssertEqual(try server.metric("folio_http_connections_open"), 1)
    }

    func testExpectContinueIsAnsweredUnlessTheBodyIsTooLarge() throws {
        let server = try RunningServer(["--max-body-bytes", String(2 << 20)])
        defer { server.stop() }
        func send(_ bytes: Int) throws -> TestSupport.Output {
            let subject = String(repeating: "s", count: bytes)
            let file = try TestSupport.temporaryFile(Data(#"{"title":"T","metadata":{"subject":"\#(subject)"}}"#.utf8), name: "big.json")
            return try TestSupport.run(
                "curl",
                [
                    "-v", "-s", "-o", "/dev/null", "-H", "Content-Type: application/json",
                    "-H", "Expect: 100-continue", "--data-binary", "@\(file.path)", server.url("/v1/render"),
                ])
        }
        let accepted = try send(1_200_000)
        XCTAssertTrue(accepted.stderr.contains("< HTTP/1.1 100 Continue"), accepted.stderr)
        XCTAssertTrue(accepted.stderr.contains("< HTTP/1.1 200 OK"), accepted.stderr)
        let refused = try send(3_000_000)
        XCTAssertFalse(refused.stderr.contains("100 Continue"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("< HTTP/1.1 413"), refused.stderr)
    }

    func testRequestIDsAreEchoedAndEveryRequestIsLoggedAsOneJSONLine() throws {
        let server = try RunningServer([])
        let given = try HTTPExchange.send("GET", server.url("/healthz"), headers: ["X-Request-Id: portal-42.a:b"])
        XCTAssertEqual(given.headers["x-request-id"], "portal-42.a:b")
        let unsafe = try HTTPExchange.send("GET", server.url("/healthz"), headers: ["X-Request-Id: <script>"])
        let generated = try XCTUnwrap(unsafe.headers["x-request-id"])
        XCTAssertNotEqual(generated, "<script>")
        XCTAssertFalse(generated.isEmpty)
        _ = try HTTPExchange.send(
            "POST", server.url("/v1/render"), headers: ["Content-Type: application/json", "X-Request-Id: r1"],
            body: Data(#"{"title":"T"}"#.utf8))
        XCTAssertEqual(server.stop(), 0)
        let requests = server.logEntries().filter { $0["message"] as? String == "request" }
        let render = try XCTUnwrap(requests.first { $0["id"] as? String == "r1" })
        XCTAssertEqual(render["route"] as? String, "/v1/render")
        XCTAssertEqual(render["status"] as? Int, 200)
        XCTAssertGreaterThan(render["bytes"] as? Int ?? 0, 500)
        XCTAssertNotNil(render["ms"] as? Double)
        XCTAssertTrue(requests.contains { $0["id"] as? String == "portal-42.a:b" && $0["route"] as? String == "/healthz" })
        for line in server.log.split(separator: "\n") {
            XCTAssertNotNil(try? JSONSerialization.jsonObject(with: Data(line.utf8)), "not a JSON line: \(line)")
        }
    }

    func testSIGTERMLetsInFlightRendersFinishAndExitsZero() throws {
        let server = try RunningServer(["--workers", "1"])
        // Rows enough for a PDF larger than the socket's buffer (structure elements are compressed).
        let slow = slowDocument(rows: 26_000)
        let first = Locked<HTTPExchange?>(nil)
        let thread = Thread {
            first.set(try? HTTPExchange.send("POST", server.url("/v1/render"), headers: ["Content-Type: application/json"], body: slow))
        }
        thread.start()
        var running = false
        for _ in 0..<200 where !running {
            running = try server.metric("folio_renders_in_flight") == 1
            if !running { usleep(20_000) }
        }
        XCTAssertTrue(running)
        kill(server.process.processIdentifier, SIGTERM)
        usleep(200_000)
        // No new connections are accepted while the render finishes.
        let refused = try TestSupport.run(
            "curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "5", server.url("/healthz")])
        XCTAssertEqual(refused.text, "000")
        XCTAssertEqual(server.stop(signal: 0), 0)
        while !thread.isFinished { usleep(20_000) }
        XCTAssertEqual(first.value?.status, 200)
        // The whole PDF arrives, though it is larger than the socket's buffer and the server is stopping
        // (Hummingbird's shutdown used to close the connection with most of it still queued).
        let input = try TestSupport.temporaryFile(slow, name: "slow.json")
        let expected = try commandLineOutput(input, [])
        XCTAssertGreaterThan(expected.count, 4 << 20)
        XCTAssertEqual(first.value?.body.count, expected.count)
        XCTAssertTrue(first.value?.body == expected)
        XCTAssertTrue(server.logEntries().contains { $0["message"] as? String == "shutting down" })
    }

    func testHealthReadinessMetricsAndTheOpenAPIDocument() throws {
        let server = try RunningServer([])
        defer { server.stop() }
        let health = try HTTPExchange.send("GET", server.url("/healthz"))
        XCTAssertEqual(health.status, 200)
        XCTAssertEqual(health.json["status"] as? String, "ok")
        XCTAssertEqual(try HTTPExchange.send("GET", server.url("/readyz")).json["status"] as? String, "ready")
        let openAPI = try HTTPExchange.send("GET", server.url("/v1/openapi.yaml"))
        XCTAssertEqual(openAPI.headers["content-type"], "application/yaml")
        let source = try String(contentsOf: TestSupport.root.appendingPathComponent("Sources/FolioServer/openapi.yaml"), encoding: .utf8)
        XCTAssertTrue(source.contains(OpenAPIDocument.blockTypesMarker))
        XCTAssertEqual(
            openAPI.text,
            source.replacingOccurrences(
                of: OpenAPIDocument.blockTypesMarker, with: "          enum: [" + Block.typeNames.joined(separator: ", ") + "]"),
            "the served document is the file with the block types of the model")
        _ = try HTTPExchange.send(
            "POST", server.url("/v1/render?format=html"), headers: ["Content-Type: application/json"],
            body: Data(#"{"title":"T"}"#.utf8))
        let metrics = try HTTPExchange.send("GET", server.url("/metrics"))
        XCTAssertEqual(metrics.headers["content-type"], "text/plain; version=0.0.4; charset=utf-8")
        for expected in [
            #"folio_http_requests_total{route="/v1/render",status="200"} 1"#,
            #"folio_http_requests_total{route="/healthz",status="200"} 1"#,
            #"folio_render_duration_seconds_count{format="html"} 1"#,
            #"folio_http_response_bytes_total{route="/v1/render"}"#,
        ] {
            XCTAssertTrue(metrics.text.contains(expected), "\(expected) missing in\n\(metrics.text)")
        }
        XCTAssertEqual(try server.metric("folio_renders_in_flight"), 0)
        XCTAssertEqual(try server.metric("folio_render_queue_depth"), 0)
    }
}
