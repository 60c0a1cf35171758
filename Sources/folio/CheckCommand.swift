import ArgumentParser
import Folio
import FolioData
import FolioFHIR
import FolioTemplate
import Foundation

/// `folio check TEMPLATE --data FILE [--data-format …] [--render]` (or `folio check DOCUMENT`): binds and validates a template
/// against every record of a data file, writing nothing, so a batch of thousands is known good (or
/// its bad records known) before it starts.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a template against every record of a data file, without writing anything.",
        discussion: """
            Each record is bound to the template, decoded and validated as folio batch would; with --render it \
            is also laid out and drawn as a PDF (then discarded), and the layout report's warnings are counted \
            by kind. Each failing record is one line on standard error, naming where it is in the data \
            (FILE:LINE for JSON lines, the patient for FHIR data) and the field, such as \
            "patients.jsonl:4: record 4: elements[2].items[0].value: mean needs numbers, but pain[3] is a string". \
            The summary goes to standard output; the exit status is 1 when any record fails.

            Example:
              folio check Templates/weekly-summary.yaml --data Samples/patients.jsonl --render
            """)

    @Argument(help: "The template, JSON or YAML; without --data, a document, checked as folio render would read it.")
    var template: String

    @Option(help: "The data: JSON lines, a JSON array, CSV, or FHIR data with --data-format fhir.")
    var data: String?

    @OptionGroup var dataFormat: DataFormatOption

    @OptionGroup var lenient: LenientOption

    @OptionGroup var theme: ThemeOption

    @Flag(help: "Also lay out and draw each record's PDF (discarded), counting the layout report's warnings by kind.")
    var render = false

    @Option(help: "Print at most this many failing records (all are counted).")
    var maxFailures = 50

    func validate() throws {
        guard maxFailures >= 0 else { throw ValidationError("--max-failures cannot be negative") }
        if data == nil, dataFormat.dataFormat == .fhir { throw ValidationError("--data-format fhir needs --data") }
    }

    func run() throws {
        guard let data else { return try checkDocument() }
        var tally = CheckTally(maxFailures: maxFailures)
        let templateFile = SourceFile(template)
        do {
            let documentTemplate: DocumentTemplate
            do {
                let read = try DocumentTemplate.read(template, regularOnly: false)
                documentTemplate = read.template.withDefaultZone(dataFormat.zone)
                templateFile?.origins = read.origins
            } catch let error as FolioError {
                throw InputFileError(error: error)
            }
            var options = RenderOptions(
                baseDirectory: URL(fileURLWithPath: template).deletingLastPathComponent(), theme: try ThemeOption.load(path: theme.theme))
            options.html = .page
            let checker = RecordChecker(template: documentTemplate, options: options, render: render, lenient: lenient.lenient)
            // Records wait in batches, checked on every core while the next batch is read; their
            // outcomes are said in the data's order.
            var pending: [(record: TreeValue, number: Int, place: String)] = []
            var running:
                (
                    entries: [(record: TreeValue, number: Int, place: String)], outcomes: Locked<[RecordChecker.Outcome]>,
                    done: DispatchSemaphore
                )?
            func report() {
                guard let batch = running else { return }
                running = nil
                batch.done.wait()
                for (entry, outcome) in zip(batch.entries, batch.outcomes.value) {
                    switch outcome {
                    case .passed(let warnings):
                        tally.count(warnings)
                        tally.passed()
                    case .failed(let message, let templateField):
                        let made = templateField.flatMap { $0.isEmpty ? nil : templateFile?.place(ofTemplateField: $0) }
                        tally.failed("\(entry.place): record \(entry.number): \(message)" + (made.map { " (template \($0))" } ?? ""))
                    }
                }
            }
            func flush() {
                report()
                guard !pending.isEmpty else { return }
                let records = pending.map { (record: $0.record, number: $0.number) }
                let outcomes = Locked<[RecordChecker.Outcome]>([])
                let done = DispatchSemaphore(value: 0)
                running = (pending, outcomes, done)
                pending.removeAll(keepingCapacity: true)
                Thread {
                    outcomes.set(checker.check(records, workers: ProcessInfo.processInfo.activeProcessorCount))
                    done.signal()
                }.start()
            }
            func check(_ record: TreeValue, number: Int, place: String) {
                pending.append((record, number, place))
                if pending.count >= RecordChecker.batchSize { flush() }
            }
            if let options = try dataFormat.fhirOptions() {
                let export = try FHIRExport(path: data, options: options)
                for note in export.notes { StandardStreams.printError("folio: warning: --data: \(note)".escapingInvisibleControls) }
                var number = 0
                try export.forEachRecord { record in
                    number += 1
                    check(record, number: number, place: "\(data): patient \(record.value(at: "patient.id")?.text ?? "?")")
                } note: {
                    StandardStreams.printError("folio: warning: --data: \($0)".escapingInvisibleControls)
                }
            } else {
                let reader = try RecordReader(path: data)
                while let record = try reader.next() {
                    let place = reader.lineNumber > 0 ? "\(data):\(reader.lineNumber)" : data
                    switch record.value {
                    case .success(let value): check(value, number: record.number, place: place)
                    case .failure(let error):
                        // Said in its place among the others.
                        flush()
                        report()
                        tally.failed("\(place): record \(record.number): \(error)")
                    }
                }
            }
            flush()
            report()
        } catch let inFile as InputFileError {
            // The template's own field, with the line and column that hold it.
            StandardStreams.printError(
                templateFile?.describe(inFile.error, as: "error") ?? StandardStreams.describe(inFile.error))
            throw ExitCode(1)
        } catch {
            StandardStreams.printError(SourceFile.describeElsewhere(error) ?? StandardStreams.describe(error))
            throw ExitCode(1)
        }
        try StandardStreams.writeOutput(Data((tally.summary + "\n").utf8))
        if tally.failures > 0 { throw ExitCode(1) }
    }
}

