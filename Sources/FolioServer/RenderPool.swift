import Folio
import Foundation
import Synchronization

/// A fixed set of worker threads that run renders off the event loop, fed by a bounded queue.
///
/// A request takes one of `workers + queueLimit` slots before it reads its body (`reserve`), and
/// gives it back when its render has finished on a worker, so the bodies held, the renders
/// waiting and the renders running are bounded together; without a free slot the server answers
/// 503 at once. Each render runs under its `RenderDeadline`: when the deadline passes, or the
/// request is cancelled, the caller is answered at once and the render stops at its next check.
///
/// Work without a slot (`runInBackground`: a durable job's records, which the job runner bounds)
/// waits in a queue of its own, taken only when no slotted render waits. The service runs jobs in a
/// pool of their own (`RenderService.jobPool`), whose workers render at a lower CPU priority.
///
/// Each thread owns a `Worker` made when the pool starts (for the service, the render worker
/// process it hands its renders to), and every render on that thread is given it.
final class RenderPool<Worker>: Sendable {
    /// No slot is free: every worker is busy and `queueLimit` renders wait.
    struct Full: Error {}

    /// A reserved place in the pool, given back once (by the render's end, or by the request
    /// when it fails before rendering).
    final class Slot: Sendable {
        private let pool: RenderPool
        private let released = Locked(false)

        fileprivate init(pool: RenderPool) { self.pool = pool }

        /// Gives the slot back; later calls do nothing.
        func release() {
            let first = released.withLock { released in
                defer { released = true }
                return !released
            }
            if first { pool.releaseSlot() }
        }

        deinit { release() }
    }

    /// The number of worker threads.
    let workers: Int
    /// Renders that may wait for a worker.
    let queueLimit: Int

    private struct State {
        /// Renders waiting, from `waitingStart` on (taken ones are cleared).
        var waiting: [PoolTask<Worker>?] = []
        var waitingStart = 0
        /// Job renders waiting, behind every request's.
        var background: [PoolTask<Worker>?] = []
        var backgroundStart = 0
        var running = 0
        var slotsTaken = 0
        var stopped = false
        var waitingCount: Int { waiting.count - waitingStart }
        var backgroundCount: Int { background.count - backgroundStart }

        /// The next render to run: a request's first, else a job's; nil when none waits.
        mutating func take() -> PoolTask<Worker>? {
            if waitingStart < waiting.count, let job = waiting[waitingStart] {
                waiting[waitingStart] = nil
                waitingStart += 1
                if waitingStart > 64 && waitingStart * 2 > waiting.count {
                    waiting.removeFirst(waitingStart)
                    waitingStart = 0
                }
                return job
            }
            if backgroundStart < background.count, let job = background[backgroundStart] {
                background[backgroundStart] = nil
                backgroundStart += 1
                if backgroundStart > 64 && backgroundStart * 2 > background.count {
                    background.removeFirst(backgroundStart)
                    backgroundStart = 0
                }
                return job
            }
            return nil
        }
    }

    private let state = Mutex(State())
    /// Counts the renders waiting (plus the one wake-up a stopped pool passes on), for the threads.
    private let jobsWaiting = DispatchSemaphore(value: 0)
    /// Told (waiting, running) whenever either changes, under the pool's lock.
    private let onChange: @Sendable (Int, Int) -> Void

    /// A pool of `workers` threads and `queueLimit` waiting places that tells `onChange` how many
    /// renders wait and run whenever either changes.
    init(workers: Int, queueLimit: Int, onChange: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) {
        self.workers = max(1, workers)
        self.queueLimit = max(0, queueLimit)
        self.onChange = onChange
    }

    /// Starts the worker threads; each makes its `Worker` with `prepare` (given the thread's
    /// index) first: a render worker process that loads its fonts and renders a test document
    /// before the first request. Returns when every thread is prepared; throws the first error
    /// a `prepare` threw.
    func start(prepare: @escaping @Sendable (Int) throws -> Worker) throws {
        let prepared = DispatchGroup()
        let failure = Locked<(any Error)?>(nil)
        for index in 0..<workers {
            prepared.enter()
            let thread = Thread { [self] in
                var worker: Worker?
                do { worker = try prepare(index) } catch { failure.withLock { $0 = $0 ?? error } }
                prepared.leave()
                guard let worker else { return }
                work(worker)
            }
            thread.name = "folio-render-\(index + 1)"
            thread.stackSize = 16 << 20
            thread.start()
        }
        prepared.wait()
        if let error = failure.value {
            stop()
            throw error
        }
    }

    /// Lets the workers finish the renders that run or wait, then exit; new renders are refused.
    func stop() {
        state.withLock { $0.stopped = true }
        jobsWaiting.signal()
    }

    /// A slot for one render, or nil when all `workers + queueLimit` are taken or the pool is stopped.
    func reserve() -> Slot? {
        let taken = state.withLock { state in
            guard !state.stopped, state.slotsTaken < workers + queueLimit else { return false }
            state.slotsTaken += 1
            return true
        }
        return taken ? Slot(pool: self) : nil
    }

    fileprivate func releaseSlot() {
        state.withLock { $0.slotsTaken -= 1 }
    }

    /// Renders running on a worker.
    var runningCount: Int { state.withLock { $0.running } }

    /// Renders waiting for a worker.
    var queueDepth: Int { state.withLock { $0.waitingCount } }

    /// Reserves a slot and runs `work` in it; throws `Full` when there is none.
    func run<T: Sendable>(deadline: RenderDeadline, _ work: @escaping @Sendable (Worker) throws -> T) async throws -> T {
        guard let slot = reserve() else { throw Full() }
        return try await run(in: slot, deadline: deadline, work)
    }

