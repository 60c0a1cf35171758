import Folio
import Foundation

/// A fixed set of worker threads that run renders off the event loop, fed by a bounded queue.
///
/// A request takes one of `workers + queueLimit` slots before it reads its body (`reserve`), and
/// gives it back when its render has finished on a worker, so the bodies held, the renders
/// waiting and the renders running are bounded together; without a free slot the server answers
/// 503 at once. Each render runs under its `RenderDeadline`: when the deadline passes, or the
/// request is cancelled, the caller is answered at once and the render stops at its next check.
///
/// Each thread owns a `Worker` made when the pool starts (for the service, the render worker
/// process it hands its renders to), and every render on that thread is given it.
final class RenderPool<Worker>: @unchecked Sendable {
    /// No slot is free: every worker is busy and `queueLimit` renders wait.
    struct Full: Error {}

    /// A reserved place in the pool, given back once (by the render's end, or by the request
    /// when it fails before rendering).
    final class Slot: @unchecked Sendable {
        private weak var pool: RenderPool?
        private let lock = NSLock()
        private var released = false

        fileprivate init(pool: RenderPool) { self.pool = pool }

        /// Gives the slot back; later calls do nothing.
        func release() {
            lock.lock()
            let first = !released
            released = true
            lock.unlock()
            if first { pool?.releaseSlot() }
        }

        deinit { release() }
    }

    /// The number of worker threads.
    let workers: Int
    /// Renders that may wait for a worker.
    let queueLimit: Int

    private let condition = NSCondition()
    private var waiting: [Job<Worker>] = []
    private var waitingStart = 0
    private var running = 0
    private var slotsTaken = 0
    private var stopped = false
    private var threads: [Thread] = []

    /// Called with (waiting, running) whenever either changes, under the pool's lock.
    var onChange: (@Sendable (Int, Int) -> Void)?

    init(workers: Int, queueLimit: Int) {
        self.workers = max(1, workers)
        self.queueLimit = max(0, queueLimit)
    }

    /// Starts the worker threads; each makes its `Worker` with `prepare` (given the thread's
    /// index) first: a render worker process that loads its fonts and renders a test document
    /// before the first request. Returns when every thread is prepared; throws the first error
    /// a `prepare` threw.
    func start(prepare: @escaping @Sendable (Int) throws -> Worker) throws {
        let prepared = DispatchGroup()
        let failure = FirstError()
        for index in 0..<workers {
            prepared.enter()
            let thread = Thread { [self] in
                var worker: Worker?
                do { worker = try prepare(index) } catch { failure.record(error) }
                prepared.leave()
                guard let worker else { return }
                work(worker)
            }
            thread.name = "folio-render-\(index + 1)"
            thread.stackSize = 16 << 20
            threads.append(thread)
            thread.start()
        }
        prepared.wait()
        if let error = failure.error {
            stop()
            throw error
        }
    }

    /// Lets the workers finish the renders that run or wait, then exit; new renders are refused.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// A slot for one render, or nil when all `workers + queueLimit` are taken or the pool is stopped.
    func reserve() -> Slot? {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped, slotsTaken < workers + queueLimit else { return nil }
        slotsTaken += 1
        return Slot(pool: self)
    }

    fileprivate func releaseSlot() {
        condition.lock()
        slotsTaken -= 1
        condition.unlock()
    }

