import FolioConnect
import FolioFiles
import FolioModel
import Foundation
import Logging

/// The durable-jobs half of `folio serve`: the store, the folders, the runner and the webhook
/// sender, made when the service starts with `--job-dir`.
final class JobService: Sendable {
    let store: any JobStore
    let folder: JobFolder
    let runner: JobRunner
    let sender: WebhookSender
    let settings: JobSettings
    private let metrics: ServerMetrics
    private let logger: Logger

    init(
        settings server: ServerSettings, jobs settings: JobSettings, pool: RenderPool<RequestRenderer>, metrics: ServerMetrics,
        logger: Logger
    ) throws {
        folder = JobFolder(root: settings.directory)
        try folder.prepare()
        switch try settings.storeLocation() {
        case .sqlite(let path): store = try SQLiteJobStore(path: path)
        case .postgres(let location): store = PostgresJobStore(location: location)
        }
        self.settings = settings
        self.metrics = metrics
        self.logger = logger
        runner = JobRunner(store: store, folder: folder, pool: pool, settings: server, metrics: metrics, logger: logger)
        sender = WebhookSender(store: store, callers: server.callers, settings: settings, owner: runner.owner, logger: logger)
    }

    /// Reaches the store (a PostgreSQL server) and makes its tables; one line naming `--job-store` when it cannot.
    func open() async throws {
        if let store = store as? PostgresJobStore { try await store.open() }
    }

    /// Closes the store's connections.
    func close() {
        (store as? PostgresJobStore)?.close()
    }

    /// Runs the jobs, the webhooks, the job-count gauges and the removal of expired jobs until cancelled.
    func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.runner.run() }
            group.addTask { await self.sender.run() }
            group.addTask { await self.housekeeping() }
            await group.next()
            runner.stop()
            sender.stop()
            group.cancelAll()
        }
    }

    /// Stops claiming jobs and sending events.
    func stop() {
        runner.stop()
        sender.stop()
    }

    private func housekeeping() async {
        var lastSweep = 0.0
        while !Task.isCancelled {
            if let counts = try? await store.countsByState() { metrics.jobs(counts) }
            let now = Date().timeIntervalSince1970
            if now - lastSweep >= 60 {
                lastSweep = now
                do {
                    for id in try await store.removeFinished(before: now - settings.retentionSeconds) {
                        folder.remove(id)
                        logger.info("job removed after its retention", metadata: ["job": .string(id)])
                    }
                } catch {
                    logger.error("the job store failed", metadata: ["error": .string("\(error)")])
                }
            }
            try? await Task.sleep(nanoseconds: 1_000_000_000)
        }
    }
}
