import Foundation

/// The hand-written C cairo+pango program (bench/peers/cairo_report.c), run in the same
/// benchmark as Folio so that every target is a ratio on this machine at this moment.
/// `make bench` compiles it with the workload folder as its data folder.
struct CProgramBenchmark {
    /// The compiled program.
    let executable: String

    /// The program named by FOLIO_BENCH_C, when it exists.
    static func fromEnvironment() -> CProgramBenchmark? {
        guard let path = ProcessInfo.processInfo.environment["FOLIO_BENCH_C"], FileManager.default.isExecutableFile(atPath: path)
        else { return nil }
        return CProgramBenchmark(executable: path)
    }

    /// Median seconds per W1 PDF rendered in memory, cycling over 50 patients (as Folio's figure).
    func w1InProcess(renders: Int) -> Double? {
        guard let output = run([executable, "w1cycle", String(renders), "5"]) else { return nil }
        return number(named: "median_s", in: output.text)
    }

    /// Wall seconds of one whole `cairo_report w1 OUT.pdf` process.
    func w1ColdProcess() -> Double? {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("folio-bench-c-w1.pdf").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let start = Timing.now()
        guard let pid = ChildProcess.spawn([executable, "w1", output], output: "/dev/null"), ChildProcess.wait(pid) == 0
        else { return nil }
        return Timing.now() - start
    }

    /// Peak memory in KB of one `cairo_report w1 OUT.pdf` process.
    func w1ColdPeakMemory() -> Int? {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("folio-bench-c-w1.pdf").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        guard let (status, peakKB) = ChildProcess.runMeasuringMemory([executable, "w1", output], output: "/dev/null"), status == 0
        else { return nil }
        return peakKB
    }

    /// W2 for `patients` patients: render seconds and peak memory in KB.
    func w2(patients: Int) -> (seconds: Double, peakKB: Int)? {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("folio-bench-c-w2.pdf").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        guard let result = run([executable, "w2", String(patients), output]), let seconds = number(named: "render_s", in: result.text)
        else { return nil }
        return (seconds, result.peakKB)
    }

    /// W3 over `count` records in two processes of half the records each, as `folio batch --jobs 2`
    /// uses two workers: documents per second over the wall time of both.
    func w3TwoProcesses(count: Int) -> Double? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-bench-c-w3").path
        try? FileManager.default.removeItem(atPath: folder)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let half = count / 2
        let start = Timing.now()
        var children: [pid_t] = []
        for first in [0, half] {
            let arguments = [executable, "w3", String(first), String(first == 0 ? half : count - half), folder]
            guard let pid = ChildProcess.spawn(arguments, output: "/dev/null") else { return nil }
            children.append(pid)
        }
        let statuses = children.map(ChildProcess.wait)
        guard statuses.allSatisfy({ $0 == 0 }) else { return nil }
        let seconds = Timing.now() - start
        let written = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".pdf") }.count
        return Double(written) / seconds
    }

    /// Runs the program with its standard output in a file; its output and peak memory.
    private func run(_ arguments: [String]) -> (text: String, peakKB: Int)? {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("folio-bench-c-\(getpid()).json").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        guard let (status, peakKB) = ChildProcess.runMeasuringMemory(arguments, output: outputPath), status == 0,
            let text = try? String(contentsOfFile: outputPath, encoding: .utf8)
        else { return nil }
        return (text, peakKB)
    }

    /// The number after `"name": ` in the program's one-line JSON report.
    private func number(named name: String, in text: String) -> Double? {
        guard let data = text.split(separator: "\n").last.map({ Data($0.utf8) }),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return (object[name] as? NSNumber)?.doubleValue
    }
}