    /// Runs `work` on a worker thread (given its `Worker`) under `deadline`, in `slot` (given back
    /// when the render ends); throws `RenderDeadline.Expired` when the deadline passes first,
    /// `CancellationError` when the request is cancelled or the pool stopped, or what `work` throws.
    func run<T: Sendable>(in slot: Slot, deadline: RenderDeadline, _ work: @escaping @Sendable (Worker) throws -> T) async throws -> T {
        try await run(PoolTask<Worker>(slot: slot, deadline: deadline) { try work($0) })
    }

    /// Runs `work` for a durable job on a worker thread once no request's render waits, under
    /// `deadline`, without a slot (the job runner bounds how many it has queued); throws as `run` does.
    func runInBackground<T: Sendable>(deadline: RenderDeadline, _ work: @escaping @Sendable (Worker) throws -> T) async throws -> T {
        try await run(PoolTask<Worker>(slot: nil, deadline: deadline) { try work($0) })
    }

    private func run<T: Sendable>(_ job: PoolTask<Worker>) async throws -> T {
        let slot = job.slot
        let value = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<any Sendable, Error>) in
                job.setContinuation(continuation)
                if enqueue(job) {
                    job.scheduleTimeout()
                } else {
                    job.finish(.failure(CancellationError()))
                    slot?.release()
                }
            }
        } onCancel: {
            job.cancel()
        }
        guard let result = value as? T else { throw CancellationError() }
        return result
    }

    /// Queues `job` unless the pool is stopped.
    private func enqueue(_ job: PoolTask<Worker>) -> Bool {
        let queued = state.withLock { state in
            guard !state.stopped else { return false }
            if job.slot == nil { state.background.append(job) } else { state.waiting.append(job) }
            onChange(state.waitingCount, state.running)
            return true
        }
        if queued { jobsWaiting.signal() }
        return queued
    }

    private func work(_ worker: Worker) {
        while true {
            jobsWaiting.wait()
            let job: PoolTask<Worker>? = state.withLock { state in
                // Nothing waits only once the pool is stopped and drained.
                guard let job = state.take() else { return nil }
                state.running += 1
                onChange(state.waitingCount, state.running)
                return job
            }
            guard let job else {
                // Stopped: the next idle thread is woken to stop too.
                jobsWaiting.signal()
                return
            }
            job.execute(on: worker)
            job.slot?.release()
            state.withLock { state in
                state.running -= 1
                onChange(state.waitingCount, state.running)
            }
        }
    }
}

extension RenderPool where Worker == Void {
    /// Starts the worker threads, which need nothing of their own.
    func start() throws { try start { _ in () } }
}

/// One render waiting for, or running on, a worker; its caller is answered exactly once:
/// by the worker, by the deadline's timer or by cancellation, whichever comes first.
private final class PoolTask<Worker>: Sendable {
    /// The request's slot; nil for a durable job's render.
    let slot: RenderPool<Worker>.Slot?
    let deadline: RenderDeadline
    private let work: @Sendable (Worker) throws -> any Sendable

    private struct State {
        var continuation: CheckedContinuation<any Sendable, Error>?
        /// The outcome when it came before the continuation (a request cancelled at once).
        var early: Result<any Sendable, Error>?
        var finished = false
        var timer: Task<Void, Never>?
    }

    private let state = Mutex(State())

    init(slot: RenderPool<Worker>.Slot?, deadline: RenderDeadline, work: @escaping @Sendable (Worker) throws -> any Sendable) {
        self.slot = slot
        self.deadline = deadline
        self.work = work
    }

    func setContinuation(_ continuation: CheckedContinuation<any Sendable, Error>) {
        let early = state.withLock { state in
            if state.early == nil { state.continuation = continuation }
            return state.early
        }
        if let early { continuation.resume(with: early) }
    }

    /// Answers the caller with `Expired` when the deadline passes, whatever the worker is doing.
    func scheduleTimeout() {
        let deadline = self.deadline
        let timer = Task { [weak self] in
            let now = DispatchTime.now().uptimeNanoseconds
            if deadline.uptimeNanoseconds > now { try? await Task.sleep(nanoseconds: deadline.uptimeNanoseconds - now) }
            guard !Task.isCancelled, let self else { return }
            deadline.cancel()
            finish(.failure(RenderDeadline.Expired()))
        }
        let kept = state.withLock { state in
            guard !state.finished else { return false }
            state.timer = timer
            return true
        }
        if !kept { timer.cancel() }
    }

    /// The request went away: answer, then stop the render (in this order, so the render's own
    /// "time limit" error, thrown once the deadline is cancelled, can never answer first).
    func cancel() {
        finish(.failure(CancellationError()))
        deadline.cancel()
    }

    /// Runs the render on the calling worker thread with its `worker`, unless it has already been answered.
    func execute(on worker: Worker) {
        if state.withLock({ $0.finished }) { return }
        if deadline.isExpired {
            finish(.failure(RenderDeadline.Expired()))
            return
        }
        let result = Result { try RenderDeadline.$current.withValue(deadline) { try work(worker) } }
        finish(result)
    }

    /// Answers the caller with `result` unless it has been answered.
    func finish(_ result: Result<any Sendable, Error>) {
        let answer = state.withLock { state -> (CheckedContinuation<any Sendable, Error>?, Task<Void, Never>?)? in
            guard !state.finished else { return nil }
            state.finished = true
            let continuation = state.continuation
            state.continuation = nil
            if continuation == nil { state.early = result }
            let timer = state.timer
            state.timer = nil
            return (continuation, timer)
        }
        guard let (continuation, timer) = answer else { return }
        timer?.cancel()
        continuation?.resume(with: result)
    }
}
