import Folio
import FolioData
import FolioTemplate
import Foundation

/// W3: `folio batch` over the 1,000 records of patients-1000.jsonl, PDF and HTML,
/// with one and two workers: documents per second, wall time and peak memory (of the largest
/// process: the batch or one of its render workers).
enum BatchBenchmark {
    /// The W3 template, relative to the repository (the benchmark runs from there).
    static let template = "Templates/weekly-summary.yaml"

    /// Runs the batch for PDF and HTML with one and two workers, in worker processes (as
    /// `folio batch` does) and, for PDF with two, in process (`--in-process`, what isolation costs)
    /// and signed with an RSA-2048 key (`signing`); returns documents per second by "pdf-1",
    /// "pdf-2", "html-1", "html-2", "pdf-2-in-process", "pdf-2-signed". What signing costs is
    /// measured taking turns (`measureW3`), not from these runs.
    @discardableResult
    static func run(folio: URL, data: URL, signing: [String]) -> [String: Double] {
        var rates: [String: Double] = [:]
        print("W3 batch (\(data.lastPathComponent), \(template)):")
        let runs: [(String, Int, [String])] = [
            ("pdf", 1, []), ("pdf", 2, []), ("pdf", 2, ["--in-process"]), ("pdf", 2, signing), ("html", 1, []), ("html", 2, []),
        ]
        for (format, jobs, extra) in runs {
            let inProcess = extra.contains("--in-process")
            let signed = extra.contains("--sign-key")
            if signed, signing.isEmpty { continue }
            let label = "\(format)-\(jobs)\(inProcess ? "-in-process" : "")\(signed ? "-signed" : "")"
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("folio-bench-w3-\(label)")
            try? FileManager.default.removeItem(at: out)
            let arguments = batchArguments(folio: folio, data: data, out: out, format: format, jobs: jobs) + extra
            let start = Timing.now()
            guard let (status, peakKB) = ChildProcess.runMeasuringMemory(arguments) else {
                print("  cannot start \(folio.path)")
                return rates
            }
            let seconds = Timing.now() - start
            let count = documentCount(in: out, format: format)
            print(
                String(
                    format: "  %@ --jobs %d%@: %d documents in %.2f s = %.1f documents/s, peak memory %d MB%@",
                    format.uppercased() as NSString, jobs,
                    (inProcess ? " --in-process" : signed ? " signed (RSA-2048)" : "") as NSString, count, seconds,
                    Double(count) / seconds, peakKB / 1024, (status == 0 ? "" : " (exit status \(status))") as NSString))
            try? FileManager.default.removeItem(at: out)
            if status == 0 { rates[label] = max(rates[label] ?? 0, Double(count) / seconds) }
        }
        if let isolated = rates["pdf-2"], let threads = rates["pdf-2-in-process"] {
            print(
                String(
                    format: "  worker processes / in process (PDF --jobs 2): %.2f (target ≥ 0.95: %@)", isolated / threads,
                    (isolated / threads >= 0.95 ? "holds" : "MISSED") as NSString))
        }
        return rates
    }

    /// `folio batch` of the W3 template over `data` into `out`, as `format` with `jobs` workers.
    private static func batchArguments(folio: URL, data: URL, out: URL, format: String, jobs: Int) -> [String] {
        [
            folio.path, "batch", template, "--data", data.path, "--out", out.path, "--format", format,
            "--name", "{{patient.id}}", "--jobs", String(jobs), "--quiet",
        ]
    }

    /// How many `format` documents `out` holds.
    private static func documentCount(in out: URL, format: String) -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []).filter { $0.hasSuffix("." + format) }.count
    }

    /// Documents per second of one `folio batch --jobs 2` of the 1,000 records to PDF, with `extra`
    /// arguments (signing); nil when it fails.
    static func pdfRateWithTwoWorkers(folio: URL, data: URL, extra: [String] = []) -> Double? {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("folio-bench-w3-alternating")
        try? FileManager.default.removeItem(at: out)
        defer { try? FileManager.default.removeItem(at: out) }
        let start = Timing.now()
        let arguments = batchArguments(folio: folio, data: data, out: out, format: "pdf", jobs: 2) + extra
        guard let pid = ChildProcess.spawn(arguments, output: "/dev/null"),
            ChildProcess.wait(pid) == 0
        else { return nil }
        let seconds = Timing.now() - start
        return Double(documentCount(in: out, format: "pdf")) / seconds
    }

    /// `--sign-key KEY --sign-cert CERT` for a fresh self-signed RSA-2048 key made with the openssl
    /// command; empty when it cannot be made.
    static func signingArguments() -> [String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-bench-signing")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let key = folder.appendingPathComponent("key.pem").path
        let certificate = folder.appendingPathComponent("cert.pem").path
        let made = ChildProcess.runMeasuringMemory([
            "/usr/bin/openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "2",
            "-subj", "/CN=Folio benchmark", "-addext", "keyUsage=critical,digitalSignature,nonRepudiation",
        ])
        guard made?.status == 0 else {
            print("  (openssl cannot make a signing key: the signed run is left out)")
            return []
        }
        chmod(key, 0o600)
        return ["--sign-key", key, "--sign-cert", certificate]
    }
}

/// Where a batch document's time goes, in-process: record parsing, template binding,
/// decoding the bound tree, and rendering.
enum BatchStages {
    static func run(data: URL, count: Int) throws {
        let template = try DocumentTemplate(
            data: try Data(contentsOf: URL(fileURLWithPath: "Templates/weekly-summary.yaml")), format: .yaml)
        let lines = try String(contentsOf: data, encoding: .utf8).split(separator: "\n").prefix(count).map { Array($0.utf8) }
        let options = RenderOptions(baseDirectory: URL(fileURLWithPath: "Templates"))
        var parse = 0.0
        var bind = 0.0
        var decode = 0.0
        var pdf = 0.0
        var html = 0.0
        var hash = 0.0
        for (index, line) in lines.enumerated() {
            var t = Timing.now()
            let record = try JSONTreeParser.parse(line)
            parse += Timing.now() - t
            t = Timing.now()
            let tree = try template.bind(record, number: index + 1)
            bind += Timing.now() - t
            t = Timing.now()
            let document = try DocumentDecoder.decode(tree)
            decode += Timing.now() - t
            t = Timing.now()
            let bytes = try document.pdf(options: options)
            pdf += Timing.now() - t
            t = Timing.now()
            _ = try document.html(options: options)
            html += Timing.now() - t
            t = Timing.now()
            _ = SHA256Digest.hex(bytes)
            hash += Timing.now() - t
        }
        let n = Double(lines.count) / 1000
        print(
            String(
                format: "W3 stages per document (ms): parse %.2f, bind %.2f, decode %.2f, PDF %.2f, HTML %.2f, SHA-256 of the PDF %.2f",
                parse / n, bind / n, decode / n, pdf / n, html / n, hash / n))
    }
}
