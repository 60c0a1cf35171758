import FolioModel
import Foundation
import Logging
import PostgresNIO

/// The job store of several servers: one PostgreSQL database (`--job-store postgresql://…`)
/// shared by every `folio serve` that takes jobs, through postgres-nio's connection pool. A server
/// takes a job with `FOR UPDATE SKIP LOCKED` (two servers never take the same one, and neither
/// waits for the other) and holds it under a lease it renews; a job whose lease lapsed, or whose
/// holder is a dead process of the same host, is taken over. A new job is committed (PostgreSQL's
/// write-ahead log flushed) before its `202` is sent. Jobs' inputs and documents are in `--job-dir`,
/// a folder every server mounts.
final class PostgresJobStore: JobStore {
    private let client: PostgresClient
    private let connections: Task<Void, Never>
    private let logger = Logger(label: "folio.jobs.postgres")
    private let location: PostgresLocation
    /// When `claim` last looked for abandoned running jobs (seconds since 1970).
    private let lastAbandonedSearch = Locked(-Double.infinity)
    /// The advisory lock one server holds while it makes the tables (any number no other lock uses).
    private static let schemaLock: Int64 = 4_242_001

    private static let columns = """
        id, client, idempotency_key, template, input, formats, html, period, zone, webhook, traceparent, state,
        created, started, finished, total, written, failed, error, cancel_requested
        """

    /// Connects to the server `location` names (`PostgresLocation`); `open` checks it and makes the tables.
    init(location: PostgresLocation) {
        self.location = location
        client = PostgresClient(configuration: location.configuration(), backgroundLogger: Logger(label: "folio.jobs.postgres.pool"))
        let client = client
        connections = Task { await client.run() }
    }

    deinit { connections.cancel() }

