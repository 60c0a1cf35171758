import Foundation
import XCTest

/// `folio serve`'s durable jobs, run as a portal would: records posted, the server killed with
/// SIGKILL mid-job and started again, documents listed and downloaded, webhooks received by a
/// receiver that fails first and verified with the Standard Webhooks reference library.
final class JobsIntegrationTests: XCTestCase {
    private static let fixtures = TestSupport.root.appendingPathComponent("Tests/FolioTests/Fixtures/jobs")
    private static let templates = TestSupport.root.appendingPathComponent("Templates")
    private static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

    /// `count` weekly-summary records with ids P1…Pcount and names "Patient NumberN", made from the sample's first patient.
    private func records(_ count: Int) throws -> Data {
        let lines = try String(contentsOf: TestSupport.samples.appendingPathComponent("patients.jsonl"), encoding: .utf8)
        let first = try XCTUnwrap(lines.split(separator: "\n").first.map(String.init))
        var out = ""
        for number in 1...count {
            out +=
                first.replacingOccurrences(of: "\"P00001\"", with: "\"P\(number)\"")
                .replacingOccurrences(of: "Émile Okafor", with: "Patient Number\(number)") + "\n"
        }
        return Data(out.utf8)
    }

    private func startServer(jobDir: URL, extra: [String] = []) throws -> RunningServer {
        try RunningServer(
            ["--templates", JobsIntegrationTests.templates.path, "--assets", JobsIntegrationTests.templates.path, "--job-dir", jobDir.path]
                + extra)
    }

    private func submit(
        _ server: RunningServer, query: String = "template=weekly-summary", body: Data, contentType: String = "application/x-ndjson",
        headers: [String] = []
    ) throws -> HTTPExchange {
        try HTTPExchange.send("POST", server.url("/v1/jobs?\(query)"), headers: ["Content-Type: \(contentType)"] + headers, body: body)
    }

