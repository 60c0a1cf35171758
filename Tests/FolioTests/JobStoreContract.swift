import FolioModel
import Foundation
import XCTest

@testable import FolioServer

/// What every job store must do, checked the same way on SQLite (`JobStoreTests`) and on
/// PostgreSQL (`PostgresJobStoreIntegrationTests`): leases, per-client limits, idempotency,
/// cancellation, retention and webhook events. `makeStore` gives a new, empty store each time.
struct JobStoreContract {
    let makeStore: () async throws -> any JobStore

    static func job(client: String = "portal", key: String? = nil, created: Double = 1000) -> Job {
        Job(
            id: JobIdentifier.make(), client: client, idempotencyKey: key, template: "weekly-summary", input: .jsonLines, formats: ["pdf"],
            html: "page", period: nil, zone: nil, webhook: "https://hooks.example.org/folio", traceparent: nil, state: .queued,
            created: created, started: nil, finished: nil, total: 0, written: 0, failed: 0, error: nil, cancelRequested: false)
    }

    private let alive = LeaseOwner(instance: "a", host: "other-host", pid: 1)
    private let second = LeaseOwner(instance: "b", host: "other-host-2", pid: 2)

    private func job(client: String = "portal", key: String? = nil, created: Double = 1000) -> Job {
        JobStoreContract.job(client: client, key: key, created: created)
    }

    func aJobIsClaimedByOneServerAndTakenOverOnlyWhenItsLeaseLapses() async throws {
        let store = try await makeStore()
        let first = job(created: 1000)
        _ = try await store.insert(first, limit: 10)
        _ = try await store.insert(job(created: 2000), limit: 10)
        let claimed = try await store.claim(owner: alive, now: 5000, leaseUntil: 5030)
        XCTAssertEqual(claimed?.id, first.id, "the oldest job first")
        XCTAssertEqual(claimed?.state, .running)
        XCTAssertEqual(claimed?.started, 5000)
        let next = try await store.claim(owner: second, now: 5001, leaseUntil: 99_999)
        XCTAssertNotNil(next)
        XCTAssertNotEqual(next?.id, first.id, "a held job is not claimed twice")
        let none = try await store.claim(owner: second, now: 5002, leaseUntil: 99_999)
        XCTAssertNil(none)
        let renewed = try await store.renew(id: first.id, owner: alive, leaseUntil: 5060, total: 10, written: 3, failed: 1)
        XCTAssertTrue(renewed.held)
        let early = try await store.claim(owner: second, now: 5040, leaseUntil: 5070)
        XCTAssertNil(early, "a renewed lease is not taken")
        let taken = try await store.claim(owner: second, now: 5061, leaseUntil: 5091)
        XCTAssertEqual(taken?.id, first.id, "a lapsed lease is taken over")
        XCTAssertEqual(taken?.started, 5000, "it keeps its first start")
        XCTAssertEqual(taken?.written, 3, "and its counts")
        let lost = try await store.renew(id: first.id, owner: alive, leaseUntil: 5100, total: 10, written: 4, failed: 1)
        XCTAssertFalse(lost.held)
        var finished = try XCTUnwrap(taken)
        (finished.state, finished.finished, finished.written) = (.done, 5070, 10)
        let byLoser = try await store.finish(finished, owner: alive, event: nil)
        XCTAssertEqual(byLoser, .notHeld, "a server that lost the lease cannot finish the job")
        let byHolder = try await store.finish(finished, owner: second, event: nil)
        XCTAssertEqual(byHolder, .finished)
        let read = try await store.job(id: first.id, client: "portal")
        XCTAssertEqual(read?.state, .done)
        XCTAssertEqual(read?.written, 10)
    }

    func aClientHasAtMostItsLimitOfUnfinishedJobs() async throws {
        let store = try await makeStore()
        _ = try await store.insert(job(created: 1000), limit: 2)
        _ = try await store.insert(job(created: 1001), limit: 2)
        do {
            _ = try await store.insert(job(created: 1002), limit: 2)
            XCTFail("a third unfinished job is refused")
        } catch let error as TooManyJobs {
            XCTAssertEqual(error.limit, 2)
        }
        let other = try await store.insert(job(client: "other", created: 1003), limit: 2)
        XCTAssertTrue(other.created, "another client's jobs count apart")
        // A finished job no longer counts (the oldest, one of this client's, is the one claimed).
        let claimed = try await store.claim(owner: alive, now: 1, leaseUntil: 30)
        var done = try XCTUnwrap(claimed)
        XCTAssertEqual(done.client, "portal")
        (done.state, done.finished) = (.done, 2)
        let finished = try await store.finish(done, owner: alive, event: nil)
        XCTAssertEqual(finished, .finished)
        let again = try await store.insert(job(), limit: 2)
        XCTAssertTrue(again.created)
    }

