import FolioFHIR
import FolioModel
import Foundation
import Synchronization

/// The job store of one machine: a SQLite database (`--job-store sqlite:PATH`, by default
/// `jobs.sqlite` in `--job-dir`), written ahead, a new job flushed to the disk before its `202` is
/// sent. Several servers of one machine may share it (SQLite's file locks, each change in
/// an immediate transaction).
final class SQLiteJobStore: JobStore {
    private let database: Mutex<SQLiteDatabase>

    private static let columns = """
        id, client, idempotency_key, template, input, formats, html, period, zone, webhook, traceparent, state,
        created, started, finished, total, written, failed, error, cancel_requested
        """

    /// Opens (or creates) the store at `path`.
    init(path: String) throws {
        let database = try SQLiteDatabase(path: path, purpose: "the job store")
        try database.execute(
            """
            CREATE TABLE IF NOT EXISTS jobs (
                id TEXT PRIMARY KEY, client TEXT NOT NULL, idempotency_key TEXT, template TEXT, input TEXT NOT NULL,
                formats TEXT NOT NULL, html TEXT NOT NULL, period TEXT, zone TEXT, webhook TEXT, traceparent TEXT,
                state TEXT NOT NULL, created REAL NOT NULL, started REAL, finished REAL,
                total INTEGER NOT NULL DEFAULT 0, written INTEGER NOT NULL DEFAULT 0, failed INTEGER NOT NULL DEFAULT 0,
                error TEXT, cancel_requested INTEGER NOT NULL DEFAULT 0, lease_owner TEXT, lease_until REAL,
                removed INTEGER NOT NULL DEFAULT 0,
                UNIQUE (client, idempotency_key));
            CREATE INDEX IF NOT EXISTS jobs_by_state ON jobs (state, created);
            CREATE TABLE IF NOT EXISTS deliveries (
                id TEXT PRIMARY KEY, job TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE, client TEXT NOT NULL,
                url TEXT NOT NULL, body TEXT NOT NULL, traceparent TEXT, created REAL NOT NULL, next_attempt REAL NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0, settled INTEGER NOT NULL DEFAULT 0, last_error TEXT,
                lease_owner TEXT, lease_until REAL);
            CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries (settled, next_attempt);
            """)
        self.database = Mutex(database)
    }

