import Folio
import FolioBatch
import FolioData
import FolioFHIR
import FolioFiles
import FolioModel
import FolioSheets
import Foundation
import Logging

/// Runs the store's jobs in the service's job workers (`RenderService.jobPool`, at a lower CPU priority
/// than requests' workers): twice as many jobs at once as there are workers, each with up to
/// twice that many records in flight. A job is held under a lease renewed every few seconds; a server that is
/// killed leaves its job to the next `claim` (its own restart takes it back at once), which renders
/// only the records the manifest does not list yet, under the same file names.
final class JobRunner: Sendable {
    let store: any JobStore
    let folder: JobFolder
    private let pool: RenderPool<RequestRenderer>
    private let settings: ServerSettings
    private let metrics: ServerMetrics
    private let logger: Logger
    let owner = LeaseOwner.thisProcess()
    /// Seconds a lease lasts; it is renewed at a third of that.
    let leaseSeconds: Double
    private let stopped = Locked(false)
    /// Counts the jobs this server accepted: an idle loop looks for work as soon as it changes.
    private let accepted = Locked(0)

    init(
        store: any JobStore, folder: JobFolder, pool: RenderPool<RequestRenderer>, settings: ServerSettings,
        metrics: ServerMetrics, logger: Logger
    ) {
        self.store = store
        self.folder = folder
        self.pool = pool
        self.settings = settings
        self.metrics = metrics
        self.logger = logger
        leaseSeconds = settings.jobs?.leaseSeconds ?? 30
    }

    /// Runs twice `settings.workers` job loops until `stop`, each claiming the next job when it is free.
    func run() async {
        await withTaskGroup(of: Void.self) { group in
            // Twice as many as workers: one job's bookkeeping (its store's transactions, its files) while others render.
            for _ in 0..<(2 * max(1, settings.workers)) {
                group.addTask { await self.loop() }
            }
        }
    }

    /// Tells the idle loops a job was just stored (another server's jobs are found within 200 ms).
    func wake() { accepted.withLock { $0 += 1 } }

    /// Stops claiming jobs; the jobs running stop at their next record and stay for the next claim.
    func stop() { stopped.set(true) }

    private func loop() async {
        while !stopped.value && !Task.isCancelled {
            let now = Date().timeIntervalSince1970
            let claimed: Job?
            do {
                claimed = try await store.claim(owner: owner, now: now, leaseUntil: now + leaseSeconds)
            } catch {
                logger.error("the job store failed", metadata: ["error": .string("\(error)")])
                claimed = nil
            }
            guard let job = claimed else {
                let seen = accepted.value
                for _ in 0..<40 where accepted.value == seen && !stopped.value {
                    try? await Task.sleep(nanoseconds: 5_000_000)
                }
                continue
            }
            // A job started by this claim has never run: it has no documents, manifest or leftovers yet.
            let firstRun = job.started.map { abs($0 - now) < 1e-6 } ?? false
            if firstRun, let started = job.started {
                metrics.jobQueueWait(seconds: max(0, started - job.created))
            }
            logger.info("job started", metadata: ["job": .string(job.id), "client": .string(job.client)])
            await run(job, firstRun: firstRun)
        }
    }

    /// What became of one record.
    private enum RecordOutcome: Sendable {
        case written(number: Int, files: [JobFolder.Document])
        case failed(JobFolder.Failure)
        /// The server stopped before the record was rendered: it is neither written nor failed, and
        /// the next claim renders it.
        case stopped
    }

    /// The job's counts and whether it should stop, shared by its records and its lease.
    private struct Progress: Sendable {
        var total = 0
        var written = 0
        var failed = 0
        var cancelRequested = false
        var leaseLost = false
    }

