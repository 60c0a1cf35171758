import CProcessSupport
import FolioGraphics
import FolioModel
import Foundation

/// Why a worker gave no answer for a document.
package enum WorkerFailure: Error, CustomStringConvertible {
    /// The worker died by a signal (a crash in a C library) while doing `activity`.
    case crashed(signal: Int32, activity: String)
    /// The worker died because the `work` (record, document) needed more than its memory limit of
    /// `megabytes` while doing `activity`.
    case outOfMemory(work: String, megabytes: UInt64, activity: String)
    /// The worker exited by itself (it cannot start, or it found its channel broken).
    case exited(status: Int32, activity: String)
    /// The document took longer than the time limit and the worker was stopped.
    case timedOut(seconds: Double, activity: String)
    /// The caller gave up waiting (the request went away); the worker was stopped.
    case abandoned
    /// The worker's answer was not a message.
    case broken(String)

    /// "the renderer crashed (signal 11, SIGSEGV) while drawing elements[3] on page 2".
    package var description: String {
        func during(_ activity: String) -> String { activity.isEmpty ? "" : " while \(activity)" }
        switch self {
        case .crashed(let signal, let activity):
            return "the renderer crashed (signal \(signal), \(RenderWorkerProcess.signalName(signal)))\(during(activity))"
        case .outOfMemory(let work, let megabytes, let activity):
            return "the \(work) needs more than \(megabytes) MB of memory (--memory-limit)\(during(activity))"
        case .exited(let status, let activity):
            return "the renderer stopped unexpectedly (exit status \(status))\(during(activity))"
        case .timedOut(let seconds, let activity):
            return
                "the render took longer than \(seconds.isFinite ? DecimalText.fixed(seconds, decimals: seconds < 10 ? 1 : 0) : "its") s and was stopped\(during(activity))"
        case .abandoned: return "the render was abandoned"
        case .broken(let what): return "the renderer answered with \(what)"
        }
    }
}

