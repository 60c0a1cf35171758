import Folio
import FolioData
import FolioTemplate
import Foundation

/// W2: many patients in one document plus a long appendix table, and tables of
/// 1,000 to 100,000 rows. Each size runs in a child process so its peak memory
/// is its own; time and memory should grow linearly.
enum ScalingBenchmark {
    /// The W2 document for the first `patients` records: a section per patient, each
    /// with the W1 content, and an appendix of the heart-rate samples of up to 10 patients.
    /// `contentsDepth`: with a printed table of contents that deep first (none when nil).
    static func w2(records: [W1Report.Record], patients: Int, logo: Data, contentsDepth: Int? = nil) -> Document {
        var elements: [Block] = contentsDepth.map { [.contents(Contents(depth: $0))] } ?? []
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

    /// A ward's medication log of `rows` administrations (96 a day) as a document's tree with a table
    /// of records: `grouped` by medication and week, sorted by time, with subtotals and a total (and,
    /// `flagged`, a highlight rule marking a third of the rows); else the same columns in the records' order.
    static func reportTree(rows: Int, grouped: Bool, flagged: Bool = false) -> TreeValue {
        let medications = ["Metformin", "Lisinopril", "Insulin glargine", "Paracetamol", "Atorvastatin", "Amlodipine"]
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: seed >> 33) % bound
        }
        let records: [TreeValue] = (0..<rows).map { index in
            let day = index / 96
            let (year, month, dayOfMonth) = CivilDate.date(Int64(20_454 + day))
            let given = String(format: "%04d-%02d-%02dT%02d:%02d:00-05:00", year, month, dayOfMonth, index % 24, next(60))
            return .object([
                ("medication", .string(medications[next(medications.count)])), ("given", .string(given)),
                ("dose", .number([2.5, 5, 10, 20, 500][next(5)])), ("status", .string(next(20) == 0 ? "refused" : "given")),
                ("glucose", .number(Double(60 + next(180)))),
            ])
        }
        let columns: TreeValue = .array([
            .object([("field", .string("given")), ("title", .string("Given")), ("format", .string("date: datetime"))]),
            .object([("field", .string("dose")), ("title", .string("Dose")), ("format", .string("number: 1 | unit: mg"))]),
            .object([("field", .string("status")), ("title", .string("Status"))]),
            .object([("field", .string("glucose")), ("title", .string("Glucose"))]),
        ])
        var table: [(key: String, value: TreeValue)] = [
            ("type", .string("table")), ("caption", .string("Administrations")), ("records", .array(records)), ("columns", columns),
        ]
        if grouped {
            table += [
                ("groupBy", .array([.string("medication"), .object([("field", .string("given")), ("by", .string("week"))])])),
                ("sortBy", .array([.string("given")])),
                ("subtotals", .object([("dose", .string("sum")), ("given", .string("count"))])),
                ("total", .object([("dose", .string("sum")), ("given", .string("count"))])),
            ]
        }
        if flagged {
            table += [
                (
                    "highlight",
                    .array([
                        .object([
                            ("when", .object([("field", .string("glucose")), ("op", .string(">")), ("value", .number(180))])),
                            ("style", .string("alert")), ("label", .string("High")),
                        ])
                    ])
                )
            ]
        }
        return .object([("title", .string("\(rows) administrations")), ("elements", .array([.object(table)]))])
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
        if kind == "packet" {
            // `size` parts of 200 paragraphs, each followed by one of the sample's appended PDFs, and a
            // table of contents: what a long packet holds in memory.
            let start = Timing.now()
            let (data, pages) = try PDFRenderer(baseDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
                .renderCountingPages(packet(parts: size))
            try Data(String(format: "%.4f %d %d", Timing.now() - start, pages, data.count).utf8).write(to: URL(fileURLWithPath: resultPath))
            return
        }
        if kind.hasPrefix("report-") {
            // The records read, made into rows and rendered: what a report table costs from its data.
            let tree = reportTree(rows: size, grouped: kind != "report-plain", flagged: kind == "report-flagged")
            let start = Timing.now()
            let (data, pages) = try PDFRenderer().renderCountingPages(try DocumentDecoder.decode(tree))
            try Data(String(format: "%.4f %d %d", Timing.now() - start, pages, data.count).utf8).write(to: URL(fileURLWithPath: resultPath))
            return
        }
        let document =
            kind.hasPrefix("w2")
            ? w2(
                records: records, patients: size, logo: logo,
                contentsDepth: kind == "w2-contents" ? Contents().depth : kind == "w2-contents-2" ? 2 : nil)
            : table(rows: size, tagged: kind == "table")
        let start = Timing.now()
        let (data, pages) = try PDFRenderer().renderCountingPages(document)
        try Data(String(format: "%.4f %d %d", Timing.now() - start, pages, data.count).utf8).write(to: URL(fileURLWithPath: resultPath))
    }

