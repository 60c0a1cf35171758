import Folio
import Foundation

/// W2: many patients in one document plus a long appendix table, and tables of
/// 1,000 to 100,000 rows. Each size runs in a child process so its peak memory
/// is its own; time and memory should grow linearly.
enum ScalingBenchmark {
    /// The W2 document for the first `patients` records: a section per patient, each
    /// with the W1 content, and an appendix of the heart-rate samples of up to 10 patients.
    static func w2(records: [W1Report.Record], patients: Int, logo: Data) -> Document {
        var elements: [Block] = []
        for record in records.prefix(patients) {
            let w1 = W1Report.document(record, logo: logo)
            elements.append(.section(Section(title: "\(record.patient.name) — \(record.patient.week)", label: record.patient.id)))
            elements += w1.elements
        }
        var rows: [[String]] = []
        for record in records.prefix(min(patients, 10)) {
            let hr = record.heartRate
            for i in hr.elapsedSeconds.indices {
                rows.append([
                    record.patient.id, NumberFormat.english.string(hr.elapsedSeconds[i], decimals: 0),
                    NumberFormat.english.string(hr.expected[i], decimals: 1), NumberFormat.english.string(hr.actual[i], decimals: 1),
                ])
            }
        }
        elements.append(.section(Section(title: "Appendix: heart-rate samples", label: "A")))
        elements.append(
            .table(
                Table(
                    header: ["Patient", "Elapsed (s)", "Expected (bpm)", "Actual (bpm)"], rows: rows,
                    align: [.left, .right, .right, .right], caption: "Heart-rate samples",
                    continuedCaption: "Heart-rate samples (continued)")))
        return Document(
            title: "Weekly Care Summaries", footer: "Page {page} of {pages} · {documentPage}/{documentPages}",
            metadata: Metadata(author: "Folio benchmark", creationDate: Date(timeIntervalSince1970: 1_763_280_000)),
            elements: elements)
    }

    /// `rows` rows in 4 columns: one table, or tables of `InputLimits.tableRows` rows one after
    /// the other when there are more (a document's table holds at most that many).
    static func table(rows: Int, tagged: Bool) -> Document {
        let data = (0..<rows).map { ["P\($0 % 1000)", String($0 * 10), String(format: "%.1f", 70 + Double($0 % 90)), "note \($0 % 97)"] }
        let parts = stride(from: 0, to: rows, by: InputLimits.tableRows).map { start in
            Block.table(
                Table(
                    header: ["Patient", "Elapsed", "Rate", "Note"], rows: Array(data[start..<min(start + InputLimits.tableRows, rows)]),
                    continuedCaption: "(continued)"))
        }
        return Document(title: "\(rows) rows", metadata: Metadata(tagged: tagged), elements: parts)
    }

    /// Child mode: render once and write "seconds pages bytes" to `resultPath`.
    static func child(kind: String, size: Int, resultPath: String, records: [W1Report.Record], logo: Data) throws {
        if kind == "w1" {
            // `size` W1 PDFs in-process, a different patient each (for callgrind: where a render's time goes).
            let start = Timing.now()
            var bytes = 0
            for index in 0..<max(size, 1) {
                bytes += try PDFRenderer().render(W1Report.document(records[index % records.count], logo: logo)).count
            }
            try Data(String(format: "%.4f %d %d", Timing.now() - start, size, bytes).utf8).write(to: URL(fileURLWithPath: resultPath))
            return
        }
        let document = kind == "w2" ? w2(records: records, patients: size, logo: logo) : table(rows: size, tagged: kind == "table")
        let start = Timing.now()
        let (data, pages) = try PDFRenderer().renderCountingPages(document)
        try Data(String(format: "%.4f %d %d", Timing.now() - start, pages, data.count).utf8).write(to: URL(fileURLWithPath: resultPath))
    }

    /// Runs every size in a child process and prints its figures; returns peak memory in KB and
    /// render seconds by kind ("w2", "table", "table-untagged") and size.
    @discardableResult
    static func run(bench: URL) -> (peaks: [String: [Int: Int]], seconds: [String: [Int: Double]]) {
        var peaks: [String: [Int: Int]] = [:]
        var times: [String: [Int: Double]] = [:]
        let runs = [
            ("w2", [1, 10, 50], "patients", "W2 (sections per patient + appendix table), render time and peak memory:"),
            ("table", [1_000, 10_000, 100_000, 1_000_000], "rows", "Long tables (4 columns, tagged PDF), render time and peak memory:"),
            ("table-untagged", [1_000, 10_000, 100_000], "rows", "Long tables (4 columns, untagged: metadata.tagged false):"),
        ]
        for (kind, sizes, label, heading) in runs {
            print(heading)
            for size in sizes {
                let resultPath = FileManager.default.temporaryDirectory.appendingPathComponent("folio-bench-child-\(getpid())").path
                let executable = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
                guard
                    let (_, peakKB) = ChildProcess.runMeasuringMemory([executable, bench.path, "--child", kind, String(size), resultPath])
                else {
                    print("  cannot run \(executable)")
                    return (peaks, times)
                }
                let output = (try? String(contentsOfFile: resultPath, encoding: .utf8)) ?? ""
                try? FileManager.default.removeItem(atPath: resultPath)
                let parts = output.split(separator: " ")
                guard parts.count == 3, let seconds = Double(parts[0]) else {
                    print("  \(size) \(label): failed: \(output)")
                    continue
                }
                peaks[kind, default: [:]][size] = peakKB
                times[kind, default: [:]][size] = seconds
                print(
                    String(
                        format: "  %6d %@: %.2f s, %@ pages, %d KB PDF, peak memory %d MB", size, label as NSString, seconds,
                        String(parts[1]) as NSString, (Int(parts[2].trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) / 1024,
                        peakKB / 1024))
            }
        }
        return (peaks, times)
    }
}
