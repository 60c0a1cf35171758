import Folio
import FolioData
import FolioFHIR
import FolioFiles
import FolioGraphics
import FolioTemplate
import FolioWorkers
import Foundation

/// Renders one template for every record of a data file on all cores.
///
/// A reader thread streams records into a bounded queue; worker threads bind,
/// render and write each document (temporary name, then rename); this thread
/// collects results into `manifest.jsonl` and `failures.jsonl` and reports progress.
/// A bad record fails alone.
public final class BatchRunner: Sendable {
    /// File names a batch writes beside the documents.
    public static let manifestName = "manifest.jsonl", failuresName = "failures.jsonl"

    private let options: BatchOptions
    /// The template's tree as JSON, its includes in place: what a render worker is set up with.
    private let templateData: Data
    /// Which file holds each of the template's fields (it may include others).
    package let templateOrigins: SourceOrigins
    private let template: DocumentTemplate
    private let renderOptions: RenderOptions
    /// Writes a record's documents in this process (`--in-process`).
    private let writer: BatchDocumentWriter
    /// Each record's file names (`--name`).
    private let naming: FileNaming
    private let cancelled = Locked(false)

    /// Loads the template; a bad template is an error before anything is written.
    public init(options: BatchOptions) throws {
        var options = options
        // A worker's failures name what it was given: "the record needs more than 512 MB".
        options.workers?.workName = "record"
        self.options = options
        try options.workers?.validate()
        naming = try FileNaming(pattern: options.namePattern)
        let read = try DocumentTemplate.read(options.template.path)
        // The reader's zone where the template names none: workers are sent it in the template.
        (template, templateOrigins) = (read.template.withDefaultZone(options.zone), read.origins)
        // Workers are sent the template as read, its includes in place.
        templateData = Data(template.tree.json.utf8)
        if options.signer != nil, !options.formats.contains(.pdf) {
            throw FolioError(path: "--sign-key", "signs PDFs, and this batch writes none (--format)")
        }
        var renderOptions = RenderOptions(
            baseDirectory: options.template.deletingLastPathComponent(), theme: options.theme,
            html: options.html)
        renderOptions.signer = options.signer
        self.renderOptions = renderOptions
        writer = BatchDocumentWriter(
            template: template, renderOptions: renderOptions, formats: options.formats, outputDirectory: options.outputDirectory,
            strictLayout: options.strictLayout, lenient: options.lenient, attachmentHashes: options.documentReferences != nil,
            attachesFHIR: options.attachesFHIR)
    }

    /// Asks a running batch to stop after the documents being rendered; callable from any thread.
    public func cancel() { cancelled.set(true) }

    private enum Outcome {
        /// `reference`: the record's DocumentReference file, when the batch writes them.
        case written(number: Int, files: [BatchDocumentWriter.WrittenFile], reference: String?)
        case skipped(number: Int, reference: String?)
        case failed(number: Int, id: String?, error: String)
    }

