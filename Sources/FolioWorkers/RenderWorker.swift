import CProcessSupport
import Folio
import FolioData
import FolioPango
import Foundation

/// A kind of work a render worker does: a batch's documents, or a service's requests.
package protocol RenderWorkerJob: AnyObject {
    /// The job's name in the setup message: `batch`, `service`.
    static var name: String { get }
    /// The job set up from its setup message, warmed up (fonts loaded, a first document drawn);
    /// throws a `FolioError` the supervisor reports as it is.
    init(setup: WorkerMessage) throws
    /// The answer to one request.
    func answer(_ request: WorkerMessage) -> WorkerMessage
}

/// The worker side of a render worker process (`folio __render-worker MEMORY-LIMIT NICENESS`): its channel
/// is file descriptor 3, its page shared with the supervisor descriptor 4. It limits its own
/// memory, takes its setup, says it is ready, then answers one request at a time, each under a
/// deadline whose activity it records in the shared page, until the supervisor closes the channel.
package enum RenderWorker {
    /// Lowers the calling thread's CPU priority by `niceness` (clamped to 0…19; Linux keeps a
    /// nice value per thread, and a thread inherits its creator's). An unprivileged process may
    /// raise its nice value, never lower it back: the supervisor starts a worker for each priority.
    package static func lowerPriority(by niceness: Int32) {
        let step = min(19, max(0, niceness))
        guard step > 0 else { return }
        let thisThread = __priority_which_t(PRIO_PROCESS.rawValue)
        errno = 0
        let current = getpriority(thisThread, 0)
        guard errno == 0 else { return }
        _ = setpriority(thisThread, 0, min(19, current + step))
    }

    /// Runs this process as a render worker for `jobs`; never returns.
    package static func main(arguments: [String], jobs: [any RenderWorkerJob.Type]) -> Never {
        // The supervisor decides when a worker ends (it closes the channel, or kills it): a Ctrl-C
        // or a service manager's SIGTERM to the whole group must not end a render half-way.
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        signal(SIGHUP, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)
        // First, while this is the process's only thread: the threads made later inherit it.
        lowerPriority(by: arguments.dropFirst(3).first.flatMap { Int32($0) } ?? 0)
        let memoryLimit = arguments.dropFirst(2).first.flatMap { UInt64($0) } ?? 0
        if let page = folio_shared_page_map(4) { folio_activity_use_page(page) }
        if folio_limit_memory(memoryLimit) != 0 {
            // Said where the supervisor reads it (the worker's standard error goes nowhere).
            let line = "the render worker cannot limit its memory: \(String(cString: strerror(errno)))"
            line.withCString { folio_worker_message($0, strlen($0), 0) }
        }
        folio_keep_freed_memory()
        // A worker that runs out of memory says so in the page (its supervisor then reports "the record
        // needs more than N MB", not a signal), and GLib's diagnostics go to the page, not to the
        // supervisor's standard error.
        folio_worker_memory_watch_install(memoryLimit)
        GLibMessages.capture { text, length, outOfMemory in
            if let text { folio_worker_message(text, length, outOfMemory) }
        }
        startLoadingFonts()
        let channel = WorkerChannel(fd: 3)
        guard let setup = try? channel.receive() else { exit(0) }
        let job: any RenderWorkerJob
        do {
            let name = setup["job"]?.text ?? ""
            guard let kind = jobs.first(where: { $0.name == name }) else {
                throw FolioError(path: "", "the render worker has no job \"\(name)\"")
            }
            job = try RenderDeadline.$current.withValue(RenderActivity.deadline(seconds: RenderWorkerProcess.startTimeLimit)) {
                try kind.init(setup: setup)
            }
        } catch {
            let failure = error as? FolioError ?? FolioError(path: "", "\(error)")
            try? channel.send(WorkerMessage(.object([("error", .string(failure.message)), ("path", .string(failure.path))])))
            exit(1)
        }
        // A worker that has grown past this many resident bytes (one huge document: the allocator
        // keeps what it freed) retires after its answer, and a fresh one takes its place.
        let retireAbove: UInt64 = memoryLimit == 0 ? 512 << 20 : min(512 << 20, memoryLimit / 2)
        do {
            try channel.send(WorkerMessage(.object([("ready", .bool(true))])))
            while true {
                let request = try channel.receive()
                let seconds: Double
                if case .number(let value)? = request["seconds"] { seconds = value } else { seconds = .infinity }
                var answer = RenderDeadline.$current.withValue(RenderActivity.deadline(seconds: seconds)) { job.answer(request) }
                let retiring = residentBytes() > retireAbove
                if retiring, case .object(var members) = answer.header {
                    members.append(("retire", .bool(true)))
                    answer.header = .object(members)
                }
                try channel.send(answer)
                if retiring { exit(0) }
            }
        } catch {
            // The supervisor closed the channel (or went away): the worker's work is done.
            exit(0)
        }
    }

    /// This process's resident memory in bytes, from /proc/self/statm (0 when unknown).
    private static func residentBytes() -> UInt64 {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = UInt64(fields[1]) else { return 0 }
        return pages * UInt64(max(sysconf(Int32(_SC_PAGESIZE)), 4096))
    }

    /// The error answer for `error`: `{"error": message, "path": field, "kind": …}`; a C library's
    /// failure also names the library, what it was doing and its status.
    package static func errorAnswer(_ error: Error) -> WorkerMessage {
        let kind: String
        let failure: FolioError
        switch error {
        case let error as FolioError:
            kind = "invalid"
            failure = error
        case is RenderDeadline.Expired:
            kind = "expired"
            failure = FolioError(path: "", RenderDeadline.Expired().description)
        case let error as NativeLibraryError:
            var members: [(String, TreeValue)] = [
                ("error", .string(error.reason)), ("kind", .string("library")), ("library", .string(error.library.rawValue)),
                ("operation", .string(error.operation)),
            ]
            if let status = error.status { members.append(("status", .number(Double(status)))) }
            return WorkerMessage(.object(members))
        default:
            kind = "internal"
            failure = FolioError(path: "", "\(error)")
        }
        return WorkerMessage(.object([("error", .string(failure.message)), ("path", .string(failure.path)), ("kind", .string(kind))]))
    }

    /// The error an error answer carries, as the supervisor rethrows it.
    package static func error(in answer: WorkerMessage) -> Error? {
        guard case .string(let message)? = answer["error"] else { return nil }
        if answer["kind"]?.text == "expired" { return RenderDeadline.Expired() }
        if answer["kind"]?.text == "library", let library = answer["library"].flatMap({ NativeLibraryError.Library(rawValue: $0.text) }) {
            var status: Int32?
            if case .number(let number)? = answer["status"] { status = Int32(exactly: number) }
            return NativeLibraryError(library, operation: answer["operation"]?.text ?? "", status: status, reason: message)
        }
        return FolioError(path: answer["path"]?.text ?? "", message)
    }
}
