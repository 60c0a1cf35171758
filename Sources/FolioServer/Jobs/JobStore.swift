import FolioHTML
import Foundation

/// Where `folio serve` keeps its jobs and their webhook events, durably: a job it has answered
/// `202` for survives a crash of the server, and a job whose server died is taken over by another
/// (or by the same one started again) without its finished records being rendered again.
///
/// A running job is held by one server under a lease it renews; a lease that lapses, or whose
/// holder is known dead, frees the job for the next `claim`. `SQLiteJobStore` is the store of one
/// machine (`--job-store sqlite:PATH`), `PostgresJobStore` the store of several (`--job-store postgresql://…`).
protocol JobStore: Sendable {
    /// Stores `job` (state `queued`), or returns the job its client made before with the same
    /// `idempotencyKey` (and `false`); throws `TooManyJobs` when its client has `limit` jobs queued or running.
    func insert(_ job: Job, limit: Int) async throws -> (job: Job, created: Bool)
    /// The job `id` of `client`; nil when there is none (or another client's).
    func job(id: String, client: String) async throws -> Job?
    /// The job `client` made with `idempotencyKey`, if any.
    func job(idempotencyKey: String, client: String) async throws -> Job?
    /// Takes the oldest queued job, or a running one whose lease lapsed or whose holder died, for
    /// `owner` until `leaseUntil`; marks it running. Nil when there is none.
    func claim(owner: LeaseOwner, now: Double, leaseUntil: Double) async throws -> Job?
    /// Renews `owner`'s lease of job `id` and records its counts; returns whether the job is still
    /// `owner`'s and whether its client asked to cancel it.
    func renew(id: String, owner: LeaseOwner, leaseUntil: Double, total: Int, written: Int, failed: Int) async throws
        -> (held: Bool, cancelRequested: Bool)
    /// Ends job `id` in `state` with its counts and, in the same transaction, queues `event` (its
    /// webhook's); a job its client removed while it ran (`cancel`) is removed from the store instead
    /// (`.removed`: the caller removes its folder).
    func finish(_ job: Job, owner: LeaseOwner, event: WebhookDelivery?) async throws -> JobFinish
    /// Cancels and removes job `id` of `client` (`DELETE`): a queued or finished job at once (its
    /// folder is the caller's to remove), a running one from its client's sight at once and from the
    /// store when its server stops it at the next record and `finish`es it. The job as it was,
    /// cancelled; nil when there is no such job.
    func cancel(id: String, client: String, now: Double) async throws -> Job?
    /// How many jobs are in each state.
    func countsByState() async throws -> [Job.State: Int]
    /// Removes every job that finished before `before`, and its events; returns their ids (whose
    /// folders the caller removes).
    func removeFinished(before: Double) async throws -> [String]
    /// Takes up to `limit` events due at `now` for `owner` until `leaseUntil` (so no other server
    /// sends them meanwhile).
    func dueDeliveries(owner: LeaseOwner, now: Double, leaseUntil: Double, limit: Int) async throws -> [WebhookDelivery]
    /// Event `id` was delivered, or given up (`abandoned` with why); it is not sent again.
    func settleDelivery(id: String, abandoned: String?) async throws
    /// Event `id` failed; it is tried again at `next`.
    func retryDelivery(id: String, attempts: Int, next: Double, error: String) async throws
}

/// A client has as many jobs queued or running as it may.
struct TooManyJobs: Error {
    let limit: Int
}

/// A server holding a lease: its random instance id, its host and process id (so a server started
/// again on the same machine takes back its dead predecessor's job at once, not when the lease lapses).
struct LeaseOwner: Sendable, Equatable {
    var instance: String
    var host: String
    var pid: Int32

    /// The owner as stored: `host pid instance`.
    var text: String { "\(host) \(pid) \(instance)" }

    /// This process, with a new instance id.
    static func thisProcess() -> LeaseOwner {
        var name = [CChar](repeating: 0, count: 256)
        let host =
            gethostname(&name, name.count) == 0
            ? String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "localhost"
        return LeaseOwner(instance: JobIdentifier.make(), host: host, pid: getpid())
    }

    /// Whether the holder stored as `text` is a process of this machine that no longer runs.
    func isDeadOnThisHost(_ text: String) -> Bool {
        let parts = text.split(separator: " ")
        guard parts.count == 3, parts[0] == host, let pid = Int32(parts[1]), pid > 0 else { return false }
        if pid == self.pid { return String(parts[2]) != instance }
        return kill(pid, 0) != 0 && errno == ESRCH
    }
}

/// Unguessable identifiers: jobs', servers' and events'.
/// What `JobStore.finish` did.
enum JobFinish: Equatable, Sendable {
    /// The job is finished as asked.
    case finished
    /// Its client had removed it while it ran: it is gone from the store.
    case removed
    /// The server no longer held the job (another took it over): nothing changed.
    case notHeld
}

/// Job ids: random, and checked before one names a folder or reaches a store.
enum JobIdentifier {
    /// 32 lowercase hexadecimal digits from the system's random source.
    static func make() -> String {
        // Two draws of the system's source (one per 64 bits, not one per byte).
        var generator = SystemRandomNumberGenerator()
        let halves = [generator.next(), generator.next()]
        return SHA256Digest.hex(digest: halves.flatMap { half in (0..<8).map { UInt8(truncatingIfNeeded: half >> (8 * $0)) } })
    }

    /// Whether `text` could be a job id (so a path never reaches the store or the disk otherwise).
    static func isValid(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