    /// Runs the batch. Throws only for problems with the whole batch (unreadable data,
    /// duplicate file names); bad records are counted in the summary and `failures.jsonl`.
    public func run(progress: BatchProgress?) throws -> BatchSummary {
        let start = Date()
        try prepareOutputFolder()
        let dataPath = try options.fhir.map { try fhirRecordsPath($0, progress: progress) } ?? spooledDataPath()
        defer { if dataPath != options.data { try? FileManager.default.removeItem(atPath: dataPath) } }

        let manifestURL = options.outputDirectory.appendingPathComponent(options.logName(BatchRunner.manifestName))
        // A killed run may have renamed a file into place without logging it: on --resume, a record is
        // skipped only when every one of its files exists and has its manifest line; the rest are rendered again.
        let recordedFiles = options.resume ? BatchRunner.filesListed(in: manifestURL) : []
        let work = BlockingQueue<DataRecord>(capacity: options.jobs * 2)
        let results = BlockingQueue<Outcome>(capacity: options.jobs * 4)
        let jobs = try startJobs(work: work, results: results, recordedFiles: recordedFiles)
        /// Stops the threads, and their workers, when the batch cannot begin.
        func abandon() {
            work.close()
            while case .item = results.pop() {}
        }
        var summary = BatchSummary()
        let manifest: LineWriter
        let failures: LineWriter
        do {
            // Nothing is written before the names are known to be unique.
            summary.total = try checkNames(dataPath: dataPath)
            if options.lenient, let progress {
                for warning in try unknownKeys(dataPath: dataPath) { progress.warned(warning) }
            }
            // The manifest is locked while the batch runs: a second batch into the same folder (and shard) is refused.
            manifest = try LineWriter(url: manifestURL, append: options.resume, exclusive: true)
            failures = try LineWriter(
                url: options.outputDirectory.appendingPathComponent(options.logName(BatchRunner.failuresName)),
                append: options.resume)
        } catch {
            abandon()
            throw error
        }
        progress?.started(total: summary.total)
        jobs.started.wait()
        if let error = jobs.startError.value {
            abandon()
            throw error
        }
        let readerError = startReader(of: dataPath, into: work)
        let references = collect(results, into: &summary, manifest: manifest, failures: failures, since: start, progress: progress)
        manifest.close()
        failures.close()
        if let error = manifest.error ?? failures.error { throw error }
        if options.documentReferences != nil {
            // One transaction Bundle of every reference, in record order, for a single POST to a FHIR server.
            try FHIRDocumentReference.writeTransaction(
                of: references.sorted { $0.number < $1.number }.map { options.outputDirectory.appendingPathComponent($0.name) },
                to: options.outputDirectory.appendingPathComponent(options.bundleName))
        }
        summary.seconds = Date().timeIntervalSince(start)
        summary.interrupted = cancelled.value && !(options.failFast && summary.failed > 0)
        if let error = readerError.value { throw error }
        progress?.finished(summary)
        return summary
    }

    /// The output folder made (a file in its place refused), and the temporary files a killed run
    /// left in it removed (those of a running process, another shard, stay).
    private func prepareOutputFolder() throws {
        let fileManager = FileManager.default
        var isFolder: ObjCBool = false
        if fileManager.fileExists(atPath: options.outputDirectory.path, isDirectory: &isFolder), !isFolder.boolValue {
            throw FolioError(path: "--out", "\(options.outputDirectory.path) exists and is not a folder")
        }
        do {
            try fileManager.createDirectory(at: options.outputDirectory, withIntermediateDirectories: true)
        } catch {
            throw FolioError(path: "--out", "cannot create the folder \(options.outputDirectory.path)")
        }
        AtomicFile.removeStaleTemporaries(in: options.outputDirectory)
    }

