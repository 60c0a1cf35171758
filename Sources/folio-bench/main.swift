import Folio
import FolioData
import Foundation

// Prints Folio's W1 figures: in-process PDF and HTML time per document (after
// warm-up, a different patient each render), cold `folio render` process time,
// PDF size and peak memory. Usage: folio-bench [BENCH_DIR] [RENDERS]
// Without BENCH_DIR (or with "generate") the workload is generated into .build/bench-workload
// from a fixed seed; BENCH_DIR may name a folder with patients-1000.jsonl and logo.png instead.

// As `folio` does: Cairo's streams are compressed once, by the finishing step.
PDFRenderer.compressStreamsOnce()
let arguments = CommandLine.arguments
let benchDirectory: URL
if arguments.count > 1, arguments[1] != "generate" {
    benchDirectory = URL(fileURLWithPath: arguments[1])
} else {
    do {
        benchDirectory = try WorkloadGenerator.prepare(
            in: URL(fileURLWithPath: ".build/bench-workload"),
            logo: URL(fileURLWithPath: "Samples/logo.png"))
    } catch {
        FileHandle.standardError.write(Data("folio-bench: cannot generate the workload: \(error)\n".utf8))
        exit(1)
    }
}
let isChild = arguments.count > 5 && arguments[2] == "--child"
let renders = arguments.count > 2 && !isChild ? Int(arguments[2]) ?? 60 : 60
let warmUp = 5

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("folio-bench: \(message)\n".utf8))
    exit(1)
}

// The 50 records rendered, read as `folio batch` reads records (one line at a time): a child process
// measured for its memory holds the records it renders, not the whole file, as the C program does.
let records: [W1Report.Record] = {
    guard let reader = try? RecordReader(path: benchDirectory.appendingPathComponent("patients-1000.jsonl").path) else { return [] }
    var records: [W1Report.Record] = []
    while records.count < 50, let record = try? reader.next() {
        if case .success(let tree) = record.value, let decoded = try? tree.decoded(as: W1Report.Record.self) {
            records.append(decoded)
        }
    }
    return records
}()
guard let logo = try? Data(contentsOf: benchDirectory.appendingPathComponent("logo.png")) else {
    fail("cannot read logo.png in \(benchDirectory.path)")
}
guard !records.isEmpty else { fail("no patient records decoded from \(benchDirectory.path)/patients-1000.jsonl") }
if isChild {
    do {
        try ScalingBenchmark.child(kind: arguments[3], size: Int(arguments[4]) ?? 1, resultPath: arguments[5], records: records, logo: logo)
    } catch {
        fail("\(error)")
    }
    exit(0)
}
let documents = records.map { W1Report.document($0, logo: logo) }

func now() -> Double { Timing.now() }

func summary(_ samples: [Double]) -> String {
    let sorted = samples.sorted()
    let median = sorted[sorted.count / 2] * 1000
    let p90 = sorted[min(sorted.count - 1, sorted.count * 9 / 10)] * 1000
    return String(format: "median %.2f ms, p90 %.2f ms, min %.2f ms (n=%d)", median, p90, (sorted.first ?? 0) * 1000, sorted.count)
}

func time(_ body: (Document) throws -> Void) rethrows -> [Double] {
    for index in 0..<warmUp { try body(documents[index % documents.count]) }
    var samples: [Double] = []
    for index in 0..<renders {
        let start = now()
        try body(documents[index % documents.count])
        samples.append(now() - start)
    }
    return samples
}

func median(_ samples: [Double]) -> Double { samples.sorted()[samples.count / 2] }

/// The `folio` binary built beside this one (the cold, batch and FHIR figures run it).
let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("folio")

// FOLIO_BENCH_ONLY=fhir: only the FHIR export benchmark (it generates a large export once).
if ProcessInfo.processInfo.environment["FOLIO_BENCH_ONLY"] == "fhir" {
    let figures = FHIRBenchmark.run(folio: binary, bench: benchDirectory)
    var table = TargetTable()
    table.forScale("FHIR folio records, peak memory", folio: figures["records-peak-mb"], c: nil, unit: "MB")
    table.forScale("FHIR folio batch, peak memory", folio: figures["batch-peak-mb"], c: nil, unit: "MB")
    table.forScale("FHIR patient summaries batch, peak memory", folio: figures["summary-peak-mb"], c: nil, unit: "MB")
    print(table.printed())
    exit(0)
}