    /// Reaches the server and makes the tables if they are missing; throws one line naming
    /// `--job-store` when it cannot.
    func open() async throws {
        do {
            // One connection first, alone: the pool retries a refused connection for a minute and
            // then says only that it gave up; this says what the server said.
            let first = try await PostgresConnection.connect(
                configuration: try location.connectionConfiguration(), id: 0, logger: logger)
            try await first.close()
            try await transaction { connection in
                // One server at a time makes the tables (CREATE … IF NOT EXISTS races with itself).
                try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresJobStore.schemaLock))", logger: logger)
                for statement in PostgresJobStore.schema {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
            }
        } catch {
            throw FolioError(
                path: "--job-store", "cannot use the PostgreSQL database at \(location.shown): \(PostgresJobStore.reason(error))")
        }
    }

    /// Stops the connections.
    func close() { connections.cancel() }

    private static let schema = [
        """
        CREATE TABLE IF NOT EXISTS folio_jobs (
            id TEXT PRIMARY KEY, client TEXT NOT NULL, idempotency_key TEXT, template TEXT, input TEXT NOT NULL,
            formats TEXT NOT NULL, html TEXT NOT NULL, period TEXT, zone TEXT, webhook TEXT, traceparent TEXT,
            state TEXT NOT NULL, created DOUBLE PRECISION NOT NULL, started DOUBLE PRECISION, finished DOUBLE PRECISION,
            total BIGINT NOT NULL DEFAULT 0, written BIGINT NOT NULL DEFAULT 0, failed BIGINT NOT NULL DEFAULT 0,
            error TEXT, cancel_requested BOOLEAN NOT NULL DEFAULT FALSE, lease_owner TEXT, lease_until DOUBLE PRECISION,
            removed BOOLEAN NOT NULL DEFAULT FALSE,
            UNIQUE (client, idempotency_key))
        """,
        "CREATE INDEX IF NOT EXISTS folio_jobs_by_state ON folio_jobs (state, created)",
        """
        CREATE TABLE IF NOT EXISTS folio_deliveries (
            id TEXT PRIMARY KEY, job TEXT NOT NULL REFERENCES folio_jobs (id) ON DELETE CASCADE, client TEXT NOT NULL,
            url TEXT NOT NULL, body TEXT NOT NULL, traceparent TEXT, created DOUBLE PRECISION NOT NULL,
            next_attempt DOUBLE PRECISION NOT NULL, attempts BIGINT NOT NULL DEFAULT 0, settled BOOLEAN NOT NULL DEFAULT FALSE,
            last_error TEXT, lease_owner TEXT, lease_until DOUBLE PRECISION)
        """,
        "CREATE INDEX IF NOT EXISTS folio_deliveries_due ON folio_deliveries (settled, next_attempt)",
    ]

    /// Runs `work` in a transaction, committed when it returns, rolled back when it throws.
    private func transaction<T: Sendable>(_ work: (PostgresConnection) async throws -> T) async throws -> T {
        do {
            return try await client.withTransaction(logger: logger) { connection in try await work(connection) }
        } catch let error as PostgresTransactionError {
            throw error.closureError ?? error.beginError ?? error.commitError ?? error
        }
    }

    func insert(_ job: Job, limit: Int) async throws -> (job: Job, created: Bool) {
        try await transaction { connection in
            // A client's jobs are counted and inserted one submission at a time, across servers.
            try await connection.query("SELECT pg_advisory_xact_lock(hashtext(\(job.client)))", logger: logger)
            if let key = job.idempotencyKey, let existing = try await self.job(idempotencyKey: key, client: job.client, on: connection) {
                return (existing, false)
            }
            // Counted and inserted in one statement, under the client's lock.
            let inserted = try await first(
                connection,
                """
                INSERT INTO folio_jobs (id, client, idempotency_key, template, input, formats, html, period, zone, webhook,
                    traceparent, state, created)
                SELECT \(job.id), \(job.client), \(job.idempotencyKey), \(job.template), \(job.input.rawValue),
                    \(job.formats.joined(separator: ",")), \(job.html), \(job.period), \(job.zone), \(job.webhook),
                    \(job.traceparent), 'queued', \(job.created)
                WHERE (SELECT COUNT(*) FROM folio_jobs WHERE client = \(job.client) AND state IN ('queued', 'running') AND NOT removed)
                    < \(Int64(limit))
                RETURNING id
                """)
            if inserted == nil { throw TooManyJobs(limit: limit) }
            var stored = job
            stored.state = .queued
            return (stored, true)
        }
    }

    func job(id: String, client: String) async throws -> Job? {
        try await onConnection { connection in
            try await self.first(
                connection,
                "SELECT \(unescaped: PostgresJobStore.columns) FROM folio_jobs WHERE id = \(id) AND client = \(client) AND NOT removed"
            ).map(PostgresJobStore.job)
        }
    }

    func job(idempotencyKey: String, client: String) async throws -> Job? {
        try await onConnection { connection in try await self.job(idempotencyKey: idempotencyKey, client: client, on: connection) }
    }

    /// The client's job submitted with `idempotencyKey`, read on `connection` (in its transaction, if any).
    private func job(idempotencyKey: String, client: String, on connection: PostgresConnection) async throws -> Job? {
        try await first(
            connection,
            "SELECT \(unescaped: PostgresJobStore.columns) FROM folio_jobs WHERE client = \(client) AND idempotency_key = \(idempotencyKey) AND NOT removed"
        ).map(PostgresJobStore.job)
    }

    func claim(owner: LeaseOwner, now: Double, leaseUntil: Double) async throws -> Job? {
        // Running jobs whose holder is gone are looked for first, at most once a second (and at this
        // server's first claim, so its restart takes its own jobs back at once): a lease lasts far longer.
        let lookForAbandoned = lastAbandonedSearch.withLock { last in
            guard now - last >= 1 || now < last else { return false }
            last = now
            return true
        }
        if lookForAbandoned, let job = try await claimAbandoned(owner: owner, now: now, leaseUntil: leaseUntil) { return job }
        // The oldest queued job, in one statement (its own transaction): rows another server is taking are skipped.
        return try await onConnection { connection in
            try await self.first(
                connection,
                """
                UPDATE folio_jobs SET state = 'running', started = COALESCE(started, \(now)), lease_owner = \(owner.text),
                    lease_until = \(leaseUntil)
                WHERE state = 'queued' AND id = (
                    SELECT id FROM folio_jobs WHERE state = 'queued' ORDER BY created, id LIMIT 1 FOR UPDATE SKIP LOCKED)
                RETURNING \(unescaped: PostgresJobStore.columns)
                """
            ).map(PostgresJobStore.job)
        }
    }

    /// Takes a running job whose lease lapsed or whose holder on this host died (the one accepted earliest).
    private func claimAbandoned(owner: LeaseOwner, now: Double, leaseUntil: Double) async throws -> Job? {
        try await transaction { connection in
            var chosen: String?
            let running = try await connection.query(
                """
                SELECT id, lease_owner, lease_until FROM folio_jobs WHERE state = 'running'
                    AND (lease_until < \(now) OR lease_owner LIKE \(owner.host + " %"))
                ORDER BY created, id FOR UPDATE SKIP LOCKED
                """, logger: logger)
            for try await (id, holder, until) in running.decode((String, String?, Double?).self) {
                if chosen == nil, (until ?? 0) < now || owner.isDeadOnThisHost(holder ?? "") { chosen = id }
            }
            guard let chosen else { return nil }
            return try await first(
                connection,
                """
                UPDATE folio_jobs SET state = 'running', started = COALESCE(started, \(now)), lease_owner = \(owner.text),
                    lease_until = \(leaseUntil)
                WHERE id = \(chosen) RETURNING \(unescaped: PostgresJobStore.columns)
                """
            ).map(PostgresJobStore.job)
        }
    }

    func renew(id: String, owner: LeaseOwner, leaseUntil: Double, total: Int, written: Int, failed: Int) async throws
        -> (held: Bool, cancelRequested: Bool)
    {
        try await onConnection { connection in
            let row = try await self.first(
                connection,
                """
                UPDATE folio_jobs SET lease_until = \(leaseUntil), total = \(Int64(total)), written = \(Int64(written)),
                    failed = \(Int64(failed))
                WHERE id = \(id) AND lease_owner = \(owner.text) AND state = 'running' RETURNING cancel_requested
                """)
            guard let row else { return (false, false) }
            return (true, try row.decode(Bool.self))
        }
    }

    func finish(_ job: Job, owner: LeaseOwner, event: WebhookDelivery?) async throws -> JobFinish {
        let update: PostgresQuery = """
            UPDATE folio_jobs SET state = \(job.state.rawValue), finished = \(job.finished), total = \(Int64(job.total)),
                written = \(Int64(job.written)), failed = \(Int64(job.failed)), error = \(job.error),
                lease_owner = NULL, lease_until = NULL
            WHERE id = \(job.id) AND lease_owner = \(owner.text) AND state = 'running' RETURNING removed
            """
        guard let event else {
            // One statement, its own transaction: one round trip for the usual end of a job. A removed
            // job's row is deleted after it (were the server to die between the two, the row, hidden
            // from its client, would go with the finished jobs after their retention).
            return try await onConnection { connection in
                guard let row = try await self.first(connection, update) else { return .notHeld }
                guard try row.decode(Bool.self) else { return .finished }
                try await connection.query("DELETE FROM folio_jobs WHERE id = \(job.id) AND removed", logger: self.logger)
                return .removed
            }
        }
        return try await transaction { connection in
            guard let row = try await first(connection, update) else { return .notHeld }
            if try row.decode(Bool.self) {
                try await connection.query("DELETE FROM folio_jobs WHERE id = \(job.id)", logger: logger)
                return .removed
            }
            try await connection.query(
                """
                INSERT INTO folio_deliveries (id, job, client, url, body, traceparent, created, next_attempt)
                VALUES (\(event.id), \(event.job), \(event.client), \(event.url), \(event.body), \(event.traceparent),
                    \(event.created), \(event.nextAttempt))
                """, logger: logger)
            return .finished
        }
    }

    func cancel(id: String, client: String, now: Double) async throws -> Job? {
        try await transaction { connection in
            guard
                let row = try await first(
                    connection,
                    "SELECT \(unescaped: PostgresJobStore.columns) FROM folio_jobs WHERE id = \(id) AND client = \(client) AND NOT removed FOR UPDATE"
                )
            else { return nil }
            var job = try PostgresJobStore.job(row)
            if job.state == .running {
                // Stopped at its next record by its server, which then removes it.
                try await connection.query(
                    "UPDATE folio_jobs SET cancel_requested = TRUE, removed = TRUE, idempotency_key = NULL WHERE id = \(id)",
                    logger: logger)
                job.cancelRequested = true
            } else {
                try await connection.query("DELETE FROM folio_jobs WHERE id = \(id)", logger: logger)
                if job.state == .queued { job.state = .cancelled }
                job.finished = job.finished ?? now
            }
            return job
        }
    }

    func countsByState() async throws -> [Job.State: Int] {
        try await onConnection { connection in
            let rows = try await connection.query(
                "SELECT state, COUNT(*) FROM folio_jobs WHERE NOT removed GROUP BY state", logger: self.logger)
            var counts: [Job.State: Int] = [:]
            for try await (state, count) in rows.decode((String, Int64).self) {
                if let state = Job.State(rawValue: state) { counts[state] = Int(clamping: count) }
            }
            return counts
        }
    }

    func removeFinished(before: Double) async throws -> [String] {
        try await onConnection { connection in
            let rows = try await connection.query(
                "DELETE FROM folio_jobs WHERE state IN ('done', 'failed', 'cancelled') AND finished < \(before) RETURNING id",
                logger: self.logger)
            var removed: [String] = []
            for try await id in rows.decode(String.self) { removed.append(id) }
            return removed
        }
    }

    func dueDeliveries(owner: LeaseOwner, now: Double, leaseUntil: Double, limit: Int) async throws -> [WebhookDelivery] {
        try await onConnection { connection in
            let rows = try await connection.query(
                """
                UPDATE folio_deliveries SET lease_owner = \(owner.text), lease_until = \(leaseUntil)
                WHERE id IN (SELECT id FROM folio_deliveries WHERE NOT settled AND next_attempt <= \(now)
                    AND (lease_until IS NULL OR lease_until < \(now)) ORDER BY next_attempt LIMIT \(Int64(limit))
                    FOR UPDATE SKIP LOCKED)
                RETURNING id, job, client, url, body, traceparent, created, next_attempt, attempts
                """, logger: self.logger)
            var due: [WebhookDelivery] = []
            for try await (id, job, client, url, body, traceparent, created, next, attempts) in rows.decode(
                (String, String, String, String, String, String?, Double, Double, Int64).self)
            {
                due.append(
                    WebhookDelivery(
                        id: id, job: job, client: client, url: url, body: body, traceparent: traceparent, created: created,
                        nextAttempt: next, attempts: Int(clamping: attempts)))
            }
            return due
        }
    }

    func settleDelivery(id: String, abandoned: String?) async throws {
        try await onConnection { connection in
            try await connection.query(
                """
                UPDATE folio_deliveries SET settled = TRUE, attempts = attempts + 1, last_error = \(abandoned),
                    lease_owner = NULL, lease_until = NULL
                WHERE id = \(id)
                """, logger: self.logger)
        }
    }

    func retryDelivery(id: String, attempts: Int, next: Double, error: String) async throws {
        try await onConnection { connection in
            try await connection.query(
                """
                UPDATE folio_deliveries SET attempts = \(Int64(attempts)), next_attempt = \(next), last_error = \(error),
                    lease_owner = NULL, lease_until = NULL
                WHERE id = \(id)
                """, logger: self.logger)
        }
    }

    /// Runs `work` on a connection of the pool, outside a transaction (each statement commits alone).
    @discardableResult
    private func onConnection<T: Sendable>(_ work: (PostgresConnection) async throws -> T) async throws -> T {
        try await client.withConnection { connection in try await work(connection) }
    }

    /// The first row `query` gives, if any.
    private func first(_ connection: PostgresConnection, _ query: PostgresQuery) async throws -> PostgresRow? {
        let rows = try await connection.query(query, logger: logger)
        var first: PostgresRow?
        for try await row in rows where first == nil { first = row }
        return first
    }

    /// The job in a row of `columns`.
    private static func job(_ row: PostgresRow) throws -> Job {
        let (
            id, client, key, template, input, formats, html, period, zone, webhook, traceparent, state,
            created, started, finished, total, written, failed, error, cancelRequested
        ) = try row.decode(
            (
                String, String, String?, String?, String, String, String, String?, String?, String?, String?, String,
                Double, Double?, Double?, Int64, Int64, Int64, String?, Bool
            ).self)
        guard let input = Job.Input(rawValue: input), let state = Job.State(rawValue: state) else {
            throw FolioError(path: "", "the job store holds a job it cannot read")
        }
        return Job(
            id: id, client: client, idempotencyKey: key, template: template, input: input,
            formats: formats.split(separator: ",").map(String.init), html: html, period: period, zone: zone, webhook: webhook,
            traceparent: traceparent, state: state, created: created, started: started, finished: finished,
            total: Int(clamping: total), written: Int(clamping: written), failed: Int(clamping: failed), error: error,
            cancelRequested: cancelRequested)
    }

    /// What a PostgreSQL error says, in one line without the server's internals.
    static func reason(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            switch error.code {
            case .connectionError: return "cannot connect\(error.underlying.map { ": \(connectionFailure($0))" } ?? "")"
            case .serverClosedConnection: return "the server closed the connection"
            default: return "\(error.code)"
            }
        }
        return "\(error)"
    }

    /// What NIO's connection error says, in words: its errno's text ("connection refused") when it
    /// has one, else its first line.
    private static func connectionFailure(_ error: any Error) -> String {
        let text = "\(error)"
        if let match = text.firstMatch(of: #/errno: (\d+)/#), let code = Int32(match.output.1) {
            return String(cString: strerror(code)).lowercased()
        }
        return String(text.prefix { $0 != "\n" }.prefix(200))
    }
}