    /// Polls the job until it has finished; its last status.
    private func waitUntilFinished(_ server: RunningServer, _ id: String, headers: [String] = [], seconds: Double = 300) throws
        -> [String: Any]
    {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let status = try HTTPExchange.send("GET", server.url("/v1/jobs/\(id)"), headers: headers).json
            if let state = status["state"] as? String, ["done", "failed", "cancelled"].contains(state) { return status }
            usleep(200_000)
        }
        XCTFail("job \(id) did not finish within \(seconds) s")
        return [:]
    }

    private func manifestNumbers(_ folder: URL) -> [Int] {
        let text = (try? String(contentsOf: folder.appendingPathComponent("manifest.jsonl"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            ((try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any])?["number"] as? Int
        }
    }

    func testAJobKilledThreeTimesFinishesWithEveryRecordsDocumentExactlyOnce() throws {
        let jobDir = try TestSupport.temporaryDirectory().appendingPathComponent("jobs")
        // No grace period: a SIGTERM cancels the records being rendered at once.
        var server = try startServer(jobDir: jobDir, extra: ["--grace-period", "0"])
        let count = 150
        let accepted = try submit(server, body: try records(count))
        XCTAssertEqual(accepted.status, 202, accepted.text)
        let id = try XCTUnwrap(accepted.json["id"] as? String)
        XCTAssertEqual(accepted.headers["location"], "/v1/jobs/\(id)")
        XCTAssertEqual(id.count, 32)
        let folder = jobDir.appendingPathComponent(id)
        for kill in 1...4 {
            // Killed once some of the records are written, more each time; the last time stopped by
            // SIGTERM, whose cancelled records are neither written nor failed but rendered after the restart.
            let deadline = Date().addingTimeInterval(120)
            while manifestNumbers(folder).count < kill * 10 && Date() < deadline { usleep(50_000) }
            XCTAssertLessThan(manifestNumbers(folder).count, count, "the job finished before kill \(kill)")
            server.stop(signal: kill == 4 ? SIGTERM : SIGKILL)
            server = try startServer(jobDir: jobDir, extra: ["--grace-period", "0"])
        }
        let status = try waitUntilFinished(server, id)
        XCTAssertEqual(status["state"] as? String, "done")
        XCTAssertEqual(status["written"] as? Int, count)
        XCTAssertEqual(status["failed"] as? Int, 0, "\(status["failures"] ?? "")")
        let numbers = manifestNumbers(folder)
        XCTAssertEqual(numbers.count, count, "a record was listed twice or not at all")
        XCTAssertEqual(Set(numbers), Set(1...count))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("documents").path).sorted()
        XCTAssertEqual(files, (1...count).map { "record-\($0).pdf" }.sorted(), "a record's document twice, a leftover or a missing one")
        // Each document whole and the right patient's.
        for number in [1, count / 2, count] {
            let pdf = try HTTPExchange.send("GET", server.url("/v1/jobs/\(id)/documents/record-\(number).pdf"))
            XCTAssertEqual(pdf.status, 200)
            XCTAssertEqual(pdf.headers["content-type"], "application/pdf")
            XCTAssertTrue(
                try TestSupport.pdfText(pdf.body).contains("Patient Number\(number)\n"), "record \(number)'s PDF is another patient's")
        }
        let listed = try HTTPExchange.send("GET", server.url("/v1/jobs/\(id)/documents")).json["documents"] as? [[String: Any]]
        XCTAssertEqual(listed?.count, count)
        // The archive holds every document once (read back by Python's tarfile).
        let archive = try HTTPExchange.send("GET", server.url("/v1/jobs/\(id)/archive"))
        XCTAssertEqual(archive.status, 200)
        let tar = try TestSupport.temporaryFile(archive.body, name: "job.tar")
        let names = try TestSupport.run(
            "python3",
            ["-c", "import sys, tarfile; print('\\n'.join(m.name for m in tarfile.open(sys.argv[1]) if m.size > 1000))", tar.path])
        XCTAssertEqual(names.text.split(separator: "\n").map(String.init).sorted(), files)
        // The gauges follow the store within a couple of seconds.
        let gaugeDeadline = Date().addingTimeInterval(10)
        while try server.metric("folio_jobs", labels: "state=\"done\"") != 1 && Date() < gaugeDeadline { usleep(200_000) }
        XCTAssertEqual(try server.metric("folio_jobs", labels: "state=\"done\""), 1)
        XCTAssertEqual(try server.metric("folio_job_records_total", labels: "outcome=\"written\"").map { $0 > 0 }, true)
        server.stop()
    }

    func testTheSameIdempotencyKeyReturnsTheSameJobAndAnotherClientSeesNone() throws {
        let folder = try TestSupport.temporaryDirectory()
        let tokens = folder.appendingPathComponent("tokens.json")
        try Data(
            """
            {"clients": [
              {"name": "portal", "token": "portal-token-0123456789", "templates": ["weekly-summary"], "webhookSecret": "\(JobsIntegrationTests.secret)"},
              {"name": "other", "token": "other-token-0123456789", "templates": ["medication-log"]}
            ]}
            """.utf8
        ).write(to: tokens)
        chmod(tokens.path, 0o600)
        let server = try startServer(jobDir: folder.appendingPathComponent("jobs"), extra: ["--tokens-file", tokens.path])
        let portal = ["Authorization: Bearer portal-token-0123456789"]
        let other = ["Authorization: Bearer other-token-0123456789"]
        let first = try submit(server, body: try records(2), headers: portal + ["Idempotency-Key: discharge-2026-12-02-P1"])
        XCTAssertEqual(first.status, 202, first.text)
        let again = try submit(server, body: try records(3), headers: portal + ["Idempotency-Key: discharge-2026-12-02-P1"])
        XCTAssertEqual(again.status, 202)
        XCTAssertEqual(again.json["id"] as? String, first.json["id"] as? String)
        XCTAssertEqual(again.headers["idempotent-replayed"], "true")
        let id = try XCTUnwrap(first.json["id"] as? String)
        // Another client: as if the job never was, for every route.
        for (method, path) in [("GET", ""), ("GET", "/documents"), ("GET", "/archive"), ("GET", "/documents/record-1.pdf"), ("DELETE", "")]
        {
            XCTAssertEqual(
                try HTTPExchange.send(method, server.url("/v1/jobs/\(id)\(path)"), headers: other).status, 404, "\(method) \(path)")
        }
        // The same key from another client is another client's job.
        let theirs = try submit(
            server, query: "template=medication-log", body: Data("{\"rows\": []}\n".utf8),
            headers: other + ["Idempotency-Key: discharge-2026-12-02-P1"])
        XCTAssertEqual(theirs.status, 202, theirs.text)
        XCTAssertNotEqual(theirs.json["id"] as? String, id)
        // A template the client may not render is not there for it.
        XCTAssertEqual(try submit(server, body: try records(1), headers: other).status, 404)
        XCTAssertEqual(try HTTPExchange.send("POST", server.url("/v1/jobs"), body: try records(1)).status, 401)
        let status = try waitUntilFinished(server, id, headers: portal)
        XCTAssertEqual(status["written"] as? Int, 2, "the replayed request's body was rendered")
        // A finished job deleted goes with its documents.
        XCTAssertEqual(try HTTPExchange.send("DELETE", server.url("/v1/jobs/\(id)"), headers: portal).status, 204)
        XCTAssertEqual(try HTTPExchange.send("GET", server.url("/v1/jobs/\(id)"), headers: portal).status, 404)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("jobs/\(id)").path))
        server.stop()
    }

    func testAWebhookThatFailsThreeTimesIsDeliveredSignedAsStandardWebhooksVerifies() throws {
        let folder = try TestSupport.temporaryDirectory()
        let secretFile = folder.appendingPathComponent("webhook-secret")
        try Data((JobsIntegrationTests.secret + "\n").utf8).write(to: secretFile)
        let log = folder.appendingPathComponent("received.jsonl")
        let receiver = Process()
        receiver.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        receiver.arguments = [JobsIntegrationTests.fixtures.appendingPathComponent("webhook_receiver.py").path, "3", log.path]
        let output = Pipe()
        receiver.standardOutput = output
        try receiver.run()
        defer { receiver.terminate() }
        let portLine = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        let port = try XCTUnwrap(Int(portLine.trimmingCharacters(in: .whitespacesAndNewlines)))
        let server = try startServer(jobDir: folder.appendingPathComponent("jobs"), extra: ["--webhook-secret-file", secretFile.path])
        let trace = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        let accepted = try submit(
            server, query: "template=weekly-summary&webhook=http://127.0.0.1:\(port)/folio-events", body: try records(3),
            headers: ["traceparent: \(trace)"])
        XCTAssertEqual(accepted.status, 202, accepted.text)
        let id = try XCTUnwrap(accepted.json["id"] as? String)
        _ = try waitUntilFinished(server, id)
        // 1 + 2 + 4 s of back-off (±25 %), then the fourth attempt is answered 204.
        let deadline = Date().addingTimeInterval(60)
        var received: [String] = []
        while Date() < deadline {
            received = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            if received.count >= 4 { break }
            usleep(200_000)
        }
        sleep(3)
        received = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        XCTAssertEqual(received.count, 4, "three failures and one delivery, nothing after the 204")
        let verified = try TestSupport.run(
            try TestSupport.python(),
            [JobsIntegrationTests.fixtures.appendingPathComponent("verify_webhook.py").path, JobsIntegrationTests.secret, log.path])
        XCTAssertEqual(verified.status, 0, verified.stderr)
        let results = verified.text.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        XCTAssertEqual(results.count, 4)
        for result in results {
            XCTAssertNil(result["error"], "the reference library refused a signature: \(result)")
            let payload = try XCTUnwrap(result["verified"] as? [String: Any])
            XCTAssertEqual(payload["type"] as? String, "job.done")
            let data = try XCTUnwrap(payload["data"] as? [String: Any])
            XCTAssertEqual(data["id"] as? String, id)
            XCTAssertEqual(data["written"] as? Int, 3)
            XCTAssertEqual(result["traceparent"] as? String, trace)
        }
        XCTAssertEqual(Set(results.compactMap { $0["id"] as? String }).count, 1, "every attempt carries the same webhook-id")
        // Ids and counts only: no patient's name or id.
        XCTAssertFalse(received.joined().contains("Patient Number"))
        XCTAssertFalse(received.joined().contains("\"P1\""))
        server.stop()
    }

    func testWebhookTargetsInPrivateNetworksAreRefused() throws {
        let folder = try TestSupport.temporaryDirectory()
        let secretFile = folder.appendingPathComponent("webhook-secret")
        try Data(JobsIntegrationTests.secret.utf8).write(to: secretFile)
        let server = try startServer(
            jobDir: folder.appendingPathComponent("jobs"),
            extra: ["--webhook-secret-file", secretFile.path, "--webhook-allow", "10.9.0.0/16"])
        for target in [
            "https://10.0.0.7/hook", "https://169.254.169.254/latest/meta-data", "https://[::ffff:10.0.0.1]/hook",
            "https://[::ffff:a9fe:a9fe]/hook", "https://[fd00:ec2::254]/hook", "https://192.168.1.1/hook", "https://[64:ff9b::a00:1]/hook",
            "https://[fe80::1]/hook", "http://example.org/hook", "https://user:pass@example.org/hook",
        ] {
            let answer = try submit(
                server,
                query: "template=weekly-summary&webhook=\(target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")",
                body: try records(1))
            XCTAssertEqual(answer.status, 400, "\(target): \(answer.text)")
            XCTAssertTrue(answer.text.contains("webhook"), answer.text)
        }
        // An allowed network is allowed.
        let allowed = try submit(server, query: "template=weekly-summary&webhook=https%3A%2F%2F10.9.1.2%2Fhook", body: try records(1))
        XCTAssertEqual(allowed.status, 202, allowed.text)
        server.stop()
    }

    func testCancelledAndDocumentJobs() throws {
        let folder = try TestSupport.temporaryDirectory()
        let server = try startServer(jobDir: folder.appendingPathComponent("jobs"), extra: ["--workers", "1"])
        let big = try submit(server, body: try records(400))
        let id = try XCTUnwrap(big.json["id"] as? String)
        let document = try submit(
            server, query: "format=pdf,html", body: try Data(contentsOf: TestSupport.samples.appendingPathComponent("charts.yaml")),
            contentType: "application/yaml")
        XCTAssertEqual(document.status, 202, document.text)
        let documentID = try XCTUnwrap(document.json["id"] as? String)
        usleep(1_500_000)
        let cancelled = try HTTPExchange.send("DELETE", server.url("/v1/jobs/\(id)"))
        XCTAssertEqual(cancelled.status, 202, cancelled.text)
        XCTAssertEqual(cancelled.json["state"] as? String, "cancelled")
        XCTAssertEqual(try HTTPExchange.send("GET", server.url("/v1/jobs/\(id)")).status, 404, "a cancelled job is gone at once")
        // Its server stops it at the next record and removes its folder.
        let jobFolder = folder.appendingPathComponent("jobs/\(id)")
        let deadline = Date().addingTimeInterval(60)
        while FileManager.default.fileExists(atPath: jobFolder.path) && Date() < deadline { usleep(100_000) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: jobFolder.path), "the cancelled job's documents stayed")
        let done = try waitUntilFinished(server, documentID)
        XCTAssertEqual(done["state"] as? String, "done", "\(done)")
        let names = (try HTTPExchange.send("GET", server.url("/v1/jobs/\(documentID)/documents")).json["documents"] as? [[String: Any]])?
            .compactMap { $0["name"] as? String }
        XCTAssertEqual(names, ["document.html", "document.pdf"])
        let html = try HTTPExchange.send("GET", server.url("/v1/jobs/\(documentID)/documents/document.html"))
        XCTAssertTrue(html.text.hasPrefix("<!DOCTYPE html>"), String(html.text.prefix(80)))
        XCTAssertEqual(try HTTPExchange.send("GET", server.url("/v1/jobs/\(documentID)/documents/..%2Fjobs.sqlite")).status, 404)
        XCTAssertEqual(try HTTPExchange.send("GET", server.url("/v1/jobs/../jobs.sqlite")).status, 404)
        server.stop()
    }

    func testJobRecordsRenderInWorkersOfTheirOwnAtALowerPriorityThanRequests() throws {
        let folder = try TestSupport.temporaryDirectory()
        let server = try startServer(jobDir: folder.appendingPathComponent("jobs"), extra: ["--workers", "2"])
        let serverPID = server.process.processIdentifier
        let before = TestSupport.renderWorkers(of: serverPID)
        XCTAssertEqual(before.count, 4, "two request workers and two job workers: \(before)")
        // Relative to the thread that started them (Dispatch gives its threads nice values of their own).
        let requestNice = before.map(\.nice).min() ?? 0
        let forRequests = before.filter { $0.nice == requestNice }
        let forJobs = before.filter { $0.nice == min(19, requestNice + 10) }
        XCTAssertEqual(forRequests.count, 2, "\(before)")
        XCTAssertEqual(forJobs.count, 2, "\(before)")
        let job = try submit(server, body: try records(60))
        let id = try XCTUnwrap(job.json["id"] as? String)
        // A request is answered while the job drains.
        let record = try records(1)
        let rendered = try HTTPExchange.send(
            "POST", server.url("/v1/templates/weekly-summary/render"), headers: ["Content-Type: application/json"], body: record)
        XCTAssertEqual(rendered.status, 200, rendered.text)
        let done = try waitUntilFinished(server, id)
        XCTAssertEqual(done["written"] as? Int, 60, "\(done)")
        let after = Dictionary(uniqueKeysWithValues: TestSupport.renderWorkers(of: serverPID).map { ($0.pid, $0.cpuTicks) })
        let jobTicks = forJobs.map { (after[$0.pid] ?? 0) - $0.cpuTicks }.reduce(0, +)
        let requestTicks = forRequests.map { (after[$0.pid] ?? 0) - $0.cpuTicks }.reduce(0, +)
        // Sixty documents take about sixty ticks (10 ms each); the one request one or two.
        XCTAssertGreaterThan(
            jobTicks, 5 * max(1, requestTicks),
            "the job's records were drawn by the job workers (\(jobTicks) ticks against \(requestTicks))")
        server.stop()
    }

    func testFHIRDataGivesOneSummaryPerPatient() throws {
        let folder = try TestSupport.temporaryDirectory()
        let server = try startServer(jobDir: folder.appendingPathComponent("jobs"))
        // The sample export's NDJSON files as one body: four patients.
        var ndjson = Data()
        for name in ["Patient.ndjson", "Observation.ndjson", "MedicationAdministration.ndjson"] {
            ndjson += try Data(contentsOf: TestSupport.samples.appendingPathComponent("fhir-export/\(name)"))
            if ndjson.last != 0x0A { ndjson.append(0x0A) }
        }
        let accepted = try submit(
            server, query: "template=fhir-weekly-summary&period=2026-11-09/2026-11-15&zone=America/New_York", body: ndjson,
            contentType: "application/fhir+ndjson")
        XCTAssertEqual(accepted.status, 202, accepted.text)
        let status = try waitUntilFinished(server, try XCTUnwrap(accepted.json["id"] as? String))
        XCTAssertEqual(status["state"] as? String, "done", "\(status)")
        XCTAssertEqual(status["written"] as? Int, 4, "\(status)")
        // One IPS Bundle, one patient's summary.
        let bundle = try submit(
            server, query: "template=patient-summary",
            body: try Data(contentsOf: TestSupport.samples.appendingPathComponent("ips-summary.json")),
            contentType: "application/fhir+json")
        XCTAssertEqual(bundle.status, 202, bundle.text)
        let ips = try waitUntilFinished(server, try XCTUnwrap(bundle.json["id"] as? String))
        XCTAssertEqual(ips["written"] as? Int, 1, "\(ips)")
        // A period on records that are not FHIR, a bad zone, an unknown parameter: one line each, before anything is stored.
        XCTAssertEqual(try submit(server, query: "template=weekly-summary&period=2026-11-09/P7D", body: try records(1)).status, 400)
        let zone = try submit(
            server, query: "template=fhir-weekly-summary&zone=Nowhere", body: ndjson, contentType: "application/fhir+ndjson")
        XCTAssertEqual(zone.status, 400)
        XCTAssertTrue(zone.text.contains("zone"), zone.text)
        XCTAssertEqual(try submit(server, query: "template=weekly-summary&colour=red", body: try records(1)).status, 400)
        XCTAssertEqual(try submit(server, body: try records(1), contentType: "text/plain").status, 415)
        let jobs = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("jobs").path).filter { $0.count == 32 }
        XCTAssertEqual(jobs.count, 2, "a refused job left a folder")
        server.stop()
    }
}