let cProgram = CProgramBenchmark.fromEnvironment()
if cProgram == nil { print("The C program: not built (make bench builds bench/peers/cairo_report.c and names it in FOLIO_BENCH_C)") }
var targets = TargetTable()

/// W3: `folio batch` with one and two workers (and in process, signed, HTML); then the targets'
/// comparisons, `folio batch --jobs 2`, the C program in two processes and `folio batch --jobs 2`
/// signing every PDF taking turns, three rounds (each begun by the next of them), so every figure
/// comes from the same minutes (this machine's speed drifts by a tenth within a minute, and runs of
/// one side in a row then the other's measure the drift as much as the programs). The targets
/// compare the medians.
func measureW3(into targets: inout TargetTable) {
    let data = benchDirectory.appendingPathComponent("patients-1000.jsonl")
    let signing = BatchBenchmark.signingArguments()
    BatchBenchmark.run(folio: binary, data: data, signing: signing)
    var folioRuns: [Double] = []
    var cRuns: [Double] = []
    var signedRuns: [Double] = []
    // Each round starts with the next of the three, so none always runs first or last in its round.
    let runs: [() -> Void] = [
        { if let rate = BatchBenchmark.pdfRateWithTwoWorkers(folio: binary, data: data) { folioRuns.append(rate) } },
        { if let rate = cProgram?.w3TwoProcesses(count: 1000) { cRuns.append(rate) } },
        {
            if !signing.isEmpty, let rate = BatchBenchmark.pdfRateWithTwoWorkers(folio: binary, data: data, extra: signing) {
                signedRuns.append(rate)
            }
        },
    ]
    for round in 0..<3 {
        for index in 0..<runs.count { runs[(round + index) % runs.count]() }
    }
    func list(_ runs: [Double]) -> String { runs.map { String(format: "%.1f", $0) }.joined(separator: ", ") }
    print(
        "W3 1,000 PDFs taking turns, documents/s: folio batch --jobs 2 \(list(folioRuns)); the C program in two processes "
            + "\(cRuns.isEmpty ? "—" : list(cRuns)); signed (RSA-2048) \(signedRuns.isEmpty ? "—" : list(signedRuns))")
    let folio = folioRuns.isEmpty ? nil : median(folioRuns)
    let c = cRuns.isEmpty ? nil : median(cRuns)
    let signed = signedRuns.isEmpty ? nil : median(signedRuns)
    if let folio, let signed {
        print(
            String(
                format: "  signed / unsigned (PDF --jobs 2, medians of 3 taking turns): %.2f (target ≥ 0.90: %@)", signed / folio,
                (signed / folio >= 0.9 ? "holds" : "MISSED") as NSString))
    }
    targets.ratio("W3 PDF, folio batch --jobs 2 (median of 3, taking turns with C)", folio: folio, c: c, unit: "documents/s", atLeast: 0.9)
    targets.forScale("W3 PDF, folio batch --jobs 2, signed (median of 3)", folio: signed, c: c, unit: "documents/s")
}

