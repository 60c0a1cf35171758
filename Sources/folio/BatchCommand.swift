import ArgumentParser
import Dispatch
import Folio
import FolioBatch
import FolioConnect
import FolioFHIR
import FolioFiles
import FolioSheets
import Foundation

/// `folio batch TEMPLATE --data FILE --out DIR …`.
struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Render one template for every record of a data file, on all cores.",
        discussion: """
            The template is a document (YAML or JSON) whose strings may hold placeholders \
            filled from each record: "{{patient.name}}" inside text, or a whole value such as \
            values: "{{pain}}" for a chart series. Lists may hold {$each: medications, $as: m, $item: …} \
            to repeat an entry per element and {$if: field, $item: …} to keep it only when the field \
            is present. Filters: mean, sum, min, max, count, round: n, fixed: n, percent: n, scale: k, \
            thousands, entries, keys, values, default: text, join: sep, upper, lower. \
            Values go into the parsed document, never into the template's text.

            Data: JSON lines, a JSON array or CSV with a header row (dotted column names such as \
            patient.name make nested fields; cells holding numbers or JSON lists become those), \
            read as a stream; '-' reads standard input.

            Each file is written under a temporary name and renamed, so an interrupted run leaves \
            no partial file; --resume skips records whose outputs exist. A bad record fails alone: \
            it goes to DIR/failures.jsonl with its number, id and an error naming the field, and \
            the exit status is 1. DIR/manifest.jsonl lists every file with its size, pages and SHA-256. \
            With --shard K/N these are manifest-shard-K-of-N.jsonl and failures-shard-K-of-N.jsonl, \
            so shards can write into one folder.

            FHIR R4 (--data-format fhir --period START/END [--zone ZONE]): DATA is a Bulk Data export \
            folder, an NDJSON file or a Bundle, and each Patient with data in the period is one record \
            (see folio records). --emit fhir writes NAME.fhir.json, a DocumentReference, beside each \
            record's documents, and DIR/bundle.json, a transaction Bundle of them all for one POST.

            Example (Kubernetes Indexed Job, Slurm array or GNU parallel):
              folio batch Templates/weekly-summary.yaml --data patients.jsonl --out out --shard $JOB_COMPLETION_INDEX/4
            Example (FHIR):
              folio batch Templates/fhir-weekly-summary.yaml --data export/ --data-format fhir \\
                --period 2026-11-09/2026-11-15 --zone America/New_York --emit fhir --out out
            """
    )

    @Argument(help: "The document template, YAML or JSON.")
    var template: String

    @Option(
        help:
            "Records: JSON lines (.jsonl), a JSON array (.json) or CSV (.csv), '-' for standard input; or a FHIR export (--data-format fhir)."
    )
    var data: String

    @OptionGroup var dataFormat: DataFormatOption

    @Option(name: .customLong("out"), help: "Folder for the documents, manifest.jsonl and failures.jsonl.")
    var outputDirectory: String

    @Option(help: "Comma-separated formats: pdf, html, xlsx (the tables, a sheet each), csv (a document of one table), as pdf,xlsx.")
    var format: String = "pdf"

    @Option(
        help:
            "File name pattern bound to each record, e.g. '{{patient.id}}-week'; the extension is added (default: record-{{$number}}, or {{patient.id}} for FHIR data)."
    )
    var name: String?

    @Option(help: "fhir: a FHIR R4 DocumentReference beside each record's documents and a transaction Bundle of them all.")
    var emit: String?

    @Option(
        help:
            "fhir: embed each patient's FHIR resources in their PDF as a FHIR Bundle (fhir-bundle.json, application/fhir+json, relationship Source; with metadata.conformance: pdfa-3u a PDF/A-3u); needs --data-format fhir."
    )
    var attach: String?

    @Option(
        help:
            "With --emit fhir: post each record's DocumentReference, its documents inline, to this FHIR server (a conditional update or create, one per patient and period; see docs/fhir.md)."
    )
    var post: String?

    @OptionGroup var server: ServerOptions

    @Option(help: "With --emit fhir: the DocumentReference type as SYSTEM|CODE[|DISPLAY] (default http://loinc.org|34133-9).")
    var documentType: String?

    @Option(help: "Record field used as the id in failures.jsonl (default: id or patient.id).")
    var id: String?

    @Option(help: "Parallel workers; all cores by default.")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @OptionGroup var theme: ThemeOption

    @OptionGroup var htmlOutput: HTMLOutputOption

    @Flag(help: "Skip records whose output files already exist.")
    var resume = false

    @Option(help: "K/N: render only the records whose number ≡ K (mod N).")
    var shard: String?

    @Flag(help: "Stop at the first failed record.")
    var failFast = false

    @Flag(help: "Fail a record whose layout report has warnings (a keep rule broken, text cut, missing glyphs, an image without alt text).")
    var strict = false

    @OptionGroup var lenient: LenientOption

    @Flag(help: "No progress bar or progress lines.")
    var quiet = false

    @Option(help: "Seconds one record may take to render; a record still rendering then fails alone.")
    var timeLimit = 120.0

    @OptionGroup var renderWorkers: RenderWorkerOption

    @OptionGroup var signing: SigningOptions

    func validate() throws {
        guard (1...256).contains(jobs) else { throw ValidationError("--jobs must be between 1 and 256") }
        let formats = try formats()
        if htmlOutput.html != nil, !formats.contains(.html) {
            throw ValidationError("--html needs HTML output (--format html or pdf,html)")
        }
        _ = try shardValue()
        if let emit, emit != "fhir" { throw ValidationError("--emit takes fhir") }
        if documentType != nil, emit == nil { throw ValidationError("--document-type needs --emit fhir") }
        if post != nil, emit == nil { throw ValidationError("--post needs --emit fhir") }
        if let attach, attach != "fhir" { throw ValidationError("--attach takes fhir") }
        if attach != nil, dataFormat.dataFormat != .fhir { throw ValidationError("--attach fhir needs --data-format fhir") }
        if attach != nil, !formats.contains(.pdf) { throw ValidationError("--attach fhir embeds the Bundle in PDFs; add pdf to --format") }
        if signing.isSigning, !formats.contains(.pdf) { throw ValidationError("--sign-key signs PDFs; add pdf to --format") }
    }

    func formats() throws -> [OutputFormat] {
        let list = try format.split(separator: ",").map { item -> OutputFormat in
            guard let format = OutputFormat(rawValue: item.trimmingCharacters(in: .whitespaces).lowercased()) else {
                throw ValidationError("unknown format '\(item)'; use pdf, html, xlsx or csv, comma-separated")
            }
            return format
        }
        guard !list.isEmpty else { throw ValidationError("--format needs pdf, html, xlsx or csv, comma-separated") }
        return list
    }

    func shardValue() throws -> (index: Int, count: Int)? {
        guard let shard else { return nil }
        let parts = shard.split(separator: "/")
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (0..<n).contains(k) else {
            throw ValidationError("--shard takes K/N with 0 ≤ K < N, e.g. 0/4")
        }
        return (k, n)
    }

    func run() throws {
        var options = BatchOptions(
            template: URL(fileURLWithPath: template), data: data, outputDirectory: URL(fileURLWithPath: outputDirectory),
            formats: try formats(), namePattern: name ?? (dataFormat.dataFormat == .fhir ? "{{patient.id}}" : "record-{{$number}}"),
            idField: id, jobs: jobs, resume: resume,
            shard: try shardValue(), failFast: failFast)
        let summary: BatchSummary
        var poster: DocumentPoster?
        do {
            if let post {
                // The server and its authorization checked before anything is rendered.
                let address = try ServerURL(post, field: "--post")
                let authorization = try server.authorization(base: address, neededScopes: ["system/DocumentReference.cus"])
                _ = try authorization.header()
                poster = DocumentPoster(
                    session: ServerSession(base: address, authorization: authorization, connection: server.connection),
                    folder: URL(fileURLWithPath: outputDirectory), template: (template as NSString).lastPathComponent)
            }
            options.theme = try theme.load()
            options.strictLayout = strict
            options.lenient = lenient.lenient
            options.html = htmlOutput.html ?? .page
            options.workers = renderWorkers.workers(timeLimit: timeLimit)
            options.fhir = try dataFormat.fhirOptions()
            if attach != nil {
                options.fhir?.keepsRecordBundles = true
                options.attachesFHIR = true
            }
            options.zone = dataFormat.zone
            options.signer = try signing.load { StandardStreams.printError("folio: warning: \($0)") }
            if emit != nil {
                options.documentReferences = try documentType.map { try FHIRDocumentReference.DocumentType(parsing: $0) } ?? .summary
            }
            let runner = try BatchRunner(options: options)
            let signals = [SIGINT, SIGTERM, SIGHUP].map { number -> DispatchSourceSignal in
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { runner.cancel() }
                source.resume()
                return source
            }
            defer { signals.forEach { $0.cancel() } }
            let source = SourceFile(template)
            source?.origins = runner.templateOrigins
            let display = ProgressDisplay(mode: quiet ? .quiet : isatty(STDERR_FILENO) == 1 ? .bar : .lines, template: source)
            summary = try runner.run(progress: display)
        } catch {
            // The template's syntax (or an include) at the line that holds it.
            let located = (error as? FolioError).flatMap { $0.position == nil ? nil : SourceFile(template)?.describe($0, as: "error") }
            StandardStreams.printError(located ?? StandardStreams.describe(error))
            throw ExitCode(1)
        }
        let failuresPath = URL(fileURLWithPath: outputDirectory).appendingPathComponent(options.logName(BatchRunner.failuresName)).path
        let refused = summary.interrupted ? 0 : try postReferences(with: poster, options: options, failures: failuresPath)
        var line = "folio: \(summary.written) written"
        if summary.skipped > 0 { line += ", \(summary.skipped) skipped" }
        line += ", \(summary.failed) failed"
        line += String(format: " in %.1f s (%.1f documents/s)", summary.seconds, summary.rate)
        if summary.failed > 0 { line += "; see \(failuresPath)" }
        if summary.interrupted { line += "; interrupted: run again with --resume" }
        if !quiet || summary.failed > 0 || summary.interrupted {
            StandardStreams.printError(line)
        }
        if summary.interrupted { throw ExitCode(130) }
        if summary.failed > 0 || refused > 0 { throw ExitCode(1) }
    }

    /// Posts the batch's references with `poster` (if any); a refusal is a line of failures.jsonl.
    /// Returns how many the server refused.
    private func postReferences(with poster: DocumentPoster?, options: BatchOptions, failures: String) throws -> Int {
        guard let poster else { return 0 }
        do {
            let bundle = try BoundedFile.read(
                options.outputDirectory.appendingPathComponent(options.bundleName).path, limit: 1 << 30, field: "--post",
                what: "transaction Bundle", regularOnly: true)
            let results = try poster.post(bundle: bundle, skipPosted: resume)
            let refused = results.filter { $0.error != nil }
            if !refused.isEmpty, let handle = FileHandle(forWritingAtPath: failures) ?? Self.created(failures) {
                defer { try? handle.close() }
                _ = try? handle.seekToEnd()
                for result in refused {
                    let line: [String: Any] = ["record": NSNull(), "id": result.subject, "error": result.error ?? ""]
                    if let data = try? JSONSerialization.data(withJSONObject: line, options: [.sortedKeys, .withoutEscapingSlashes]) {
                        try? handle.write(contentsOf: data + Data("\n".utf8))
                    }
                }
            }
            if !quiet || !refused.isEmpty {
                StandardStreams.printError(
                    "folio: posted \(results.count - refused.count) DocumentReferences to \(poster.session.base.shown)"
                        + (refused.isEmpty ? "" : ", \(refused.count) refused; see \(failures)"))
            }
            return refused.count
        } catch {
            StandardStreams.printError(StandardStreams.describe(error))
            throw ExitCode(1)
        }
    }

    private static func created(_ path: String) -> FileHandle? {
        FileManager.default.createFile(atPath: path, contents: nil) ? FileHandle(forWritingAtPath: path) : nil
    }
}
