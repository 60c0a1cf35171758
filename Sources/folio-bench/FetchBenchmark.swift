import Foundation

/// `folio fetch` of a 50,000-patient Bulk Data export from a server on loopback (bench/bulk_server.py)
/// beside `curl` fetching the same files two at a time, in the same minutes: MB/s and peak memory
/// (flat whatever the export's size: files are streamed to disk). Then the weekly loop for 1,000
/// patients — fetch, batch, post — against the batch alone on the same export.
enum FetchBenchmark {
    /// A running bench server: its process and port.
    private struct Server {
        let process: Process
        let port: Int
        var base: String { "http://127.0.0.1:\(port)/fhir" }
    }

    private static func start(folder: URL, patients: Int, script: URL) -> Server? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script.path, folder.path, String(patients)]
        let output = Pipe()
        process.standardOutput = output
        guard (try? process.run()) != nil else { return nil }
        var line = Data()
        while let byte = try? output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 0x0A { line.append(first) }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            return nil
        }
        return Server(process: process, port: port)
    }

    private static func seconds(_ work: () -> Bool) -> Double? {
        let start = Date()
        guard work() else { return nil }
        return Date().timeIntervalSince(start)
    }

    private static func folderBytes(_ folder: URL) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".ndjson") }.reduce(0) { total, name in
            total + ((try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.size] as? Int) ?? 0)
        }
    }

    /// Runs both parts and prints their lines; returns the figures for the targets.
    static func run(folio: URL, repository: URL) -> [String: Double] {
        var figures: [String: Double] = [:]
        let script = repository.appendingPathComponent("bench/bulk_server.py")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("folio-bench-fetch")
        guard let server = start(folder: scratch.appendingPathComponent("export-50000"), patients: 50_000, script: script) else {
            print("fetch: python3 bench/bulk_server.py did not start")
            return figures
        }
        defer { server.process.terminate() }
        let curl = "/usr/bin/curl"
        // The manifest's file links, for curl (read by curl: Foundation here reads no http:// address).
        let manifestFile = scratch.appendingPathComponent("manifest.json").path
        _ = ChildProcess.wait(ChildProcess.spawn([curl, "-s", "-o", manifestFile, "\(server.base)/status/1"]) ?? -1)
        let manifest = FileManager.default.contents(atPath: manifestFile).flatMap {
            try? JSONSerialization.jsonObject(with: $0) as? [String: Any]
        }
        let urls = ((manifest?["output"] as? [[String: Any]]) ?? []).compactMap { $0["url"] as? String }
        var folioRates: [Double] = []
        var curlRates: [Double] = []
        var peaks: [Double] = []
        for _ in 0..<3 {
            let out = scratch.appendingPathComponent("folio-out")
            try? FileManager.default.removeItem(at: out)
            var peak = 0
            if let time = seconds({
                guard let run = ChildProcess.runMeasuringMemory([folio.path, "fetch", server.base, "--out", out.path, "--quiet"]) else {
                    return false
                }
                peak = run.peakKB
                return run.status == 0
            }) {
                folioRates.append(Double(folderBytes(out)) / 1e6 / time)
                peaks.append(Double(peak) / 1024)
            }
            let curlOut = scratch.appendingPathComponent("curl-out")
            try? FileManager.default.removeItem(at: curlOut)
            try? FileManager.default.createDirectory(at: curlOut, withIntermediateDirectories: true)
            if FileManager.default.isExecutableFile(atPath: curl), !urls.isEmpty {
                var arguments = [curl, "-s", "-f", "--parallel", "--parallel-max", "2"]
                for (index, url) in urls.enumerated() { arguments += ["-o", curlOut.appendingPathComponent("\(index).ndjson").path, url] }
                if let time = seconds({ ChildProcess.wait(ChildProcess.spawn(arguments) ?? -1) == 0 }) {
                    curlRates.append(Double(folderBytes(curlOut)) / 1e6 / time)
                }
            }
        }
        let size = Double(folderBytes(scratch.appendingPathComponent("folio-out"))) / 1e6
        func list(_ values: [Double]) -> String { values.map { String(format: "%.0f", $0) }.joined(separator: ", ") }
        print(
            String(
                format:
                    "fetch, 50,000 patients (%.0f MB, %d files) on loopback, MB/s taking turns: folio fetch %@; curl --parallel-max 2 %@; folio's peak memory %@ MB",
                size, urls.count, list(folioRates), list(curlRates), list(peaks)))
        if !folioRates.isEmpty { figures["fetch-mbps"] = folioRates.sorted()[folioRates.count / 2] }
        if !curlRates.isEmpty { figures["curl-mbps"] = curlRates.sorted()[curlRates.count / 2] }
        if let peak = peaks.max() { figures["fetch-peak-mb"] = peak }
        // A tenth of the export: the peak must not grow with the export's size.
        if let small = start(folder: scratch.appendingPathComponent("export-5000"), patients: 5_000, script: script) {
            defer { small.process.terminate() }
            let out = scratch.appendingPathComponent("folio-out-small")
            try? FileManager.default.removeItem(at: out)
            if let run = ChildProcess.runMeasuringMemory([folio.path, "fetch", small.base, "--out", out.path, "--quiet"]), run.status == 0 {
                figures["fetch-small-peak-mb"] = Double(run.peakKB) / 1024
                print(
                    String(format: "  peak memory, 5,000 patients: %.1f MB; 50,000: %.1f MB", Double(run.peakKB) / 1024, peaks.max() ?? 0))
            }
        }
        loop(folio: folio, repository: repository, script: script, scratch: scratch, into: &figures)
        return figures
    }

    /// The weekly loop for 1,000 patients: fetch + batch --post against batch alone.
    private static func loop(folio: URL, repository: URL, script: URL, scratch: URL, into figures: inout [String: Double]) {
        guard let server = start(folder: scratch.appendingPathComponent("export-1000"), patients: 1_000, script: script) else { return }
        defer { server.process.terminate() }
        let export = scratch.appendingPathComponent("loop-export")
        let template = repository.appendingPathComponent("Templates/fhir-weekly-summary.yaml").path
        func batch(_ out: String, post: Bool) -> Bool {
            try? FileManager.default.removeItem(atPath: out)
            var arguments = [
                folio.path, "batch", template, "--data", export.path, "--data-format", "fhir", "--period", "2026-11-09/2026-11-15",
                "--format", "pdf", "--emit", "fhir", "--out", out, "--quiet", "--jobs", "2",
            ]
            if post { arguments += ["--post", server.base] }
            return ChildProcess.wait(ChildProcess.spawn(arguments) ?? -1) == 0
        }
        var alone: [Double] = []
        var whole: [Double] = []
        for _ in 0..<2 {
            if let time = seconds({
                try? FileManager.default.removeItem(at: export)
                return ChildProcess.wait(ChildProcess.spawn([folio.path, "fetch", server.base, "--out", export.path, "--quiet"]) ?? -1) == 0
                    && batch(scratch.appendingPathComponent("loop-posted").path, post: true)
            }) {
                whole.append(time)
            }
            if let time = seconds({ batch(scratch.appendingPathComponent("loop-alone").path, post: false) }) { alone.append(time) }
        }
        guard let best = whole.min(), let batchBest = alone.min() else {
            print("fetch → batch → post, 1,000 patients: did not run")
            return
        }
        print(
            String(
                format: "fetch → batch → post, 1,000 patients: %.2f s against the batch alone %.2f s (%.2f×, target ≤ 1.3×)", best,
                batchBest, best / batchBest))
        figures["loop-ratio"] = best / batchBest
    }
}