    func aDeadServerOfThisMachineLeavesItsJobAtOnce() async throws {
        let store = try await makeStore()
        let stored = job()
        _ = try await store.insert(stored, limit: 10)
        let me = LeaseOwner.thisProcess()
        // The same host, a process that is gone (pid 2^22 + 1 is above Linux's pid_max default).
        let dead = LeaseOwner(instance: "gone", host: me.host, pid: 4_194_305)
        let byDead = try await store.claim(owner: dead, now: 100, leaseUntil: 10_000)
        XCTAssertNotNil(byDead)
        let byMe = try await store.claim(owner: me, now: 101, leaseUntil: 131)
        XCTAssertEqual(byMe?.id, stored.id, "a dead holder's lease is not waited for")
        // This process's earlier instance (a restart with the same pid, as a container's pid 1) is dead too.
        let restarted = LeaseOwner(instance: "new", host: me.host, pid: me.pid)
        let byRestarted = try await store.claim(owner: restarted, now: 102, leaseUntil: 132)
        XCTAssertEqual(byRestarted?.id, stored.id)
        let again = try await store.claim(owner: restarted, now: 103, leaseUntil: 133)
        XCTAssertNil(again, "a live holder keeps its job")
    }

    func idempotencyKeysAndJobsBelongToTheirClient() async throws {
        let store = try await makeStore()
        let first = try await store.insert(job(key: "k1"), limit: 10)
        XCTAssertTrue(first.created)
        let again = try await store.insert(job(key: "k1"), limit: 10)
        XCTAssertFalse(again.created)
        XCTAssertEqual(again.job.id, first.job.id)
        let byKey = try await store.job(idempotencyKey: "k1", client: "portal")
        XCTAssertEqual(byKey?.id, first.job.id)
        let other = try await store.insert(job(client: "other", key: "k1"), limit: 10)
        XCTAssertTrue(other.created)
        let seenByOther = try await store.job(id: first.job.id, client: "other")
        XCTAssertNil(seenByOther)
        let cancelledByOther = try await store.cancel(id: first.job.id, client: "other", now: 1)
        XCTAssertNil(cancelledByOther)
        let cancelled = try await store.cancel(id: first.job.id, client: "portal", now: 1)
        XCTAssertEqual(cancelled?.state, .cancelled)
        let gone = try await store.job(id: first.job.id, client: "portal")
        XCTAssertNil(gone, "a cancelled queued job is gone at once")
        let claimed = try await store.claim(owner: alive, now: 2, leaseUntil: 30)
        XCTAssertNotEqual(claimed?.id, first.job.id)
        let reused = try await store.insert(job(key: "k1"), limit: 10)
        XCTAssertTrue(reused.created, "a removed job's key is free again")
    }