    /// Runs every size in a child process and prints its figures; returns peak memory in KB and
    /// render seconds by kind ("w2", "table", "table-untagged", "report-plain", "report-grouped") and size.
    @discardableResult
    static func run(bench: URL) -> (peaks: [String: [Int: Int]], seconds: [String: [Int: Double]]) {
        var peaks: [String: [Int: Int]] = [:]
        var times: [String: [Int: Double]] = [:]
        let runs = [
            ("w2", [1, 10, 50], "patients", "W2 (sections per patient + appendix table), render time and peak memory:"),
            ("table", [1_000, 10_000, 100_000, 1_000_000], "rows", "Long tables (4 columns, tagged PDF), render time and peak memory:"),
            ("table-untagged", [1_000, 10_000, 100_000], "rows", "Long tables (4 columns, untagged: metadata.tagged false):"),
            ("report-plain", [100_000], "records", "A table of records, 4 columns, in the records' order (records read to PDF):"),
            (
                "report-grouped", [100_000], "records",
                "The same grouped by medication and week, sorted, with subtotals, a total and a highlight:"
            ),
        ]
        for (kind, sizes, label, heading) in runs {
            print(heading)
            for size in sizes {
                guard let (seconds, pages, bytes, peakKB) = measure(kind: kind, size: size, bench: bench) else {
                    print("  \(size) \(label): failed")
                    continue
                }
                peaks[kind, default: [:]][size] = peakKB
                times[kind, default: [:]][size] = seconds
                print(
                    String(
                        format: "  %6d %@: %.2f s, %d pages, %d KB PDF, peak memory %d MB", size, label as NSString, seconds, pages,
                        bytes / 1024, peakKB / 1024))
            }
        }
        // What tagging costs is a ratio of two runs on a machine that varies by a quarter between
        // runs: the 100,000-row table tagged and untagged once more each, the better time of each kept.
        for kind in ["table", "table-untagged", "report-plain", "report-grouped"] {
            guard let again = measure(kind: kind, size: 100_000, bench: bench) else { continue }
            print(String(format: "  100,000 rows, %@, again: %.2f s", kind as NSString, again.seconds))
            times[kind, default: [:]][100_000] = min(times[kind]?[100_000] ?? again.seconds, again.seconds)
        }
        return (peaks, times)
    }

    /// The 100,000-record table of a ward's medication log ungrouped and grouped, each twice taking
    /// turns (the better time of each kept): render seconds and peak memory in KB by kind.
    static func reportTables(bench: URL) -> (seconds: [String: Double], peaks: [String: Int]) {
        print("A ward's medication log, 100,000 records read from the document's tree to PDF (a process each):")
        return takingTurns(["report-plain", "report-grouped", "report-flagged"], size: 100_000, rounds: 2, bench: bench)
    }