    /// Renders running on a worker.
    var runningCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return running
    }

    /// Renders waiting for a worker.
    var queueDepth: Int {
        condition.lock()
        defer { condition.unlock() }
        return waiting.count - waitingStart
    }

    /// Reserves a slot and runs `work` in it; throws `Full` when there is none.
    func run<T: Sendable>(deadline: RenderDeadline, _ work: @escaping @Sendable (Worker) throws -> T) async throws -> T {
        guard let slot = reserve() else { throw Full() }
        return try await run(in: slot, deadline: deadline, work)
    }

    /// Runs `work` on a worker thread (given its `Worker`) under `deadline`, in `slot` (given back
    /// when the render ends); throws `RenderDeadline.Expired` when the deadline passes first,
    /// `CancellationError` when the request is cancelled or the pool stopped, or what `work` throws.
    func run<T: Sendable>(in slot: Slot, deadline: RenderDeadline, _ work: @escaping @Sendable (Worker) throws -> T) async throws -> T {
        let job = Job<Worker>(slot: slot, deadline: deadline) { try work($0) }
        let value = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<any Sendable, Error>) in
                job.setContinuation(continuation)
                if enqueue(job) {
                    job.scheduleTimeout()
                } else {
                    job.finish(.failure(CancellationError()))
                    slot.release()
                }
            }
        } onCancel: {
            job.cancel()
        }
        guard let result = value as? T else { throw CancellationError() }
        return result
    }

    /// Queues `job` unless the pool is stopped.
    private func enqueue(_ job: Job<Worker>) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped else { return false }
        waiting.append(job)
        onChange?(waiting.count - waitingStart, running)
        condition.signal()
        return true
    }

    private func work(_ worker: Worker) {
        while true {
            condition.lock()
            while waiting.count == waitingStart && !stopped { condition.wait() }
            if stopped && waiting.count == waitingStart {
                condition.unlock()
                return
            }
            let job = waiting[waitingStart]
            waitingStart += 1
            if waitingStart > 64 && waitingStart * 2 > waiting.count {
                waiting.removeFirst(waitingStart)
                waitingStart = 0
            }
            running += 1
            onChange?(waiting.count - waitingStart, running)
            condition.unlock()

            job.execute(on: worker)
            job.slot.release()

            condition.lock()
            running -= 1
            onChange?(waiting.count - waitingStart, running)
            condition.unlock()
        }
    }
}

/// The first error of several threads.
private final class FirstError: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Error?
    var error: Error? {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
    func record(_ error: Error) {
        lock.lock()
        if stored == nil { stored = error }
        lock.unlock()
    }
}

extension RenderPool where Worker == Void {
    /// Starts the worker threads, which need nothing of their own.
    func start() throws { try start { _ in () } }
}

/// One render waiting for, or running on, a worker; its caller is answered exactly once:
/// by the worker, by the deadline's timer or by cancellation, whichever comes first.
private final class Job<Worker>: @unchecked Sendable {
    let slot: RenderPool<Worker>.Slot
    let deadline: RenderDeadline
    private let work: @Sendable (Worker) throws -> any Sendable
    private let lock = NSLock()
    private var continuation: CheckedContinuation<any Sendable, Error>?
    /// The outcome when it came before the continuation (a request cancelled at once).
    private var early: Result<any Sendable, Error>?
    private var finished = false
    private var timer: DispatchSourceTimer?

    init(slot: RenderPool<Worker>.Slot, deadline: RenderDeadline, work: @escaping @Sendable (Worker) throws -> any Sendable) {
        self.slot = slot
        self.deadline = deadline
        self.work = work
    }

    func setContinuation(_ continuation: CheckedContinuation<any Sendable, Error>) {
        lock.lock()
        if let early {
            lock.unlock()
            continuation.resume(with: early)
            return
        }
        self.continuation = continuation
        lock.unlock()
    }

    /// Answers the caller with `Expired` when the deadline passes, whatever the worker is doing.
    func scheduleTimeout() {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: DispatchTime(uptimeNanoseconds: deadline.uptimeNanoseconds))
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            self.deadline.cancel()
            self.finish(.failure(RenderDeadline.Expired()))
        }
        timer.resume()
        lock.lock()
        if finished {
            lock.unlock()
            timer.cancel()
            return
        }
        self.timer = timer
        lock.unlock()
    }

    /// The request went away: answer, then stop the render (in this order, so the render's own
    /// "time limit" error, thrown once the deadline is cancelled, can never answer first).
    func cancel() {
        finish(.failure(CancellationError()))
        deadline.cancel()
    }

    /// Runs the render on the calling worker thread with its `worker`, unless it has already been answered.
    func execute(on worker: Worker) {
        lock.lock()
        let skip = finished
        lock.unlock()
        if skip { return }
        if deadline.isExpired {
            finish(.failure(RenderDeadline.Expired()))
            return
        }
        let result = Result { try RenderDeadline.$current.withValue(deadline) { try work(worker) } }
        finish(result)
    }

    /// Answers the caller with `result` unless it has been answered.
    func finish(_ result: Result<any Sendable, Error>) {
        lock.lock()
        guard !finished else {
            lock.unlock()
            return
        }
        finished = true
        let continuation = self.continuation
        self.continuation = nil
        if continuation == nil { early = result }
        let timer = self.timer
        self.timer = nil
        lock.unlock()
        timer?.cancel()
        continuation?.resume(with: result)
    }
}