    /// Starts the job threads: each starts its own worker process while the caller checks the data
    /// file's names (the two overlap), then renders the records `work` gives into `results`, which
    /// the last thread to end closes. `started` is done when every worker has started (and loaded
    /// its fonts); `startError` holds the first that could not.
    private func startJobs(
        work: BlockingQueue<DataRecord>, results: BlockingQueue<Outcome>, recordedFiles: Set<String>
    ) throws -> (started: DispatchGroup, startError: Locked<(any Error)?>) {
        let setup = try options.workers.map { _ in
            try BatchWorkerJob.setup(options: options, templateData: templateData, renderOptions: renderOptions)
        }
        let started = DispatchGroup()
        let startError = Locked<(any Error)?>(nil)
        let remaining = Locked(max(options.jobs, 1))
        for _ in 0..<max(options.jobs, 1) {
            started.enter()
            let thread = Thread { [self] in
                var worker: RenderWorkerProcess?
                if let settings = options.workers, let setup {
                    do {
                        worker = try RenderWorkerProcess(settings: settings, setup: setup)
                    } catch {
                        startError.withLock { $0 = $0 ?? error }
                    }
                }
                started.leave()
                while case .item(let record) = work.pop() {
                    if cancelled.value || startError.value != nil { continue }
                    results.push(process(record, in: &worker, recordedFiles: recordedFiles))
                }
                worker?.terminate()
                if remaining.withLock({ count in
                    count -= 1
                    return count
                }) == 0 {
                    results.close()
                }
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        return (started, startError)
    }

    /// Starts the thread that reads the records of `dataPath` (those the options select) into
    /// `work` and closes it at the end; returns where the thread leaves a reading error.
    private func startReader(of dataPath: String, into work: BlockingQueue<DataRecord>) -> Locked<(any Error)?> {
        let readerError = Locked<(any Error)?>(nil)
        let readerThread = Thread { [self] in
            do {
                let reader = try RecordReader(path: dataPath)
                reader.projection = recordProjection
                while !cancelled.value, let record = try reader.next() {
                    if options.selects(record.number) && !work.push(record) { break }
                }
            } catch {
                readerError.set(error)
            }
            work.close()
        }
        readerThread.start()
        return readerError
    }

    /// Takes every outcome from `results` until the job threads end: counted in `summary`, each
    /// written file a line of `manifest`, each failure a line of `failures` (the first stopping the
    /// batch with --fail-fast), progress reported every 0.1 s. Returns the DocumentReference files
    /// written or kept, by record number.
    private func collect(
        _ results: BlockingQueue<Outcome>, into summary: inout BatchSummary, manifest: LineWriter, failures: LineWriter,
        since start: Date, progress: BatchProgress?
    ) -> [(number: Int, name: String)] {
        var references: [(number: Int, name: String)] = []
        var lastReport = Date.distantPast
        loop: while true {
            switch results.pop(timeout: 0.2) {
            case .finished: break loop
            case .timedOut: break
            case .item(let outcome):
                switch outcome {
                case .written(let number, let files, let reference):
                    summary.written += 1
                    if let reference { references.append((number, reference)) }
                    // Boxes instead of letters, said for the record whatever is asked (--strict fails it instead).
                    for message in Set(files.flatMap(\.missingGlyphs)).sorted() {
                        progress?.warned(FolioError(path: "record \(number)", message))
                    }
                    for file in files {
                        manifest.write(jsonObject: [
                            ("record", .number(Double(number))), ("file", .string(file.name)),
                            ("bytes", .number(Double(file.bytes))),
                            ("pages", file.pages.map { .number(Double($0)) } ?? .null),
                            ("sha256", .string(file.sha256)),
                        ])
                    }
                case .skipped(let number, let reference):
                    summary.skipped += 1
                    if let reference { references.append((number, reference)) }
                case .failed(let number, let id, let error):
                    summary.failed += 1
                    failures.write(jsonObject: [
                        ("record", .number(Double(number))), ("id", id.map(TreeValue.string) ?? .null),
                        ("error", .string(error)),
                    ])
                    if options.failFast { cancelled.set(true) }
                }
            }
            if Date().timeIntervalSince(lastReport) >= 0.1 {
                lastReport = Date()
                summary.seconds = Date().timeIntervalSince(start)
                progress?.progressed(summary)
            }
        }
        return references
    }

    // MARK: per record

    /// Writes `record`'s documents in this thread, or in the thread's worker process `worker`
    /// (replaced when it has died); files listed in `recordedFiles` are skipped on --resume.
    private func process(_ record: DataRecord, in worker: inout RenderWorkerProcess?, recordedFiles: Set<String>) -> Outcome {
        let value: TreeValue
        switch record.value {
        case .failure(let error): return .failed(number: record.number, id: nil, error: error.description)
        case .success(let tree): value = tree
        }
        let id = identifier(of: value)
        do {
            let names = try options.formats.map {
                try naming.name(record: value, number: record.number, format: $0)
            }
            let reference = options.documentReferences.map { _ in FHIRDocumentReference.fileName(forDocument: names[0]) }
            if options.resume,
                (names + [reference].compactMap { $0 }).allSatisfy({ name in
                    recordedFiles.contains(name)
                        && FileManager.default.fileExists(atPath: options.outputDirectory.appendingPathComponent(name).path)
                })
            {
                return .skipped(number: record.number, reference: reference)
            }
            // A DocumentReference needs its subject: a record without one fails before anything is written.
            if options.documentReferences != nil { _ = try FHIRDocumentReference.subject(of: value) }
            var files: [BatchDocumentWriter.WrittenFile]
            if let settings = options.workers {
                files = try writeInWorker(value, json: record.json, number: record.number, names: names, &worker, settings)
            } else {
                files = try writer.write(value, number: record.number, names: names)
            }
            if let reference, let type = options.documentReferences {
                files.append(try writeReference(reference, type: type, record: value, documents: files))
            }
            return .written(number: record.number, files: files, reference: reference)
        } catch {
            return .failed(number: record.number, id: id, error: "\(error)")
        }
    }

    /// Writes the FHIR DocumentReference `name` for a record's written `documents` (their sizes,
    /// hashes and title come from the writer: nothing is bound or read again).
    private func writeReference(
        _ name: String, type: FHIRDocumentReference.DocumentType, record: TreeValue, documents: [BatchDocumentWriter.WrittenFile]
    ) throws -> BatchDocumentWriter.WrittenFile {
        let attached = zip(documents, options.formats).map { file, format in
            FHIRDocumentReference.Attached(
                name: file.name, contentType: format.mediaType, bytes: file.bytes, sha1: file.sha1, sha256: file.sha256, title: file.title,
                language: file.language)
        }
        let resource = try FHIRDocumentReference.resource(
            for: attached, record: record, type: type, created: try DocumentDate.resolve(Metadata()))
        let data = Data((resource.json + "\n").utf8)
        try AtomicFile.write(data, to: options.outputDirectory.appendingPathComponent(name))
        return BatchDocumentWriter.WrittenFile(name: name, bytes: data.count, pages: nil, sha256: SHA256Digest.hex(data))
    }

    /// Has the thread's worker process write the record; a worker that dies (or runs past the time
    /// limit) fails this record only, its half-written files are removed, and it is replaced.
    private func writeInWorker(
        _ record: TreeValue, json: [UInt8]?, number: Int, names: [String], _ slot: inout RenderWorkerProcess?,
        _ settings: WorkerSettings
    ) throws -> [BatchDocumentWriter.WrittenFile] {
        let worker: RenderWorkerProcess
        if let running = slot, !running.isDead {
            worker = running
        } else {
            slot = nil
            worker = try RenderWorkerProcess(
                settings: settings,
                setup: try BatchWorkerJob.setup(options: options, templateData: templateData, renderOptions: renderOptions))
            slot = worker
        }
        let request = BatchWorkerJob.request(record: record, json: json, number: number, names: names, seconds: settings.timeLimit)
        switch worker.call(request, seconds: settings.timeLimit, activity: "reading record \(number)") {
        case .success(let answer):
            return try BatchWorkerJob.files(in: answer)
        case .failure(let failure):
            if worker.isDead {
                slot = nil
                // Its temporary files, if it died writing one.
                AtomicFile.removeStaleTemporaries(in: options.outputDirectory)
            }
            throw FolioError(path: "", failure.description)
        }
    }

    /// The `file` of every complete line of a manifest.
    static func filesListed(in manifest: URL) -> Set<String> {
        guard let data = try? BoundedFile.read(manifest.path, limit: 1 << 30, field: "", what: "manifest", regularOnly: true) else {
            return []
        }
        var files = Set<String>()
        for line in data.split(separator: UInt8(ascii: "\n")) {
            if let entry = try? JSONTreeParser.parse([UInt8](line)), case .string(let file)? = entry["file"] { files.insert(file) }
        }
        return files
    }

    /// The fields that may identify a record in the failures log, first found first.
    private var identifierPaths: [String] { options.idField.map { [$0] } ?? ["id", "patient.id"] }

    /// What of each record this process reads: with render workers and no FHIR DocumentReference
    /// to write, only the fields of the file names and of the identifier (a worker parses the record
    /// itself, from its text); otherwise the whole record.
    private var recordProjection: JSONProjection {
        guard options.workers != nil, options.documentReferences == nil else { return .whole }
        return JSONProjection(keeping: naming.recordPaths + identifierPaths)
    }

    private func identifier(of record: TreeValue) -> String? {
        for path in identifierPaths {
            if let value = record.value(at: path), value != .null { return value.text }
        }
        return nil
    }

    // MARK: before the run

    /// The FHIR export's records, one JSON line per patient, in a temporary file of the output folder
    /// (removed after the run); the export's problems are told to `progress` as warnings.
    private func fhirRecordsPath(_ fhir: FHIRImportOptions, progress: BatchProgress?) throws -> String {
        guard options.data != "-" else {
            throw FolioError(path: "--data", "FHIR data is read from a file or folder, not standard input")
        }
        let export = try FHIRExport(path: options.data, options: fhir)
        for note in export.notes { progress?.warned(FolioError(path: "--data", note)) }
        let path = options.outputDirectory.appendingPathComponent("\(AtomicFile.temporaryPrefix)\(getpid())-fhir-records.jsonl").path
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw FolioError(path: "", "cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        do {
            var pending = Data()
            try export.forEachRecord { record in
                pending.append(contentsOf: (record.json + "\n").utf8)
                if pending.count >= 1 << 16 {
                    try AtomicFile.writeAll(pending, to: fd)
                    pending.removeAll(keepingCapacity: true)
                }
            } note: {
                progress?.warned(FolioError(path: "--data", $0))
            }
            try AtomicFile.writeAll(pending, to: fd)
        } catch {
            unlink(path)
            // AtomicFile.writeAll says only why (such as "No space left on device"): add what was being written.
            if let failure = error as? FolioError, !failure.message.hasPrefix("cannot"), !failure.message.hasPrefix("the FHIR") {
                throw FolioError(path: "", "cannot write \(path): \(failure.message)")
            }
            throw error
        }
        return path
    }

    /// Standard input is copied to a temporary file so it can be read twice (at most
    /// `InputLimits.spooledDataBytes`; a full disk or a read error is one error line).
    private func spooledDataPath() throws -> String {
        guard options.data == "-" else { return options.data }
        let path = options.outputDirectory.appendingPathComponent("\(AtomicFile.temporaryPrefix)\(getpid())-stdin").path
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FolioError(path: "", "cannot spool standard input to \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var total = 0
        do {
            while true {
                let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw FolioError(path: "", "cannot read standard input: \(String(cString: strerror(errno)))")
                }
                if count == 0 { break }
                total += count
                if total > InputLimits.spooledDataBytes {
                    throw FolioError(path: "", "standard input has more than \(InputLimits.spooledDataBytes) bytes of data")
                }
                try AtomicFile.writeAll(Data(buffer[0..<count]), to: fd)
            }
        } catch let error as FolioError {
            unlink(path)
            // AtomicFile.writeAll says only why (such as "No space left on device"): add what was being written.
            throw error.message.hasPrefix("cannot") || error.message.hasPrefix("standard input")
                ? error : FolioError(path: "", "cannot spool standard input to \(path): \(error.message)")
        }
        return path
    }

    /// The keys no field has in the template as the first selected record fills it (at most 20):
    /// they are the same for every record, so they are told once rather than per document.
    private func unknownKeys(dataPath: String) throws -> [FolioError] {
        let reader = try RecordReader(path: dataPath)
        while let record = try reader.next() {
            guard options.selects(record.number), case .success(let value) = record.value else { continue }
            var warnings: [FolioError] = []
            let bound = try? template.bind(value, number: record.number)
            _ = bound.flatMap { try? DocumentDecoder.decode(Document.self, from: $0, lenient: true) { warnings.append($0) } }
            return Array(warnings.prefix(20))
        }
        return []
    }

    /// Counts the selected records and rejects two records that would write the same file,
    /// before anything is written. Keeps only a hash per name.
    private func checkNames(dataPath: String) throws -> Int {
        let reader = try RecordReader(path: dataPath)
        reader.projection = JSONProjection(keeping: naming.recordPaths)
        var seen: [UInt64: Int] = [:]
        var total = 0
        while let record = try reader.next() {
            guard options.selects(record.number) else { continue }
            total += 1
            guard case .success(let value) = record.value else { continue }
            for format in options.formats {
                guard let name = try? naming.name(record: value, number: record.number, format: format) else { continue }
                var hash: UInt64 = 0xcbf2_9ce4_8422_2325
                for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
                if let first = seen[hash] {
                    throw FolioError(
                        path: "--name",
                        "records \(first) and \(record.number) would both be written to \"\(name)\"; make the pattern unique, for example with {{$number}}"
                    )
                }
                seen[hash] = record.number
            }
        }
        return total
    }
}