    /// `kinds` at `size`, each in a process of its own, `rounds` times taking turns (a busy machine
    /// slows one run, not all of one kind), each printed: the better time and the highest peak memory
    /// in KB of each kind.
    private static func takingTurns(_ kinds: [String], size: Int, rounds: Int, bench: URL) -> (
        seconds: [String: Double], peaks: [String: Int]
    ) {
        var seconds: [String: Double] = [:]
        var peaks: [String: Int] = [:]
        for _ in 0..<rounds {
            for kind in kinds {
                guard let run = measure(kind: kind, size: size, bench: bench) else { continue }
                print(
                    String(format: "  %@: %.2f s, %d pages, peak memory %d MB", kind as NSString, run.seconds, run.pages, run.peakKB / 1024)
                )
                seconds[kind] = min(seconds[kind] ?? run.seconds, run.seconds)
                peaks[kind] = max(peaks[kind] ?? 0, run.peakKB)
            }
        }
        return (seconds, peaks)
    }

    /// A packet of `parts` parts, each a subtitle, 230 paragraphs (different words, so nothing repeats
    /// as a running header) and a PDF of the sample's appended (the lab report's two pages, the
    /// consent's one, by turns), with a table of contents first: about 27 pages a part.
    static func packet(parts: Int) -> Document {
        var elements: [Block] = [.contents(Contents())]
        for part in 0..<parts {
            elements.append(.subtitle(Subtitle("Part \(part + 1)")))
            for paragraph in 0..<230 {
                let words = (0..<60).map { "w\((part * 7919 + paragraph * 104_729 + $0 * 31) % 9973)" }.joined(separator: " ")
                elements.append(.paragraph(Paragraph("Note \(paragraph + 1): \(words).")))
            }
            let file = part % 2 == 1 ? "lab-report.pdf" : "consent.pdf"
            elements.append(.pdf(AppendedPDF(path: "Samples/appended/\(file)", alt: "The appended \(file) of part \(part + 1)")))
        }
        return Document(
            title: "A long packet", metadata: Metadata(author: "Folio benchmark", creationDate: Date(timeIntervalSince1970: 1_763_280_000)),
            elements: elements)
    }

    /// The packet of 20 parts (about 540 pages, 30 of them appended) in a process of its own: render
    /// seconds and peak memory in KB.
    static func packetRun(bench: URL) -> (seconds: Double, peakKB: Int)? {
        guard let run = measure(kind: "packet", size: 20, bench: bench) else { return nil }
        print(
            String(
                format: "A packet of 20 parts with 20 appended PDFs and a table of contents: %.2f s, %d pages, peak memory %d MB",
                run.seconds,
                run.pages, run.peakKB / 1024))
        return (run.seconds, run.peakKB)
    }

    /// W2 of 50 patients without a printed table of contents, with one of the default depth (the 50
    /// sections) and with one two levels deep (their 400 subtitles too), three times each taking turns
    /// (the better time of each kept): render seconds by kind ("w2", "w2-contents", "w2-contents-2").
    static func contentsCost(bench: URL) -> [String: Double] {
        print("W2, 50 patients, without a table of contents, with one of the sections, and of the sections and subtitles (a process each):")
        return takingTurns(["w2", "w2-contents", "w2-contents-2"], size: 50, rounds: 3, bench: bench).seconds
    }

    /// One child process rendering `size` of `kind`: render seconds, pages, PDF bytes and peak memory in KB.
    private static func measure(kind: String, size: Int, bench: URL) -> (seconds: Double, pages: Int, bytes: Int, peakKB: Int)? {
        let resultPath = FileManager.default.temporaryDirectory.appendingPathComponent("folio-bench-child-\(getpid())").path
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
        guard let (_, peakKB) = ChildProcess.runMeasuringMemory([executable, bench.path, "--child", kind, String(size), resultPath]) else {
            return nil
        }
        let output = (try? String(contentsOfFile: resultPath, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: resultPath)
        let fields = output.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard fields.count == 3, let seconds = Double(fields[0]), let pages = Int(fields[1]), let bytes = Int(fields[2]) else { return nil }
        return (seconds, pages, bytes, peakKB)
    }
}
