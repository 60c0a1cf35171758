import Foundation

/// Durable jobs in `folio serve --job-dir` (with its SQLite store, or a PostgreSQL one) beside `folio batch --jobs 2` in the same
/// run: one job of the 1,000 W3 records and 1,000 one-record jobs (documents/s), the small jobs'
/// queue wait (p50, p95), and synchronous renders' median latency while the big job drains against
/// an idle server's (bench/jobs_bench.py drives the server).
enum JobsBenchmark {
    /// Runs it and prints its lines; returns the figures for the targets (nil where a part failed).
    /// `postgres`: a PostgreSQL store (bench/postgres.sh starts one, fsync on), else SQLite.
    static func run(folio: URL, data: URL, repository: URL, postgres: Bool = false) -> [String: Double]? {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("folio-bench-jobs")
        try? FileManager.default.removeItem(at: scratch)
        try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let batchRate = BatchBenchmark.pdfRateWithTwoWorkers(folio: folio, data: data)
        var store: [String] = []
        let database = scratch.appendingPathComponent("postgres").path
        let script = repository.appendingPathComponent("bench/postgres.sh").path
        if postgres {
            let url = scratch.appendingPathComponent("postgres.url")
            guard let pid = ChildProcess.spawn(["/bin/sh", script, "start", database], output: url.path), ChildProcess.wait(pid) == 0,
                let text = FileManager.default.contents(atPath: url.path).map({ String(decoding: $0, as: UTF8.self) })
            else {
                print("jobs: bench/postgres.sh could not start PostgreSQL")
                return nil
            }
            store = ["--job-store", text.trimmingCharacters(in: .whitespacesAndNewlines)]
        }
        defer {
            if postgres, let pid = ChildProcess.spawn(["/bin/sh", script, "stop", database], output: "/dev/null") {
                _ = ChildProcess.wait(pid)
            }
        }
        let server = Process()
        server.executableURL = folio
        server.arguments =
            [
                "serve", "--port", "0", "--workers", "2", "--templates", "Templates", "--assets", "Templates", "--job-dir",
                scratch.appendingPathComponent("jobs").path,
            ] + store
        let errors = Pipe()
        server.standardError = errors
        server.standardOutput = FileHandle.nullDevice
        guard (try? server.run()) != nil else { return nil }
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        var port: Int?
        var buffered = ""
        let deadline = Date().addingTimeInterval(60)
        while port == nil, Date() < deadline {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            buffered += String(decoding: chunk, as: UTF8.self)
            for line in buffered.split(separator: "\n") {
                guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                    object["message"] as? String == "listening"
                else { continue }
                port = object["port"] as? Int
            }
        }
        guard let port else {
            print("jobs: folio serve did not start")
            return nil
        }
        // The server's log is drained so it never blocks on a full pipe.
        Thread.detachNewThread {
            while !errors.fileHandleForReading.availableData.isEmpty {}
        }
        let output = scratch.appendingPathComponent("jobs.json")
        let driver = repository.appendingPathComponent("bench/jobs_bench.py").path
        guard
            let pid = ChildProcess.spawn(
                ["/usr/bin/python3", driver, "http://127.0.0.1:\(port)", data.path, "weekly-summary"], output: output.path),
            ChildProcess.wait(pid) == 0,
            let figures = FileManager.default.contents(atPath: output.path).flatMap({
                try? JSONSerialization.jsonObject(with: $0) as? [String: Double]
            })
        else {
            print("jobs: bench/jobs_bench.py failed")
            return nil
        }
        let storeName = postgres ? "PostgreSQL" : "SQLite"
        var result = figures
        if let batchRate { result["batchDocumentsPerSecond"] = batchRate }
        print(
            String(
                format:
                    "Jobs (\(storeName) store, 2 workers): one job of %d records %.1f documents/s, %d one-record jobs %.1f documents/s; folio batch --jobs 2 %.1f documents/s in the same run",
                data.lastPathComponent == "patients-1000.jsonl" ? 1000 : 0,
                figures["oneJobDocumentsPerSecond"] ?? 0,
                Int(figures["smallJobs"] ?? 0), figures["smallJobsDocumentsPerSecond"] ?? 0, batchRate ?? 0))
        print(
            String(
                format:
                    "Jobs (\(storeName)): queue wait of the one-record jobs p50 %.2f s, p95 %.2f s; synchronous render median %.1f ms idle, %.1f ms while a job drains (%d renders)",
                figures["queueWaitP50"] ?? 0, figures["queueWaitP95"] ?? 0, (figures["syncIdleMedian"] ?? 0) * 1000,
                (figures["syncDrainingMedian"] ?? 0) * 1000, Int(figures["syncDrainingCount"] ?? 0)))
        return result
    }
}