extension CheckCommand {
    /// `folio check DOCUMENT [--render]`: the document read, validated and prepared (its images and
    /// files read and checked) as `folio render` would, and with `--render` laid out and drawn; an
    /// error at its file, line and column; nothing written.
    func checkDocument() throws {
        var tally = CheckTally(maxFailures: maxFailures, noun: "document")
        let source = SourceFile(template)
        do {
            let read = try SourceDocument.read(template)
            source?.origins = read.origins
            let document = try DocumentDecoder.decode(
                Document.self, from: read.tree, quotingHint: DocumentDecoder.Format(fileName: template) == .yaml, lenient: lenient.lenient
            ) { warning in
                StandardStreams.printError(source?.describe(warning, as: "warning") ?? "folio: warning: \(warning)")
            }
            var options = RenderOptions(
                baseDirectory: URL(fileURLWithPath: template).deletingLastPathComponent(), theme: try ThemeOption.load(path: theme.theme))
            options.html = .page
            let prepared = try document.prepared(options: options)
            if render { tally.count(try prepared.pdfWithReport(signer: nil).report.warnings.map(\.kind.rawValue)) }
            tally.passed()
        } catch let error as FolioError {
            StandardStreams.printError(source?.describe(error, as: "error") ?? StandardStreams.describe(error))
            throw ExitCode(1)
        } catch {
            StandardStreams.printError(StandardStreams.describe(error))
            throw ExitCode(1)
        }
        try StandardStreams.writeOutput(Data((tally.summary + "\n").utf8))
    }
}

/// What `folio check` found: records checked and failed (the first failures printed as they are
/// found), and the layout report's warnings by kind.
struct CheckTally {
    let maxFailures: Int
    private(set) var checked = 0
    private(set) var failures = 0
    private var warnings: [String: Int] = [:]

    /// What is counted: records, or the one document.
    let noun: String

    init(maxFailures: Int, noun: String = "record") {
        self.maxFailures = maxFailures
        self.noun = noun
    }

    mutating func passed() { checked += 1 }

    /// A failing record: printed while fewer than `maxFailures` have been.
    mutating func failed(_ line: String) {
        checked += 1
        failures += 1
        if failures <= maxFailures { StandardStreams.printError("folio: error: \(line)".escapingInvisibleControls) }
    }

    mutating func count(_ kinds: [String]) { for kind in kinds { warnings[kind, default: 0] += 1 } }

    /// One line: "checked 5 records: 1 failed; layout warnings: overflow 2, missingGlyph 1".
    var summary: String {
        var text = "checked \(checked) \(noun)\(checked == 1 ? "" : "s"): \(failures == 0 ? "none" : String(failures)) failed"
        if failures > maxFailures { text += " (the first \(maxFailures) shown)" }
        if !warnings.isEmpty {
            text +=
                "; layout warnings: "
                + warnings.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        }
        return text
    }
}