/// A render worker process seen from its supervisor: started with posix_spawn running
/// `folio __render-worker`, set up once (the job's template, theme and options, then a first
/// render that loads the fonts), then given one document at a time.
///
/// It shares a page of memory with the worker, where the worker records what it is drawing
/// (so a crash can be reported as "while drawing elements[3]") and where the supervisor asks it
/// to stop. A call that runs past its deadline asks the worker to stop, then kills it.
package final class RenderWorkerProcess {
    /// Seconds a worker gets to stop by itself once asked, before it is killed.
    package static let stopGrace = 1.0
    /// Seconds a worker may take to start, load its fonts and render its first document.
    package static let startTimeLimit = 60.0

    package let pid: pid_t
    private let settings: WorkerSettings
    private let channel: WorkerChannel
    private let page: UnsafeMutableRawPointer
    private var exited = false

    /// Starts a worker running `settings.executable` and sets it up with `setup`; throws a
    /// `FolioError` when it cannot be started or its setup fails (the setup's own error).
    package init(settings: WorkerSettings, setup: WorkerMessage) throws {
        var sockets: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &sockets) == 0 else {
            throw FolioError(path: "", "cannot start a render worker: \(String(cString: strerror(errno)))")
        }
        let pageFD = folio_shared_page_create()
        guard pageFD >= 0, let page = folio_shared_page_map(pageFD) else {
            let reason = String(cString: strerror(errno))
            close(sockets[0])
            close(sockets[1])
            if pageFD >= 0 { close(pageFD) }
            throw FolioError(path: "", "cannot start a render worker: \(reason)")
        }
        let arguments = [settings.executable.path, WorkerSettings.workerArgument, String(settings.memoryLimit), String(settings.niceness)]
        // A worker's crash is reported by its supervisor: no Swift backtrace (which takes seconds) on the way.
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        let pid = RenderWorkerProcess.spawn(
            settings.executable.path, arguments, environment.map { "\($0.key)=\($0.value)" }, channel: sockets[1], page: pageFD)
        let spawnError = errno
        close(sockets[1])
        close(pageFD)
        guard pid > 0 else {
            close(sockets[0])
            folio_shared_page_unmap(page)
            throw FolioError(
                path: "", "cannot start the render worker \(settings.executable.path): \(String(cString: strerror(spawnError)))")
        }
        self.pid = pid
        self.page = page
        self.settings = settings
        channel = WorkerChannel(fd: sockets[0])
        do {
            try channel.send(setup)
            let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(RenderWorkerProcess.startTimeLimit * 1e9)
            let answer = try channel.receive(until: deadline)
            if case .string(let message)? = answer["error"] {
                throw FolioError(path: answer["path"]?.text ?? "", message)
            }
        } catch let error as FolioError {
            terminate()
            throw error
        } catch {
            let failure = finish(after: error, seconds: RenderWorkerProcess.startTimeLimit)
            if case .outOfMemory(_, let megabytes, _) = failure {
                throw FolioError(path: "--memory-limit", "a render worker needs more than \(megabytes) MB of memory to start")
            }
            throw FolioError(path: "", "the render worker did not start: \(failure)")
        }
    }

    deinit {
        terminate()
        folio_shared_page_unmap(page)
    }

    /// Whether the worker has died (also while idle, as when the system's out-of-memory killer
    /// chose it) or been stopped; a dead worker is replaced, never called again.
    package var isDead: Bool {
        if !exited {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { exited = true }
        }
        return exited
    }

    /// Sends `request` and waits for the answer for at most `seconds`; `abandoned` is asked
    /// every 50 ms whether the caller has gone. `activity` is what the worker does until its render
    /// names its first step (it reads the request: a large record takes a while). Returns the
    /// answer, or why there is none (after which this worker is dead).
    package func call(
        _ request: WorkerMessage, seconds: Double, activity: String, abandoned: (() -> Bool)? = nil
    ) -> Result<WorkerMessage, WorkerFailure> {
        guard !exited else { return .failure(.exited(status: -1, activity: "")) }
        folio_stop_request_set(page, 0)
        var first = activity
        first.withUTF8 { folio_activity_write(page, $0.baseAddress, $0.count) }
        let start = DispatchTime.now().uptimeNanoseconds
        let deadline = start &+ UInt64(max(0, min(seconds, 1e6)) * 1e9)
        do {
            try channel.send(request)
            let answer = try channel.receive(until: deadline, interrupted: abandoned)
            // A worker that grew large retires after its answer; its owner starts another.
            if answer["retire"] == .bool(true) { terminate() }
            return .success(answer)
        } catch {
            let gaveUp = abandoned?() == true
            let failure = finish(after: error, seconds: seconds)
            if gaveUp, case .timedOut = failure { return .failure(.abandoned) }
            return .failure(failure)
        }
    }

    /// After a failed exchange: asks the worker to stop (when it timed out), kills it when it does
    /// not answer within the grace, and says why it failed.
    private func finish(after error: Error, seconds: Double) -> WorkerFailure {
        if case WorkerChannel.Failure.timedOut? = error as? WorkerChannel.Failure {
            let activity = self.activity
            folio_stop_request_set(page, 1)
            // A worker that stops by itself at its next check answers (its stopped render's error) and
            // stays; one that does not, within the grace, is killed.
            let grace = DispatchTime.now().uptimeNanoseconds + UInt64(RenderWorkerProcess.stopGrace * 1e9)
            if (try? channel.receive(until: grace)) == nil { terminate() }
            folio_stop_request_set(page, 0)
            return .timedOut(seconds: seconds, activity: activity)
        }
        if case .malformed(let what)? = error as? WorkerChannel.Failure {
            terminate()
            return .broken(what)
        }
        // The channel closed: the worker died. Wait for it and say how.
        let activity = self.activity
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        exited = true
        if status & 0x7F != 0 && status & 0x7F != 0x7F {
            if settings.memoryLimit > 0, folio_out_of_memory(page) != 0 {
                return .outOfMemory(work: settings.workName, megabytes: settings.memoryLimit >> 20, activity: activity)
            }
            return .crashed(signal: status & 0x7F, activity: activity)
        }
        return .exited(status: (status >> 8) & 0xFF, activity: activity)
    }

    /// The last diagnostic a library of the worker gave (GLib's), for the log: never written to
    /// standard error as it came.
    package var libraryMessage: String {
        var bytes = [UInt8](repeating: 0, count: 512)
        let count = bytes.withUnsafeMutableBytes { folio_message_read(page, $0.baseAddress, $0.count) }
        return String(decoding: bytes[0..<count], as: UTF8.self).escapingInvisibleControls
    }

    /// What the worker said it was doing last.
    package var activity: String {
        var bytes = [UInt8](repeating: 0, count: 512)
        let count = bytes.withUnsafeMutableBytes { folio_activity_read(page, $0.baseAddress, $0.count) }
        return String(decoding: bytes[0..<count], as: UTF8.self).escapingInvisibleControls
    }

    /// Kills the worker (if it runs) and waits for it.
    package func terminate() {
        guard !exited else { return }
        exited = true
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    private static func spawn(_ path: String, _ arguments: [String], _ environment: [String], channel: Int32, page: Int32) -> pid_t {
        func cStrings(_ strings: [String]) -> [UnsafeMutablePointer<CChar>?] { strings.map { strdup($0) } + [nil] }
        let argv = cStrings(arguments)
        let envp = cStrings(environment)
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        return folio_spawn_worker(path, argv, envp, channel, page)
    }

    /// SIGSEGV, SIGABRT, … for a signal number.
    static func signalName(_ number: Int32) -> String {
        switch number {
        case SIGSEGV: return "SIGSEGV"
        case SIGBUS: return "SIGBUS"
        case SIGILL: return "SIGILL"
        case SIGFPE: return "SIGFPE"
        case SIGABRT: return "SIGABRT"
        case SIGTRAP: return "SIGTRAP"
        case SIGKILL: return "SIGKILL, perhaps out of memory"
        case SIGXCPU: return "SIGXCPU"
        default: return "signal"
        }
    }
}
