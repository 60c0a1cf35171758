import Foundation

/// Renders one template for every record of a data file on all cores.
///
/// A reader thread streams records into a bounded queue; worker threads bind,
/// render and write each document (temporary name, then rename); this thread
/// collects results into `manifest.jsonl` and `failures.jsonl` and reports progress.
/// A bad record fails alone.
public final class BatchRunner: @unchecked Sendable {
    /// File names a batch writes beside the documents.
    public static let manifestName = "manifest.jsonl", failuresName = "failures.jsonl"

    private let options: BatchOptions
    private let template: DocumentTemplate
    private let renderOptions: RenderOptions
    private let cancelled = Flag()
    /// File names the manifest already lists, read once before a resumed run starts.
    private var recordedFiles: Set<String> = []

    /// Loads the template; a bad template is an error before anything is written.
    public init(options: BatchOptions) throws {
        self.options = options
        let data = try BoundedFile.read(options.template.path, limit: InputLimits.documentBytes, field: "", what: "template")
        template = try DocumentTemplate(data: data, format: DocumentDecoder.Format(fileName: options.template.path))
        renderOptions = RenderOptions(
            baseDirectory: options.template.deletingLastPathComponent(), theme: options.theme,
            html: options.html)
    }

    /// Asks a running batch to stop after the documents being rendered; callable from any thread.
    public func cancel() { cancelled.set() }

    private enum Outcome {
        case written(number: Int, files: [(name: String, bytes: Int, pages: Int?, sha256: String)])
        case skipped(number: Int)
        case failed(number: Int, id: String?, error: String)
    }

    /// Runs the batch. Throws only for problems with the whole batch (unreadable data,
    /// duplicate file names); bad records are counted in the summary and `failures.jsonl`.
    public func run(progress: BatchProgress?) throws -> BatchSummary {
        let start = Date()
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
        // Temporary files left by a killed run; those of a running process (another shard) stay.
        AtomicFile.removeStaleTemporaries(in: options.outputDirectory)
        let dataPath = try spooledDataPath()
        defer { if dataPath != options.data { try? fileManager.removeItem(atPath: dataPath) } }

        var summary = BatchSummary()
        summary.total = try checkNames(dataPath: dataPath)
        progress?.started(total: summary.total)

        let manifestURL = options.outputDirectory.appendingPathComponent(options.logName(BatchRunner.manifestName))
        // A killed run may have renamed a file into place without logging it: on --resume, a record is
        // skipped only when every one of its files exists and has its manifest line; the rest are rendered again.
        recordedFiles = options.resume ? BatchRunner.filesListed(in: manifestURL) : []
        let manifest = try LineWriter(url: manifestURL, append: options.resume)
        let failures = try LineWriter(
            url: options.outputDirectory.appendingPathComponent(options.logName(BatchRunner.failuresName)),
            append: options.resume)
        let work = BlockingQueue<DataRecord>(capacity: options.jobs * 2)
        let results = BlockingQueue<Outcome>(capacity: options.jobs * 4)
        let reader = try RecordReader(path: dataPath)
        let readerError = ErrorBox()
        let readerThread = Thread { [self] in
            do {
                while !cancelled.isSet, let record = try reader.next() {
                    if options.selects(record.number) && !work.push(record) { break }
                }
            } catch {
                readerError.error = error
            }
            work.close()
        }
        readerThread.start()
        let remaining = Counter(options.jobs)
        for _ in 0..<max(options.jobs, 1) {
            let worker = Thread { [self] in
                while case .item(let record) = work.pop() {
                    if cancelled.isSet { continue }
                    results.push(process(record))
                }
                if remaining.decrement() == 0 { results.close() }
            }
            worker.stackSize = 8 << 20
            worker.start()
        }

        var lastReport = Date.distantPast
        loop: while true {
            switch results.pop(timeout: 0.2) {
            case .finished: break loop
            case .timedOut: break
            case .item(let outcome):
                switch outcome {
                case .written(let number, let files):
                    summary.written += 1
                    for file in files {
                        manifest.write(jsonObject: [
                            ("record", .number(Double(number))), ("file", .string(file.name)),
                            ("bytes", .number(Double(file.bytes))),
                            ("pages", file.pages.map { .number(Double($0)) } ?? .null),
                            ("sha256", .string(file.sha256)),
                        ])
                    }
                case .skipped:
                    summary.skipped += 1
                case .failed(let number, let id, let error):
                    summary.failed += 1
                    failures.write(jsonObject: [
                        ("record", .number(Double(number))), ("id", id.map(TreeValue.string) ?? .null),
                        ("error", .string(error)),
                    ])
                    if options.failFast { cancelled.set() }
                }
            }
            if Date().timeIntervalSince(lastReport) >= 0.1 {
                lastReport = Date()
                summary.seconds = Date().timeIntervalSince(start)
                progress?.progressed(summary)
            }
        }
        manifest.close()
        failures.close()
        if let error = manifest.error ?? failures.error { throw error }
        summary.seconds = Date().timeIntervalSince(start)
        summary.interrupted = cancelled.isSet && !(options.failFast && summary.failed > 0)
        if let error = readerError.error { throw error }
        progress?.finished(summary)
        return summary
    }