    func aRunningJobIsCancelledAtItsNextRenewalThenRemovedAndFinishedJobsExpire() async throws {
        let store = try await makeStore()
        let stored = job()
        _ = try await store.insert(stored, limit: 10)
        _ = try await store.claim(owner: alive, now: 10, leaseUntil: 40)
        let cancelled = try await store.cancel(id: stored.id, client: "portal", now: 11)
        XCTAssertEqual(cancelled?.cancelRequested, true)
        let hidden = try await store.job(id: stored.id, client: "portal")
        XCTAssertNil(hidden, "its client no longer sees it")
        let renewed = try await store.renew(id: stored.id, owner: alive, leaseUntil: 50, total: 1, written: 0, failed: 0)
        XCTAssertTrue(renewed.cancelRequested)
        var done = stored
        (done.state, done.finished) = (.cancelled, 20)
        let finished = try await store.finish(done, owner: alive, event: nil)
        XCTAssertEqual(finished, .removed, "a job its client removed is gone from the store once its server stops it")
        let gone = try await store.claim(owner: alive, now: 21, leaseUntil: 51)
        XCTAssertNil(gone)
        let counts = try await store.countsByState()
        XCTAssertEqual(counts[.cancelled] ?? 0, 0)
        // A finished job expires after its retention.
        let other = job()
        _ = try await store.insert(other, limit: 10)
        _ = try await store.claim(owner: alive, now: 30, leaseUntil: 60)
        let running = try await store.countsByState()
        XCTAssertEqual(running[.running], 1)
        var ended = other
        (ended.state, ended.finished) = (.done, 40)
        let otherFinished = try await store.finish(ended, owner: alive, event: nil)
        XCTAssertEqual(otherFinished, .finished)
        // Removed after its last renewal, a job its server then finishes as done is removed, and its event never sent.
        var late = job()
        _ = try await store.insert(late, limit: 10)
        _ = try await store.claim(owner: alive, now: 32, leaseUntil: 62)
        _ = try await store.cancel(id: late.id, client: "portal", now: 33)
        (late.state, late.finished, late.total, late.written) = (.done, 34, 1, 1)
        let lateEvent = try XCTUnwrap(WebhookEvent.delivery(for: late, url: "https://hooks.example.org/folio"))
        let lateFinish = try await store.finish(late, owner: alive, event: lateEvent)
        XCTAssertEqual(lateFinish, .removed)
        let noEvent = try await store.dueDeliveries(owner: alive, now: 35, leaseUntil: 65, limit: 8)
        XCTAssertEqual(noEvent, [])
        let tooEarly = try await store.removeFinished(before: 39)
        XCTAssertEqual(tooEarly, [])
        let expired = try await store.removeFinished(before: 41)
        XCTAssertEqual(expired, [other.id])
    }

    func aFinishedJobsEventIsStoredWithItAndRetriedUntilSettled() async throws {
        let store = try await makeStore()
        var stored = job()
        _ = try await store.insert(stored, limit: 10)
        _ = try await store.claim(owner: alive, now: 10, leaseUntil: 40)
        (stored.state, stored.finished, stored.total, stored.written) = (.done, 20, 5, 5)
        let event = try XCTUnwrap(WebhookEvent.delivery(for: stored, url: "https://hooks.example.org/folio"))
        let finished = try await store.finish(stored, owner: alive, event: event)
        XCTAssertEqual(finished, .finished)
        let due = try await store.dueDeliveries(owner: alive, now: 21, leaseUntil: 141, limit: 8)
        XCTAssertEqual(due.map(\.id), [event.id])
        let twice = try await store.dueDeliveries(owner: second, now: 22, leaseUntil: 142, limit: 8)
        XCTAssertEqual(twice, [], "an event being sent is not sent twice")
        try await store.retryDelivery(id: event.id, attempts: 1, next: 30, error: "the receiver answered 503")
        let early = try await store.dueDeliveries(owner: second, now: 29, leaseUntil: 149, limit: 8)
        XCTAssertEqual(early, [])
        let retried = try await store.dueDeliveries(owner: second, now: 30, leaseUntil: 150, limit: 8)
        XCTAssertEqual(retried.map(\.attempts), [1])
        XCTAssertEqual(retried.first?.body, event.body, "every attempt sends the same body")
        try await store.settleDelivery(id: event.id, abandoned: nil)
        let settled = try await store.dueDeliveries(owner: second, now: 10_000, leaseUntil: 10_120, limit: 8)
        XCTAssertEqual(settled, [])
        // Ids and counts only.
        XCTAssertFalse(event.body.contains("records"))
        XCTAssertTrue(event.body.contains("\"type\":\"job.done\""), event.body)
    }

    /// Every check above, in order.
    func checkAll() async throws {
        try await aJobIsClaimedByOneServerAndTakenOverOnlyWhenItsLeaseLapses()
        try await aClientHasAtMostItsLimitOfUnfinishedJobs()
        try await aDeadServerOfThisMachineLeavesItsJobAtOnce()
        try await idempotencyKeysAndJobsBelongToTheirClient()
        try await aRunningJobIsCancelledAtItsNextRenewalThenRemovedAndFinishedJobsExpire()
        try await aFinishedJobsEventIsStoredWithItAndRetriedUntilSettled()
    }
}