    /// Runs `work` in an immediate transaction (other connections wait for it), committed when it
    /// returns, rolled back when it throws. A `durable` transaction is on the disk when it commits
    /// (synchronous FULL: the write-ahead log flushed, with every commit before it); the others
    /// survive a crash of the process (the log is written before the commit returns) and are flushed
    /// with the next durable one or checkpoint: after a power cut, a job's start or end may be lost
    /// and the job run again from its manifest, never the job itself.
    private func transaction<T>(durable: Bool = false, _ work: (SQLiteDatabase) throws -> T) throws -> T {
        try database.withLock { database in
            try database.run(cached: durable ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL")
            try database.run(cached: "BEGIN IMMEDIATE")
            do {
                let value = try work(database)
                database.resetCachedStatements()
                try database.run(cached: "COMMIT")
                return value
            } catch {
                database.resetCachedStatements()
                try? database.run(cached: "ROLLBACK")
                throw error
            }
        }
    }

    /// Runs `work` (reads) with the database to itself, outside a transaction.
    private func reading<T>(_ work: (SQLiteDatabase) throws -> T) throws -> T {
        try database.withLock { database in
            do {
                let value = try work(database)
                database.resetCachedStatements()
                return value
            } catch {
                database.resetCachedStatements()
                throw error
            }
        }
    }

    func insert(_ job: Job, limit: Int = 10_000) async throws -> (job: Job, created: Bool) {
        try transaction(durable: true) { database in
            if let key = job.idempotencyKey, let existing = try SQLiteJobStore.job(idempotencyKey: key, client: job.client, in: database) {
                return (existing, false)
            }
            let unfinished = try database.cached(
                "SELECT COUNT(*) FROM jobs WHERE client = ?1 AND state IN ('queued', 'running') AND removed = 0")
            unfinished.bind(1, job.client)
            if try unfinished.step(), (unfinished.integer(0) ?? 0) >= Int64(limit) { throw TooManyJobs(limit: limit) }
            unfinished.reset()
            let statement = try database.cached(
                """
                INSERT INTO jobs (id, client, idempotency_key, template, input, formats, html, period, zone, webhook,
                    traceparent, state, created)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, 'queued', ?12)
                """)
            statement.bind(1, job.id)
            statement.bind(2, job.client)
            statement.bind(3, job.idempotencyKey)
            statement.bind(4, job.template)
            statement.bind(5, job.input.rawValue)
            statement.bind(6, job.formats.joined(separator: ","))
            statement.bind(7, job.html)
            statement.bind(8, job.period)
            statement.bind(9, job.zone)
            statement.bind(10, job.webhook)
            statement.bind(11, job.traceparent)
            statement.bind(12, job.created)
            try statement.run()
            var stored = job
            stored.state = .queued
            return (stored, true)
        }
    }

    func job(id: String, client: String) async throws -> Job? {
        try reading { database in
            let statement = try database.cached("SELECT \(SQLiteJobStore.columns) FROM jobs WHERE id = ?1 AND client = ?2 AND removed = 0")
            statement.bind(1, id)
            statement.bind(2, client)
            return try statement.step() ? try SQLiteJobStore.job(statement) : nil
        }
    }

    func job(idempotencyKey: String, client: String) async throws -> Job? {
        try reading { database in try SQLiteJobStore.job(idempotencyKey: idempotencyKey, client: client, in: database) }
    }

    /// The client's job submitted with `idempotencyKey`, read in `database` (in its transaction, if any).
    private static func job(idempotencyKey: String, client: String, in database: SQLiteDatabase) throws -> Job? {
        let statement = try database.cached(
            "SELECT \(SQLiteJobStore.columns) FROM jobs WHERE client = ?1 AND idempotency_key = ?2 AND removed = 0")
        statement.bind(1, client)
        statement.bind(2, idempotencyKey)
        return try statement.step() ? try SQLiteJobStore.job(statement) : nil
    }

    func claim(owner: LeaseOwner, now: Double, leaseUntil: Double) async throws -> Job? {
        try transaction { database in
            // A running job whose holder is gone first (it was accepted earliest), then the oldest queued one.
            let running = try database.cached("SELECT id, lease_owner, lease_until FROM jobs WHERE state = 'running' ORDER BY created")
            var chosen: String?
            while try running.step() {
                let holder = running.text(1) ?? ""
                if (running.real(2) ?? 0) < now || owner.isDeadOnThisHost(holder) {
                    chosen = running.text(0)
                    break
                }
            }
            running.reset()
            if chosen == nil {
                let queued = try database.cached("SELECT id FROM jobs WHERE state = 'queued' ORDER BY created, id LIMIT 1")
                if try queued.step() { chosen = queued.text(0) }
            }
            guard let chosen else { return nil }
            let update = try database.cached(
                """
                UPDATE jobs SET state = 'running', started = COALESCE(started, ?2), lease_owner = ?3, lease_until = ?4
                WHERE id = ?1 RETURNING \(SQLiteJobStore.columns)
                """)
            update.bind(1, chosen)
            update.bind(2, now)
            update.bind(3, owner.text)
            update.bind(4, leaseUntil)
            guard try update.step() else { return nil }
            let job = try SQLiteJobStore.job(update)
            update.reset()
            return job
        }
    }

    func renew(id: String, owner: LeaseOwner, leaseUntil: Double, total: Int, written: Int, failed: Int) async throws
        -> (held: Bool, cancelRequested: Bool)
    {
        try transaction { database in
            let statement = try database.cached(
                """
                UPDATE jobs SET lease_until = ?3, total = ?4, written = ?5, failed = ?6
                WHERE id = ?1 AND lease_owner = ?2 AND state = 'running' RETURNING cancel_requested
                """)
            statement.bind(1, id)
            statement.bind(2, owner.text)
            statement.bind(3, leaseUntil)
            statement.bind(4, Int64(total))
            statement.bind(5, Int64(written))
            statement.bind(6, Int64(failed))
            guard try statement.step() else { return (false, false) }
            let cancel = statement.integer(0) == 1
            statement.reset()
            return (true, cancel)
        }
    }

    func finish(_ job: Job, owner: LeaseOwner, event: WebhookDelivery?) async throws -> JobFinish {
        try transaction { database in
            let statement = try database.cached(
                """
                UPDATE jobs SET state = ?3, finished = ?4, total = ?5, written = ?6, failed = ?7, error = ?8,
                    lease_owner = NULL, lease_until = NULL
                WHERE id = ?1 AND lease_owner = ?2 AND state = 'running' RETURNING removed
                """)
            statement.bind(1, job.id)
            statement.bind(2, owner.text)
            statement.bind(3, job.state.rawValue)
            statement.bind(4, job.finished)
            statement.bind(5, Int64(job.total))
            statement.bind(6, Int64(job.written))
            statement.bind(7, Int64(job.failed))
            statement.bind(8, job.error)
            guard try statement.step() else { return .notHeld }
            let removed = statement.integer(0) == 1
            statement.reset()
            if removed {
                let remove = try database.cached("DELETE FROM jobs WHERE id = ?1")
                remove.bind(1, job.id)
                try remove.run()
                return .removed
            }
            if let event { try SQLiteJobStore.insert(event, into: database) }
            return .finished
        }
    }

    private static func insert(_ event: WebhookDelivery, into database: SQLiteDatabase) throws {
        let statement = try database.cached(
            """
            INSERT INTO deliveries (id, job, client, url, body, traceparent, created, next_attempt)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """)
        statement.bind(1, event.id)
        statement.bind(2, event.job)
        statement.bind(3, event.client)
        statement.bind(4, event.url)
        statement.bind(5, event.body)
        statement.bind(6, event.traceparent)
        statement.bind(7, event.created)
        statement.bind(8, event.nextAttempt)
        try statement.run()
    }

    func cancel(id: String, client: String, now: Double) async throws -> Job? {
        try transaction { database in
            let read = try database.cached("SELECT \(SQLiteJobStore.columns) FROM jobs WHERE id = ?1 AND client = ?2 AND removed = 0")
            read.bind(1, id)
            read.bind(2, client)
            guard try read.step() else { return nil }
            var job = try SQLiteJobStore.job(read)
            read.reset()
            if job.state == .running {
                // Stopped at its next record by its server, which then removes it.
                let running = try database.cached(
                    "UPDATE jobs SET cancel_requested = 1, removed = 1, idempotency_key = NULL WHERE id = ?1 AND state = 'running'")
                running.bind(1, id)
                try running.run()
                job.cancelRequested = true
            } else {
                let remove = try database.cached("DELETE FROM jobs WHERE id = ?1")
                remove.bind(1, id)
                try remove.run()
                if job.state == .queued { job.state = .cancelled }
                job.finished = job.finished ?? now
            }
            return job
        }
    }

    func countsByState() async throws -> [Job.State: Int] {
        try reading { database in
            let statement = try database.cached("SELECT state, COUNT(*) FROM jobs WHERE removed = 0 GROUP BY state")
            var counts: [Job.State: Int] = [:]
            while try statement.step() {
                if let state = statement.text(0).flatMap(Job.State.init(rawValue:)) {
                    counts[state] = Int(clamping: statement.integer(1) ?? 0)
                }
            }
            return counts
        }
    }

    func removeFinished(before: Double) async throws -> [String] {
        try transaction { database in
            let statement = try database.cached(
                "DELETE FROM jobs WHERE state IN ('done', 'failed', 'cancelled') AND finished < ?1 RETURNING id")
            statement.bind(1, before)
            var removed: [String] = []
            while try statement.step() { if let id = statement.text(0) { removed.append(id) } }
            return removed
        }
    }

    func dueDeliveries(owner: LeaseOwner, now: Double, leaseUntil: Double, limit: Int) async throws -> [WebhookDelivery] {
        try transaction { database in
            let statement = try database.cached(
                """
                UPDATE deliveries SET lease_owner = ?1, lease_until = ?3
                WHERE id IN (SELECT id FROM deliveries WHERE settled = 0 AND next_attempt <= ?2
                    AND (lease_until IS NULL OR lease_until < ?2) ORDER BY next_attempt LIMIT ?4)
                RETURNING id, job, client, url, body, traceparent, created, next_attempt, attempts
                """)
            statement.bind(1, owner.text)
            statement.bind(2, now)
            statement.bind(3, leaseUntil)
            statement.bind(4, Int64(limit))
            var due: [WebhookDelivery] = []
            while try statement.step() {
                due.append(
                    WebhookDelivery(
                        id: statement.text(0) ?? "", job: statement.text(1) ?? "", client: statement.text(2) ?? "",
                        url: statement.text(3) ?? "", body: statement.text(4) ?? "", traceparent: statement.text(5),
                        created: statement.real(6) ?? now, nextAttempt: statement.real(7) ?? now,
                        attempts: Int(clamping: statement.integer(8) ?? 0)))
            }
            return due
        }
    }

    func settleDelivery(id: String, abandoned: String?) async throws {
        try transaction { database in
            let statement = try database.cached(
                "UPDATE deliveries SET settled = 1, attempts = attempts + 1, last_error = ?2, lease_owner = NULL, lease_until = NULL WHERE id = ?1"
            )
            statement.bind(1, id)
            statement.bind(2, abandoned)
            try statement.run()
        }
    }

    func retryDelivery(id: String, attempts: Int, next: Double, error: String) async throws {
        try transaction { database in
            let statement = try database.cached(
                """
                UPDATE deliveries SET attempts = ?2, next_attempt = ?3, last_error = ?4, lease_owner = NULL, lease_until = NULL
                WHERE id = ?1
                """)
            statement.bind(1, id)
            statement.bind(2, Int64(attempts))
            statement.bind(3, next)
            statement.bind(4, error)
            try statement.run()
        }
    }

    /// The job in a row of `columns`.
    private static func job(_ row: SQLiteStatement) throws -> Job {
        guard let id = row.text(0), let client = row.text(1), let input = row.text(4).flatMap(Job.Input.init(rawValue:)),
            let state = row.text(11).flatMap(Job.State.init(rawValue:))
        else { throw FolioError(path: "", "the job store holds a job it cannot read") }
        return Job(
            id: id, client: client, idempotencyKey: row.text(2), template: row.text(3), input: input,
            formats: (row.text(5) ?? "pdf").split(separator: ",").map(String.init), html: row.text(6) ?? "page",
            period: row.text(7), zone: row.text(8), webhook: row.text(9), traceparent: row.text(10), state: state,
            created: row.real(12) ?? 0, started: row.real(13), finished: row.real(14),
            total: Int(clamping: row.integer(15) ?? 0), written: Int(clamping: row.integer(16) ?? 0),
            failed: Int(clamping: row.integer(17) ?? 0), error: row.text(18), cancelRequested: row.integer(19) == 1)
    }
}
