import Folio
import FolioWorkers
import Foundation
import Logging

/// Renders the requests of one pool thread: in the thread's render worker process (so a crash
/// in a C library fails only that request, and the worker is replaced), or in this process
/// (`folio serve --in-process`).
final class RequestRenderer {
    /// A worker died while rendering a request (a crash in a C library, or its memory limit).
    struct WorkerCrashed: Error, CustomStringConvertible {
        let failure: WorkerFailure
        var description: String { failure.description }
    }

    private let rendering: DocumentRendering
    private let workers: WorkerSettings?
    private let setup: WorkerMessage?
    private let logger: Logger
    /// This thread's worker; nil when it died and could not be replaced yet.
    private var process: RenderWorkerProcess?

    /// A renderer for `settings`, its worker process started (fonts loaded, a test document drawn)
    /// or, in process, the self-test run on this thread; throws when either fails. A renderer of
    /// durable jobs (`forJobs`) renders at a lower CPU priority (`RequestRenderer.jobNiceness`):
    /// its worker process, or in process this thread.
    init(settings: ServerSettings, rendering: DocumentRendering, logger: Logger, forJobs: Bool = false) throws {
        self.rendering = rendering
        self.logger = logger
        var processes = settings.workerProcesses
        if forJobs {
            processes?.niceness = RequestRenderer.jobNiceness
            if processes == nil { RenderWorker.lowerPriority(by: RequestRenderer.jobNiceness) }
        }
        workers = processes
        if let workers = processes {
            let setup = try ServiceWorkerJob.setup(settings)
            self.setup = setup
            process = try RenderWorkerProcess(settings: workers, setup: setup)
        } else {
            setup = nil
            try ServiceWorkerJob.selfTest(rendering)
        }
    }

    deinit { process?.terminate() }

    /// How much lower a job render's CPU priority is than a request's (`nice` 10: about a tenth of a
    /// core's time when both want the same core).
    static let jobNiceness: Int32 = 10

    /// What `request` asks for, rendered under `deadline`: throws what the render throws,
    /// `RenderDeadline.Expired` past the deadline, `CancellationError` when the request went away,
    /// or `WorkerCrashed`.
    func render(_ request: RenderRequest, deadline: RenderDeadline) throws -> RenderedBody {
        guard let workers, let setup else { return try rendering.render(request) }
        let worker: RenderWorkerProcess
        if let running = process, !running.isDead {
            worker = running
        } else {
            worker = try RenderWorkerProcess(settings: workers, setup: setup)
            process = worker
        }
        let now = DispatchTime.now().uptimeNanoseconds
        let seconds = deadline.uptimeNanoseconds > now ? Double(deadline.uptimeNanoseconds - now) / 1e9 : 0
        switch worker.call(
            request.message(seconds: seconds), seconds: seconds, activity: "reading the request", abandoned: { deadline.isExpired })
        {
        case .success(let answer):
            if worker.isDead { replace(after: nil) }
            return try RenderedBody(answer: answer)
        case .failure(let failure):
            if worker.isDead {
                // What a library of the worker said last (GLib's diagnostics go here, not to standard error).
                let message = worker.libraryMessage
                if !message.isEmpty { logger.warning("render worker diagnostic", metadata: ["message": .string(message)]) }
                replace(after: failure)
            }
            switch failure {
            case .timedOut: throw RenderDeadline.Expired()
            case .abandoned: throw CancellationError()
            default: throw WorkerCrashed(failure: failure)
            }
        }
    }

    /// Starts a new worker at once, so the next request finds one ready (after a failure, or
    /// when a worker retired after growing large).
    private func replace(after failure: WorkerFailure?) {
        process = nil
        guard let workers, let setup else { return }
        if let failure {
            logger.warning("render worker replaced", metadata: ["reason": .string(failure.description)])
        } else {
            logger.info("render worker replaced", metadata: ["reason": "it retired after growing large"])
        }
        do {
            process = try RenderWorkerProcess(settings: workers, setup: setup)
        } catch {
            logger.error("render worker cannot start", metadata: ["error": .string("\(error)")])
        }
    }
}