/// `folio fetch` beside curl, and the weekly loop, as targets (FetchBenchmark).
func recordFetch(into targets: inout TargetTable) {
    let fetch = FetchBenchmark.run(folio: binary, repository: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
    targets.ratio(
        "fetch of 50,000 patients, folio fetch / curl (MB/s)", folio: fetch["fetch-mbps"], c: fetch["curl-mbps"], unit: "MB/s", atLeast: 0.5
    )
    targets.absolute(
        "fetch peak memory, 50,000 patients over 5,000",
        folio: fetch["fetch-peak-mb"].flatMap { big in fetch["fetch-small-peak-mb"].map { big / $0 } },
        c: nil, unit: "×", atMost: 1.25)
    targets.absolute("fetch → batch → post over batch alone, 1,000 patients", folio: fetch["loop-ratio"], c: nil, unit: "×", atMost: 1.3)
}

/// Durable jobs beside `folio batch --jobs 2`, in the same minutes.
func recordJobs(into targets: inout TargetTable) {
    let data = benchDirectory.appendingPathComponent("patients-1000.jsonl")
    let repository = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    for postgres in [false, true] {
        guard let jobs = JobsBenchmark.run(folio: binary, data: data, repository: repository, postgres: postgres) else { continue }
        let store = postgres ? "PostgreSQL" : "SQLite"
        // The C column of these two rows is `folio batch --jobs 2`'s documents/s in the same run.
        let batch = jobs["batchDocumentsPerSecond"]
        targets.ratio(
            "\(store): one 1,000-record job, documents/s (C column: folio batch --jobs 2)", folio: jobs["oneJobDocumentsPerSecond"],
            c: batch, unit: "docs/s", atLeast: 0.9)
        targets.ratio(
            "\(store): 1,000 one-record jobs, documents/s (C column: folio batch --jobs 2)",
            folio: jobs["smallJobsDocumentsPerSecond"], c: batch, unit: "docs/s", atLeast: 0.9)
        targets.forScale("\(store): one-record jobs' queue wait, p95", folio: jobs["queueWaitP95"], c: nil, unit: "s")
        let latency = jobs["syncDrainingMedian"].flatMap { draining in jobs["syncIdleMedian"].map { draining / $0 } }
        targets.absolute(
            "\(store): synchronous render while a job drains over idle, median", folio: latency, c: nil, unit: "×", atMost: 1.2)
    }
}

// FOLIO_BENCH_ONLY=jobs: only the durable jobs beside folio batch --jobs 2.
if ProcessInfo.processInfo.environment["FOLIO_BENCH_ONLY"] == "jobs" {
    var table = TargetTable()
    recordJobs(into: &table)
    print(table.printed())
    exit(0)
}

// FOLIO_BENCH_ONLY=fetch: only `folio fetch` beside curl and the weekly loop.
if ProcessInfo.processInfo.environment["FOLIO_BENCH_ONLY"] == "fetch" {
    var table = TargetTable()
    recordFetch(into: &table)
    print(table.printed())
    exit(0)
}

// FOLIO_BENCH_ONLY=reports: only the 100,000-record report table, ungrouped and grouped.
if ProcessInfo.processInfo.environment["FOLIO_BENCH_ONLY"] == "reports" {
    let (seconds, peaks) = ScalingBenchmark.reportTables(bench: benchDirectory)
    let ratio = seconds["report-grouped"].flatMap { grouped in seconds["report-plain"].map { grouped / $0 } }
    targets.absolute("100,000-record table grouped, time / ungrouped", folio: ratio, c: nil, unit: "×", atMost: 1.15)
    targets.absolute(
        "100,000-record grouped table, peak memory", folio: peaks["report-grouped"].map { Double($0) / 1024 }, c: nil, unit: "MB",
        atMost: 200)
    let flagged = seconds["report-flagged"].flatMap { flagged in seconds["report-plain"].map { flagged / $0 } }
    targets.forScale("100,000-record table grouped and flagged, time / ungrouped", folio: flagged, c: nil, unit: "×")
    print(targets.printed())
    exit(0)
}

// FOLIO_BENCH_ONLY=contents: only W2 without and with a printed table of contents, and a long packet.
if ProcessInfo.processInfo.environment["FOLIO_BENCH_ONLY"] == "contents" {
    let packet = ScalingBenchmark.packetRun(bench: benchDirectory)
    targets.absolute(
        "A 540-page packet with 20 appended PDFs, peak memory", folio: packet.map { Double($0.peakKB) / 1024 }, c: nil, unit: "MB",
        atMost: 100)
    let seconds = ScalingBenchmark.contentsCost(bench: benchDirectory)
    let ratio = seconds["w2-contents"].flatMap { with in seconds["w2"].map { with / $0 } }
    targets.absolute("W2 (50 patients) with a table of contents, time / without", folio: ratio, c: nil, unit: "×", atMost: 1.05)
    let deep = seconds["w2-contents-2"].flatMap { with in seconds["w2"].map { with / $0 } }
    targets.forScale("W2 with a table of contents of its 450 headings (depth 2), time / without", folio: deep, c: nil, unit: "×")
    print(targets.printed())
    exit(0)
}

// FOLIO_BENCH_ONLY=long: only the long documents (1,000 to 10,000 pages of paragraphs).
if ProcessInfo.processInfo.environment["FOLIO_BENCH_ONLY"] == "long" {
    let long = LongDocumentBenchmark.run(folio: binary, bench: benchDirectory)
    targets.absolute("10,000 pages of distinct paragraphs, peak memory", folio: long[10_000], c: nil, unit: "MB", atMost: 150)
    print(targets.printed())
    exit(0)
}

// FOLIO_BENCH_ONLY=w3: only W3 (`folio batch --jobs 2` and the C program in two processes).
if ProcessInfo.processInfo.environment["FOLIO_BENCH_ONLY"] == "w3" {
    measureW3(into: &targets)
    print(targets.printed())
    exit(0)
}

do {
    // The C program first, then Folio, so both see the same machine within seconds.
    let cW1 = cProgram?.w1InProcess(renders: renders)
    var pdfSize = 0
    let pdfTimes = try time { pdfSize = try $0.pdf().count }
    let htmlTimes = try time { _ = try $0.html() }
    // The C program writes an untagged PDF: the same documents without PDF/UA show what tagging costs.
    let untaggedTimes = try time { document in
        var untagged = document
        untagged.metadata.tagged = false
        _ = try untagged.pdf()
    }
    print("W1 PDF  in-process: \(summary(pdfTimes))")
    print("W1 HTML in-process: \(summary(htmlTimes))")
    print("W1 PDF  in-process, untagged (metadata.tagged: false): \(summary(untaggedTimes))")
    print("W1 PDF size: \(pdfSize / 1024) KB (\(pdfSize) bytes)")
    if let cW1 { print(String(format: "W1 PDF  in-process, the C program: median %.2f ms", cW1 * 1000)) }
    targets.ratio("W1 PDF in-process, median", folio: median(pdfTimes) * 1000, c: cW1.map { $0 * 1000 }, unit: "ms", atMost: 1.15)
    targets.forScale("W1 PDF in-process, untagged, median", folio: median(untaggedTimes) * 1000, c: cW1.map { $0 * 1000 }, unit: "ms")
    targets.absolute("W1 HTML in-process, median", folio: median(htmlTimes) * 1000, c: nil, unit: "ms", atMost: 2)

    if FileManager.default.isExecutableFile(atPath: binary.path) {
        var cold: [Double] = []
        var cColdRuns: [Double] = []
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("folio-bench-cold.pdf")
        let arguments = [binary.path, "render", "Samples/weekly-summary.yaml", "-o", output.path]
        // Folio's and the C program's processes alternate, 30 of each, so that both meet the machine in
        // the same moods (it moves by a quarter over a minute): each median is of runs taken side by side.
        for run in 0..<32 {
            // posix_spawn and waitpid: Foundation's Process polls for exit and would add tens of milliseconds.
            let start = now()
            guard let pid = ChildProcess.spawn(arguments) else { fail("cannot start \(binary.path)") }
            let status = ChildProcess.wait(pid)
            let seconds = now() - start
            if status != 0 { fail("folio render failed with status \(status)") }
            let cSeconds = cProgram?.w1ColdProcess()
            // The first two pairs warm the page cache and are not counted.
            if run > 1 {
                cold.append(seconds)
                if let cSeconds { cColdRuns.append(cSeconds) }
            }
        }
        print("W1 cold `folio render` process (Samples/weekly-summary.yaml to PDF): \(summary(cold))")
        let coldPeak = ChildProcess.runMeasuringMemory(arguments).map { Double($0.peakKB) / 1024 }
        if let coldPeak { print(String(format: "W1 cold process peak memory: %.1f MB", coldPeak)) }
        let cCold = cColdRuns.isEmpty ? nil : median(cColdRuns)
        if let cCold { print(String(format: "W1 cold process, the C program (cairo_report w1): median %.2f ms", cCold * 1000)) }
        let cColdPeak = cProgram?.w1ColdPeakMemory().map { Double($0) / 1024 }
        if let cColdPeak { print(String(format: "W1 cold process peak memory, the C program: %.1f MB", cColdPeak)) }
        targets.ratio("W1 cold process, median", folio: median(cold) * 1000, c: cCold.map { $0 * 1000 }, unit: "ms", atMost: 1.5)
        targets.forScale("W1 cold process, peak memory", folio: coldPeak, c: cColdPeak, unit: "MB")
    } else {
        print("W1 cold process: skipped, no folio binary beside folio-bench")
    }
    let ips = try IPSBenchmark.run(renders: 30)
    print(
        String(
            format:
                "IPS summary (Samples/ips-summary.json through Templates/patient-summary.yaml, read to PDF) in-process: median %.2f ms, %d KB",
            ips.median * 1000, ips.bytes / 1024))
    targets.absolute("IPS summary PDF in-process, median", folio: ips.median * 1000, c: nil, unit: "ms", atMost: 20)
    // FOLIO_BENCH_ONLY=w1: only W1 (in-process and cold), beside the C program.
    if ProcessInfo.processInfo.environment["FOLIO_BENCH_ONLY"] == "w1" {
        print(targets.printed())
        exit(0)
    }
    if FileManager.default.isExecutableFile(atPath: binary.path) {
        targets.absolute(
            "folio check, 10,000 records", folio: AuthoringBenchmark.check(folio: binary, bench: benchDirectory), c: nil, unit: "s",
            atMost: 2)
        targets.absolute(
            "folio preview, edit to page picture, p95", folio: AuthoringBenchmark.preview(folio: binary), c: nil, unit: "ms", atMost: 150)
    }
    // FOLIO_BENCH_ONLY=authoring: W1, then only the author's loop.
    if ProcessInfo.processInfo.environment["FOLIO_BENCH_ONLY"] == "authoring" {
        print(targets.printed())
        exit(0)
    }
    try ChartBenchmark.run(gallery: URL(fileURLWithPath: "Samples/charts.yaml"), repetitions: 20)
    let (peaks, seconds) = ScalingBenchmark.run(bench: benchDirectory)
    let cW2 = cProgram?.w2(patients: 50)
    if let cW2 { print(String(format: "W2 50 patients, the C program: %.2f s, peak memory %d MB", cW2.seconds, cW2.peakKB / 1024)) }
    targets.absolute(
        "W2 50 patients, peak memory", folio: peaks["w2"]?[50].map { Double($0) / 1024 }, c: cW2.map { Double($0.peakKB) / 1024 },
        unit: "MB", atMost: 60)
    targets.absolute(
        "100,000-row tagged table, peak memory", folio: peaks["table"]?[100_000].map { Double($0) / 1024 }, c: nil, unit: "MB",
        atMost: 200)
    let taggedCost = seconds["table"]?[100_000].flatMap { tagged in seconds["table-untagged"]?[100_000].map { tagged / $0 } }
    targets.absolute("100,000-row tagged table, time / untagged", folio: taggedCost, c: nil, unit: "×", atMost: 1.5)
    let groupedCost = seconds["report-grouped"]?[100_000].flatMap { grouped in seconds["report-plain"]?[100_000].map { grouped / $0 } }
    targets.absolute("100,000-record table grouped, time / ungrouped", folio: groupedCost, c: nil, unit: "×", atMost: 1.15)
    targets.absolute(
        "100,000-record grouped table, peak memory", folio: peaks["report-grouped"]?[100_000].map { Double($0) / 1024 }, c: nil,
        unit: "MB", atMost: 200)
    targets.absolute(
        "1,000,000-row tagged table, peak memory", folio: peaks["table"]?[1_000_000].map { Double($0) / 1024 }, c: nil, unit: "MB",
        atMost: 1024)
    if FileManager.default.isExecutableFile(atPath: binary.path) {
        let long = LongDocumentBenchmark.run(folio: binary, bench: benchDirectory)
        targets.absolute("10,000 pages of distinct paragraphs, peak memory", folio: long[10_000], c: nil, unit: "MB", atMost: 150)
    }
    try BatchStages.run(data: benchDirectory.appendingPathComponent("patients-1000.jsonl"), count: 100)
    if FileManager.default.isExecutableFile(atPath: binary.path) { measureW3(into: &targets) }
    if FileManager.default.isExecutableFile(atPath: binary.path) {
        let fhir = FHIRBenchmark.run(folio: binary, bench: benchDirectory)
        targets.forScale("FHIR folio records, peak memory", folio: fhir["records-peak-mb"], c: nil, unit: "MB")
        targets.forScale("FHIR folio batch, peak memory", folio: fhir["batch-peak-mb"], c: nil, unit: "MB")
        targets.forScale("FHIR patient summaries batch, peak memory", folio: fhir["summary-peak-mb"], c: nil, unit: "MB")
        recordFetch(into: &targets)
        recordJobs(into: &targets)
    }
    print(targets.printed())
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    print("Peak memory (this process): \(usage.ru_maxrss / 1024) MB")
} catch {
    fail("\(error)")
}