    // MARK: per record

    private func process(_ record: DataRecord) -> Outcome {
        let value: TreeValue
        switch record.value {
        case .failure(let error): return .failed(number: record.number, id: nil, error: error.description)
        case .success(let tree): value = tree
        }
        let id = identifier(of: value)
        do {
            let names = try options.formats.map {
                try FileNaming.name(pattern: options.namePattern, record: value, number: record.number, format: $0)
            }
            let urls = names.map { options.outputDirectory.appendingPathComponent($0) }
            if options.resume,
                zip(names, urls).allSatisfy({ name, url in
                    recordedFiles.contains(name) && FileManager.default.fileExists(atPath: url.path)
                })
            {
                return .skipped(number: record.number)
            }
            // Validated, themed and with its images read once for every format written.
            let document = try template.documentForRendering(for: value, number: record.number, lenient: options.lenient)
                .prepared(options: renderOptions)
            var files: [(name: String, bytes: Int, pages: Int?, sha256: String)] = []
            if options.strictLayout, !options.formats.contains(.pdf) {
                if let warning = try document.pdfWithReport().report.warnings.first {
                    throw FolioError(path: warning.path, "layout: \(warning.message)")
                }
            }
            for (format, url) in zip(options.formats, urls) {
                let rendered: (data: Data, pages: Int?)
                if format == .pdf {
                    let result = try document.pdfWithReport()
                    if options.strictLayout, let warning = result.report.warnings.first {
                        throw FolioError(path: warning.path, "layout: \(warning.message)")
                    }
                    rendered = (result.data, result.pages)
                } else {
                    rendered = try document.renderCountingPages(as: format, options: renderOptions)
                }
                let (data, pages) = rendered
                try AtomicFile.write(data, to: url)
                files.append((url.lastPathComponent, data.count, pages, SHA256Digest.hex(data)))
            }
            return .written(number: record.number, files: files)
        } catch {
            return .failed(number: record.number, id: id, error: "\(error)")
        }
    }

    /// The `file` of every complete line of a manifest.
    static func filesListed(in manifest: URL) -> Set<String> {
        guard let data = try? BoundedFile.read(manifest.path, limit: 1 << 30, field: "", what: "manifest") else { return [] }
        var files = Set<String>()
        for line in data.split(separator: UInt8(ascii: "\n")) {
            if let entry = try? JSONTreeParser.parse([UInt8](line)), case .string(let file)? = entry["file"] { files.insert(file) }
        }
        return files
    }

    private func identifier(of record: TreeValue) -> String? {
        for path in options.idField.map({ [$0] }) ?? ["id", "patient.id"] {
            if let value = record.value(at: path), value != .null { return value.text }
        }
        return nil
    }

    // MARK: before the run

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

    /// Counts the selected records and rejects two records that would write the same file,
    /// before anything is written. Keeps only a hash per name.
    private func checkNames(dataPath: String) throws -> Int {
        let reader = try RecordReader(path: dataPath)
        var seen: [UInt64: Int] = [:]
        var total = 0
        while let record = try reader.next() {
            guard options.selects(record.number) else { continue }
            total += 1
            guard case .success(let value) = record.value else { continue }
            for format in options.formats {
                guard
                    let name = try? FileNaming.name(
                        pattern: options.namePattern, record: value, number: record.number,
                        format: format)
                else { continue }
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
