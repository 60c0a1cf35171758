import Foundation
import XCTest

@testable import Folio
@testable import FolioWorkers

/// One bad document fails alone: `folio batch` and `folio serve` render in worker processes, so a
/// worker killed by a signal (as a crash in librsvg, FreeType or Cairo kills it), by its time limit
/// or by its memory limit fails the document it was drawing, and the batch or service goes on.
/// The crash is made here as a crash would come: a SIGSEGV to the worker while it draws.
final class IsolationIntegrationTests: XCTestCase {
    private var folio: String { TestSupport.folioBinary.path }

    /// A template of one title and one table whose rows come from the record.
    private func tableTemplate() throws -> URL {
        try TestSupport.temporaryFile(
            Data(
                """
                title: "{{id}}"
                elements:
                  - {type: paragraph, text: "Record {{id}}"}
                  - {type: table, header: [a, b, c], rows: "{{rows}}"}
                """.utf8), name: "table.yaml")
    }

    /// `count` records P1…Pn of one row each, but record `slow` with `slowRows` rows (seconds of drawing).
    private func tableRecords(_ count: Int, slow: Int, slowRows: Int = 30_000) throws -> URL {
        let long = (0..<slowRows).map { "[\"\($0)\", \"reading\", \"ok\"]" }.joined(separator: ",")
        let lines = (1...count).map { index in
            "{\"id\": \"P\(index)\", \"rows\": [\(index == slow ? long : "[\"1\", \"2\", \"3\"]")]}"
        }
        return try TestSupport.temporaryFile(Data((lines.joined(separator: "\n") + "\n").utf8), name: "records.jsonl")
    }

    /// The render workers (`folio __render-worker`) whose parent is `parent`.
    private func workers(of parent: pid_t) -> [(pid: pid_t, cpuTicks: Int)] {
        TestSupport.renderWorkers(of: parent).map { ($0.pid, $0.cpuTicks) }
    }

    /// Waits until `condition` holds (at most `seconds`).
    private func wait(seconds: Double = 60, until condition: () -> Bool) {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !condition() && Date() < deadline { usleep(20_000) }
    }

    private func lines(_ url: URL) -> [[String: Any]] {
        ((try? String(contentsOf: url, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    private func pdfs(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".pdf") }.sorted()
    }

    // MARK: batch

    func testAWorkerKilledWhileDrawingFailsThatRecordAndTheBatchFinishes() throws {
        let template = try tableTemplate()
        let data = try tableRecords(12, slow: 5)
        let out = try TestSupport.temporaryDirectory()
        let batch = try RunningFolio(
            ["batch", template.path, "--data", data.path, "--out", out.path, "--name", "{{id}}", "--jobs", "1", "--quiet"])
        let process = batch.process
        // Records 1–4 are written; record 5 is being drawn by the only worker: crash it.
        wait { pdfs(in: out).count >= 4 }
        usleep(300_000)
        let running = workers(of: process.processIdentifier)
        XCTAssertEqual(running.count, 1, "one worker for --jobs 1")
        for worker in running { kill(worker.pid, SIGSEGV) }
        let stderr = batch.finish()
        XCTAssertEqual(process.terminationStatus, 1, stderr)
        XCTAssertTrue(stderr.contains("11 written, 1 failed"), stderr)
        XCTAssertEqual(pdfs(in: out), (1...12).filter { $0 != 5 }.map { "P\($0).pdf" }.sorted())
        let failures = lines(out.appendingPathComponent("failures.jsonl"))
        XCTAssertEqual(failures.count, 1)
        XCTAssertEqual(failures.first?["record"] as? Int, 5)
        let message = failures.first?["error"] as? String ?? ""
        XCTAssertTrue(message.hasPrefix("the renderer crashed (signal 11, SIGSEGV) while "), message)
        // It says what the worker was doing: binding record 5, or laying out or drawing its table.
        XCTAssertTrue(message.contains("record 5") || message.contains("elements[1]"), message)
        let left = try FileManager.default.contentsOfDirectory(atPath: out.path)
        XCTAssertFalse(left.contains { $0.hasPrefix(".folio-tmp") }, "no half-written file: \(left)")
        XCTAssertTrue(workers(of: process.processIdentifier).isEmpty, "no worker outlives its batch")
        // --resume renders record 5 again (nothing crashes it now) and finishes.
        let resumed = try TestSupport.run(
            folio, ["batch", template.path, "--data", data.path, "--out", out.path, "--name", "{{id}}", "--resume", "--quiet"])
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        XCTAssertEqual(pdfs(in: out).count, 12)
    }

    /// A record that needs more memory than its worker may use fails alone, saying so in words (not a
    /// signal), and nothing of the worker's (GLib's lines, the Swift runtime's stack trace) reaches
    /// the batch's standard error.
    func testARecordPastItsMemoryLimitSaysSoAndTheBatchFinishes() throws {
        var random = SystemRandomNumberGenerator()
        let values = (0..<4_900_000).map { _ in String(60 + Int(random.next() % 40)) }.joined(separator: ",")
        let records = [
            #"{"id": "small", "values": [60, 62, 61]}"#, #"{"id": "huge", "values": [\#(values)]}"#, #"{"id": "after", "values": [70]}"#,
        ]
        let data = try TestSupport.temporaryFile(Data(records.joined(separator: "\n").utf8), name: "values.jsonl")
        let template = try TestSupport.temporaryFile(
            Data(
                "title: \"{{id}}\"\nelements:\n  - {type: chart, kind: line, title: Heart rate, plots: [{title: bpm, values: \"{{values}}\"}]}\n"
                    .utf8),
            name: "chart.yaml")
        let out = try TestSupport.temporaryDirectory()
        let result = try TestSupport.run(
            folio,
            [
                "batch", template.path, "--data", data.path, "--out", out.path, "--name", "{{id}}", "--jobs", "1", "--memory-limit", "512",
                "--quiet",
            ])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(pdfs(in: out), ["after.pdf", "small.pdf"])
        let failure = lines(out.appendingPathComponent("failures.jsonl"))
        XCTAssertEqual(failure.count, 1)
        XCTAssertEqual(failure.first?["id"] as? String, "huge")
        let message = failure.first?["error"] as? String ?? ""
        XCTAssertTrue(message.hasPrefix("the record needs more than 512 MB of memory (--memory-limit)"), message)
        for raw in ["Fatal error", "stack trace", "GLib", "signal"] { XCTAssertFalse(result.stderr.contains(raw), result.stderr) }
        XCTAssertTrue(result.stderr.hasPrefix("folio: 2 written, 1 failed"), result.stderr)
    }

    func testARecordPastItsTimeLimitIsStoppedAlone() throws {
        let out = try TestSupport.temporaryDirectory()
        let result = try TestSupport.run(
            folio,
            [
                "batch", try tableTemplate().path, "--data", try tableRecords(6, slow: 3).path, "--out", out.path, "--name", "{{id}}",
                "--jobs", "2", "--time-limit", "0.5", "--quiet",
            ])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(pdfs(in: out), ["P1.pdf", "P2.pdf", "P4.pdf", "P5.pdf", "P6.pdf"])
        let failure = lines(out.appendingPathComponent("failures.jsonl")).first?["error"] as? String ?? ""
        XCTAssertTrue(failure.hasPrefix("the render took longer than 0.5 s and was stopped"), failure)
    }

    func testTheCrashingPictureFailsItsRecordAloneAndResumeCompletes() throws {
        // The 214-byte picture whose 1e5 font killed the whole batch with SIGSEGV inside FreeType.
        let picture =
            #"<svg xmlns='http://www.w3.org/2000/svg' width='100' height='100'><text x='0' y='50' font-size='1e5'>Hi</text></svg>"#
        let template = try TestSupport.temporaryFile(
            Data(
                """
                title: "{{id}}"
                elements:
                  - {type: svg, alt: "signature", svg: "{{signature}}"}
                """.utf8), name: "svg.yaml")
        let plain =
            #"<svg xmlns='http://www.w3.org/2000/svg' width='100' height='20'><text x='0' y='15' font-size='12'>Signed</text></svg>"#
        let records = (1...40).map { index in
            "{\"id\": \"P\(index)\", \"signature\": \"\(index == 17 ? picture : plain)\"}"
        }
        let data = try TestSupport.temporaryFile(Data(records.joined(separator: "\n").utf8), name: "svg.jsonl")
        let out = try TestSupport.temporaryDirectory()
        for arguments in [["--jobs", "2"], ["--jobs", "2", "--resume"]] {
            let result = try TestSupport.run(
                folio, ["batch", template.path, "--data", data.path, "--out", out.path, "--name", "{{id}}", "--quiet"] + arguments)
            XCTAssertEqual(result.status, 1, result.stderr)
            XCTAssertEqual(pdfs(in: out).count, 39)
            XCTAssertTrue(result.stderr.contains("1 failed"), result.stderr)
        }
        let failures = lines(out.appendingPathComponent("failures.jsonl"))
        XCTAssertEqual(failures.count, 2, "one line per run")
        XCTAssertTrue(failures.allSatisfy { $0["record"] as? Int == 17 })
        XCTAssertTrue((failures.first?["error"] as? String ?? "").hasPrefix("elements[0].svg: the text \"Hi\""), "\(failures)")
    }

    func testASecondBatchIntoTheSameFolderIsRefusedAndTheFirstKeepsItsManifest() throws {
        let template = try tableTemplate()
        let data = try tableRecords(8, slow: 2, slowRows: 15_000)
        let out = try TestSupport.temporaryDirectory()
        let first = Process()
        first.executableURL = TestSupport.folioBinary
        first.arguments = ["batch", template.path, "--data", data.path, "--out", out.path, "--name", "{{id}}", "--jobs", "1", "--quiet"]
        first.standardError = FileHandle.nullDevice
        try first.run()
        wait { pdfs(in: out).count >= 1 }
        let second = try TestSupport.run(
            folio, ["batch", template.path, "--data", data.path, "--out", out.path, "--name", "{{id}}", "--quiet"])
        first.waitUntilExit()
        XCTAssertEqual(second.status, 1)
        XCTAssertTrue(second.stderr.contains("another folio batch is writing"), second.stderr)
        XCTAssertEqual(first.terminationStatus, 0)
        XCTAssertEqual(lines(out.appendingPathComponent("manifest.jsonl")).count, 8, "the first batch's manifest is whole")
    }

    // MARK: serve

    func testAWorkerCrashFailsOneRequestWhileOthersComplete() throws {
        let server = try RunningServer(["--workers", "2", "--assets", TestSupport.samples.path])
        defer { server.stop() }
        let serverPID = server.process.processIdentifier
        XCTAssertEqual(workers(of: serverPID).count, 2)
        let long = (0..<30_000).map { "[\"\($0)\", \"reading\", \"ok\"]" }.joined(separator: ",")
        let slow = Data(#"{"title": "Slow", "elements": [{"type": "table", "header": ["a", "b", "c"], "rows": [\#(long)]}]}"#.utf8)
        let crashed = Locked<HTTPExchange?>(nil)
        let slowRequest = Thread {
            crashed.set(
                try? HTTPExchange.send("POST", server.url("/v1/render"), headers: ["Content-Type: application/json"], body: slow))
        }
        slowRequest.start()
        // The worker drawing the slow document is the one using the CPU.
        var busy: pid_t?
        wait {
            busy = workers(of: serverPID).first { $0.cpuTicks > 50 }?.pid
            return busy != nil
        }
        let w1 = try Data(contentsOf: TestSupport.samples.appendingPathComponent("weekly-summary.yaml"))
        let results = (0..<20).map { _ in Locked<HTTPExchange?>(nil) }
        let clients = results.map { box in
            Thread {
                box.set(
                    try? HTTPExchange.send(
                        "POST", server.url("/v1/render?format=pdf"), headers: ["Content-Type: application/yaml"], body: w1))
            }
        }
        clients.forEach { $0.start() }
        if let busy { kill(busy, SIGSEGV) } else { XCTFail("no worker was drawing the slow document") }
        wait { !slowRequest.isExecuting && clients.allSatisfy { !$0.isExecuting } }
        let answer = try XCTUnwrap(crashed.value)
        XCTAssertEqual(answer.status, 500, answer.text)
        XCTAssertEqual(answer.json["type"] as? String, "urn:folio:problem:render-crashed")
        XCTAssertTrue((answer.json["detail"] as? String ?? "").hasPrefix("the renderer crashed (signal 11, SIGSEGV) while"), answer.text)
        XCTAssertEqual(results.map { $0.value?.status ?? 0 }, Array(repeating: 200, count: 20), "every other render completes")
        XCTAssertTrue(results.allSatisfy { $0.value?.body.starts(with: Data("%PDF".utf8)) == true })
        XCTAssertTrue(server.process.isRunning)
        XCTAssertEqual(server.process.processIdentifier, serverPID)
        XCTAssertEqual(try HTTPExchange.send("GET", server.url("/readyz")).status, 200)
        wait(seconds: 10) { workers(of: serverPID).count == 2 }
        XCTAssertEqual(workers(of: serverPID).count, 2, "the dead worker was replaced")
        XCTAssertEqual(
            try HTTPExchange.send("POST", server.url("/v1/render"), headers: ["Content-Type: application/yaml"], body: w1).status, 200)
    }

    // MARK: render

    func testACrashInFolioRenderIsOneErrorLine() throws {
        let long = (0..<30_000).map { "[\"\($0)\", \"reading\", \"ok\"]" }.joined(separator: ",")
        let input = try TestSupport.temporaryFile(
            Data(#"{"title": "Slow", "elements": [{"type": "table", "header": ["a", "b", "c"], "rows": [\#(long)]}]}"#.utf8),
            name: "slow.json")
        let output = input.deletingLastPathComponent().appendingPathComponent("slow.pdf")
        let render = try RunningFolio(["render", input.path, "-o", output.path])
        let process = render.process
        // Mid-render: once its temporary output exists (a fixed wait could end before a loaded
        // machine had the process reading its input, before the crash handler was in place).
        let folder = output.deletingLastPathComponent().path
        wait(seconds: 30) {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).contains { $0.hasPrefix(".folio-tmp-") }
        }
        XCTAssertTrue(process.isRunning, "the render ended before it could be crashed: make the input longer")
        kill(process.processIdentifier, SIGSEGV)
        let stderr = render.finish()
        XCTAssertEqual(process.terminationReason, .exit, "no death by signal")
        XCTAssertEqual(process.terminationStatus, 1)
        XCTAssertEqual(stderr.split(separator: "\n").count, 1, stderr)
        XCTAssertTrue(stderr.hasPrefix("folio: error: the renderer crashed (signal 11, SIGSEGV) while "), stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path))
    }
}