    private func run(_ job: Job, firstRun: Bool) async {
        let progress = Locked(Progress())
        let lease = Task {
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: UInt64(leaseSeconds / 3 * 1e9))
                if Task.isCancelled { return }
                let counts = progress.withLock { ($0.total, $0.written, $0.failed) }
                let now = Date().timeIntervalSince1970
                guard
                    let renewed = try? await store.renew(
                        id: job.id, owner: owner, leaseUntil: now + leaseSeconds, total: counts.0, written: counts.1, failed: counts.2)
                else { continue }
                progress.withLock {
                    $0.leaseLost = !renewed.held
                    $0.cancelRequested = renewed.cancelRequested
                }
            }
        }
        defer { lease.cancel() }
        var finished = job
        do {
            try await render(job, firstRun: firstRun, progress: progress)
            let state = progress.withLock { $0 }
            if state.leaseLost { return }
            finished.state = state.cancelRequested ? .cancelled : .done
            (finished.total, finished.written, finished.failed) = (state.total, state.written, state.failed)
        } catch is CancellationError {
            // The server is stopping: the job stays running under its lease, for the next claim.
            logger.info("job left for the next server", metadata: ["job": .string(job.id)])
            return
        } catch {
            let state = progress.withLock { $0 }
            if state.leaseLost { return }
            finished.state = .failed
            finished.error = (error as? FolioError)?.description ?? "\(error)"
            (finished.total, finished.written, finished.failed) = (state.total, state.written, state.failed)
        }
        finished.finished = Date().timeIntervalSince1970
        let event = finished.webhook.flatMap { url in
            finished.state == .cancelled ? nil : WebhookEvent.delivery(for: finished, url: url)
        }
        do {
            switch try await store.finish(finished, owner: owner, event: event) {
            case .notHeld: return
            case .finished: break
            case .removed:
                folder.remove(job.id)
                logger.info("job cancelled and removed", metadata: ["job": .string(job.id)])
                return
            }
        } catch {
            logger.error("the job store failed", metadata: ["job": .string(job.id), "error": .string("\(error)")])
            return
        }
        logger.info(
            "job finished",
            metadata: [
                "job": .string(job.id), "state": .string(finished.state.rawValue), "written": .stringConvertible(finished.written),
                "failed": .stringConvertible(finished.failed),
            ])
    }

    /// Renders every record of `job` the manifest does not list yet, up to twice `settings.workers` at
    /// once. A `firstRun` (the job's first claim) has nothing on the disk to clean up or skip, so neither
    /// its folders nor its lists are read. (Were a claim's commit lost with the power, the job's second
    /// first run renders every record again under the same names; the manifest's last line for a name wins.)
    private func render(_ job: Job, firstRun: Bool, progress: Locked<Progress>) async throws {
        if !firstRun {
            // What a killed server was writing when it died.
            AtomicFile.removeStaleTemporaries(in: folder.documents(job.id))
            AtomicFile.removeStaleTemporaries(in: folder.folder(job.id))
        }
        if let template = job.template, settings.templates[template] == nil {
            throw FolioError(path: "template", "the service has no template \"\(template)\" any more (it was removed from --templates)")
        }
        // FHIR data is converted to records first, off the cooperative threads; other input is read as it is.
        let source = job.input.isFHIR ? try await JobRunner.detached { try self.recordsPath(of: job) } : folder.input(job)
        let manifest = try LineWriter(url: folder.manifest(job.id), append: true)
        // Opened at the first failure: most jobs have none, and need no empty file.
        var failures: LineWriter?
        defer {
            manifest.close()
            failures?.close()
        }
        let done = firstRun ? [] : Set(folder.documentsListed(job.id).map(\.number))
        let failedBefore = firstRun ? [] : folder.failuresListed(job.id)
        let failedNumbers = Set(failedBefore.map(\.number)).subtracting(done)
        let total = try job.input.isDocument ? 1 : JobRunner.count(records: source, format: JobRunner.recordFormat(job))
        progress.withLock {
            $0.total = total
            $0.written = done.count
            $0.failed = failedNumbers.count
        }
        // Twice the workers: a worker that finishes a record finds the next one queued.
        let window = 2 * max(1, settings.workers)
        var interrupted = false
        try await withThrowingTaskGroup(of: RecordOutcome.self) { group in
            var inFlight = 0
            func record(_ outcome: RecordOutcome) throws {
                if case .stopped = outcome {
                    interrupted = true
                    return
                }
                do {
                    switch outcome {
                    case .written(let number, let files):
                        manifest.write(jsonObject: [
                            ("number", .number(Double(number))),
                            (
                                "files",
                                .array(
                                    files.map {
                                        .object([
                                            (key: "name", value: .string($0.name)), (key: "bytes", value: .number(Double($0.bytes))),
                                            (key: "sha256", value: .string($0.sha256)),
                                        ])
                                    })
                            ),
                        ])
                        if let error = manifest.error { throw error }
                    case .stopped: return
                    case .failed(let failure):
                        let writer = try failures ?? LineWriter(url: folder.failures(job.id), append: true)
                        failures = writer
                        writer.write(jsonObject: [
                            ("number", .number(Double(failure.number))), ("id", failure.id.map(TreeValue.string) ?? .null),
                            ("error", .string(failure.error)),
                        ])
                        if let error = writer.error { throw error }
                    }
                }
                progress.withLock {
                    if case .written = outcome { $0.written += 1 } else { $0.failed += 1 }
                }
                metrics.jobRecord(written: { if case .written = outcome { return true } else { return false } }())
            }
            if job.input.isDocument {
                if !done.contains(1) && !failedNumbers.contains(1) {
                    let data = try Data(contentsOf: source)
                    group.addTask { await self.renderRecord(job, number: 1, data: data, id: nil) }
                }
            } else {
                let reader = try RecordReader(path: source.path, format: JobRunner.recordFormat(job))
                while let next = try reader.next() {
                    if done.contains(next.number) || failedNumbers.contains(next.number) { continue }
                    let stop = progress.withLock { $0.cancelRequested || $0.leaseLost }
                    if stop || stopped.value || interrupted || Task.isCancelled { break }
                    if inFlight >= window, let outcome = try await group.next() {
                        inFlight -= 1
                        try record(outcome)
                    }
                    switch next.value {
                    case .failure(let error):
                        try record(.failed(JobFolder.Failure(number: next.number, id: nil, error: error.description)))
                    case .success(let value):
                        let data = next.json.map { Data($0) } ?? Data(value.json.utf8)
                        let id = JobRunner.identifier(of: value)
                        group.addTask { await self.renderRecord(job, number: next.number, data: data, id: id) }
                        inFlight += 1
                    }
                }
            }
            while let outcome = try await group.next() { try record(outcome) }
        }
        if stopped.value || interrupted { throw CancellationError() }
    }

    /// Renders one record (or the job's document) in every format of the job and writes its files.
    private func renderRecord(_ job: Job, number: Int, data: Data, id: String?) async -> RecordOutcome {
        var files: [JobFolder.Document] = []
        do {
            for format in job.formats {
                var parameters = try RenderParameters(query: [])
                parameters.format = OutputFormat(rawValue: format) ?? .pdf
                parameters.html = HTMLRenderer.Output(rawValue: job.html) ?? .page
                let input: RenderRequest.Input =
                    switch job.input {
                    case .documentJSON: .document(data, .json)
                    case .documentYAML: .document(data, .yaml)
                    default: .template(name: job.template ?? "", record: data)
                    }
                let request = RenderRequest(input: input, parameters: parameters)
                let seconds = settings.timeout
                // The record's time limit starts when a worker takes it, not while it waits for one.
                let body = try await pool.runInBackground(deadline: RenderDeadline(seconds: .infinity)) { renderer in
                    try renderer.render(request, deadline: RenderDeadline(seconds: seconds))
                }
                let name = job.input.isDocument ? "document.\(format)" : "record-\(number).\(format)"
                try AtomicFile.write(body.bytes, to: folder.documents(job.id).appendingPathComponent(name))
                files.append(JobFolder.Document(number: number, name: name, bytes: body.bytes.count, sha256: SHA256Digest.hex(body.bytes)))
            }
            return .written(number: number, files: files)
        } catch is CancellationError {
            return .stopped
        } catch is RenderDeadline.Expired {
            return .failed(
                JobFolder.Failure(number: number, id: id, error: "took longer than \(SecondsText(settings.timeout)) s (--timeout)"))
        } catch let error as FolioError {
            return .failed(JobFolder.Failure(number: number, id: id, error: error.description))
        } catch {
            return .failed(JobFolder.Failure(number: number, id: id, error: "\(error)"))
        }
    }

    /// The file the job's records (or its document) are read from: what the client sent, or for FHIR
    /// data its records, one JSON line per patient, made again on each run (the same every time).
    private func recordsPath(of job: Job) throws -> URL {
        let input = folder.input(job)
        guard job.input.isFHIR else { return input }
        let options = try FHIRImportOptions(period: job.period, zone: job.zone, allPatients: true)
        let export = try FHIRExport(path: input.path, options: options)
        let records = folder.folder(job.id).appendingPathComponent("records.jsonl")
        try AtomicFile.write(to: records) { fd in
            var pending = Data()
            try export.forEachRecord { record in
                pending.append(contentsOf: (record.json + "\n").utf8)
                if pending.count >= 1 << 16 {
                    try AtomicFile.writeAll(pending, to: fd)
                    pending.removeAll(keepingCapacity: true)
                }
            }
            try AtomicFile.writeAll(pending, to: fd)
        }
        return records
    }

    private static func recordFormat(_ job: Job) -> RecordReader.Format {
        switch job.input {
        case .jsonArray: return .jsonArray
        case .csv: return .csv
        default: return .jsonLines
        }
    }

    /// How many records the file holds.
    private static func count(records url: URL, format: RecordReader.Format) throws -> Int {
        let reader = try RecordReader(path: url.path, format: format)
        reader.projection = JSONProjection(keeping: [])
        var count = 0
        while try reader.next() != nil { count += 1 }
        return count
    }

    /// The record's `id` or `patient.id`, as failures name it.
    private static func identifier(of record: TreeValue) -> String? {
        for value in [record["id"], record["patient"]?["id"]] {
            switch value {
            case .string(let text)?: return String(text.prefix(200))
            case .number?: return value?.text
            default: continue
            }
        }
        return nil
    }

    /// Runs blocking `work` (reading and converting files) off the cooperative threads.
    private static func detached<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }
}
