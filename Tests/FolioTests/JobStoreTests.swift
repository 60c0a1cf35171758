import FolioModel
import Foundation
import XCTest

@testable import FolioConnect
@testable import FolioServer

/// The job store's leases, the webhook signature, address checks and the archive format: what a
/// durable job's correctness rests on, in the fast suite.
final class JobStoreTests: XCTestCase {
    private func store() throws -> SQLiteJobStore {
        try SQLiteJobStore(path: try TestSupport.temporaryDirectory().appendingPathComponent("jobs.sqlite").path)
    }

    private func job(client: String = "portal", key: String? = nil, created: Double = 1000) -> Job {
        Job(
            id: JobIdentifier.make(), client: client, idempotencyKey: key, template: "weekly-summary", input: .jsonLines, formats: ["pdf"],
            html: "page", period: nil, zone: nil, webhook: "https://hooks.example.org/folio", traceparent: nil, state: .queued,
            created: created, started: nil, finished: nil, total: 0, written: 0, failed: 0, error: nil, cancelRequested: false)
    }

    private let alive = LeaseOwner(instance: "a", host: "other-host", pid: 1)
    private let second = LeaseOwner(instance: "b", host: "other-host-2", pid: 2)

    func testAJobIsClaimedByOneServerAndTakenOverOnlyWhenItsLeaseLapses() throws {
        let store = try store()
        let first = job(created: 1000)
        _ = try store.insert(first)
        _ = try store.insert(job(created: 2000))
        let claimed = try XCTUnwrap(try store.claim(owner: alive, now: 5000, leaseUntil: 5030))
        XCTAssertEqual(claimed.id, first.id, "the oldest job first")
        XCTAssertEqual(claimed.state, .running)
        XCTAssertEqual(claimed.started, 5000)
        // The second server gets the other job, not the held one.
        XCTAssertNotEqual(try store.claim(owner: second, now: 5001, leaseUntil: 99_999)?.id, first.id)
        XCTAssertNil(try store.claim(owner: second, now: 5002, leaseUntil: 99_999))
        XCTAssertTrue(try store.renew(id: first.id, owner: alive, leaseUntil: 5060, total: 10, written: 3, failed: 1).held)
        XCTAssertNil(try store.claim(owner: second, now: 5040, leaseUntil: 5070), "a renewed lease is not taken")
        // Lapsed: the other server takes the job, keeping its first start; the first server's lease is gone.
        let taken = try XCTUnwrap(try store.claim(owner: second, now: 5061, leaseUntil: 5091))
        XCTAssertEqual(taken.id, first.id)
        XCTAssertEqual(taken.started, 5000)
        XCTAssertEqual(taken.written, 3)
        XCTAssertFalse(try store.renew(id: first.id, owner: alive, leaseUntil: 5100, total: 10, written: 4, failed: 1).held)
        var finished = taken
        (finished.state, finished.finished, finished.written) = (.done, 5070, 10)
        XCTAssertFalse(try store.finish(finished, owner: alive, event: nil), "a server that lost the lease cannot finish the job")
        XCTAssertTrue(try store.finish(finished, owner: second, event: nil))
        XCTAssertEqual(try store.job(id: first.id, client: "portal")?.state, .done)
    }

    func testAClientHasAtMostItsLimitOfUnfinishedJobs() throws {
        let store = try store()
        _ = try store.insert(job(), limit: 2)
        _ = try store.insert(job(), limit: 2)
        XCTAssertThrowsError(try store.insert(job(), limit: 2)) { XCTAssertEqual(($0 as? TooManyJobs)?.limit, 2) }
        XCTAssertTrue(try store.insert(job(client: "other"), limit: 2).created, "another client's jobs count apart")
        // A finished job no longer counts.
        let claimed = try XCTUnwrap(try store.claim(owner: alive, now: 1, leaseUntil: 30))
        var done = claimed
        (done.state, done.finished) = (.done, 2)
        XCTAssertTrue(try store.finish(done, owner: alive, event: nil))
        XCTAssertTrue(try store.insert(job(), limit: 2).created)
    }

    func testADeadServerOfThisMachineLeavesItsJobAtOnce() throws {
        let store = try store()
        let stored = job()
        _ = try store.insert(stored)
        let me = LeaseOwner.thisProcess()
        // The same host, a process that is gone (pid 2^22 + 1 is above Linux's pid_max default).
        let dead = LeaseOwner(instance: "gone", host: me.host, pid: 4_194_305)
        XCTAssertNotNil(try store.claim(owner: dead, now: 100, leaseUntil: 10_000))
        XCTAssertEqual(try store.claim(owner: me, now: 101, leaseUntil: 131)?.id, stored.id, "a dead holder's lease is not waited for")
        // This process's earlier instance (a restart with the same pid, as a container's pid 1) is dead too.
        let restarted = LeaseOwner(instance: "new", host: me.host, pid: me.pid)
        XCTAssertEqual(try store.claim(owner: restarted, now: 102, leaseUntil: 132)?.id, stored.id)
        XCTAssertNil(try store.claim(owner: restarted, now: 103, leaseUntil: 133), "a live holder keeps its job")
    }

    func testIdempotencyKeysAndJobsBelongToTheirClient() throws {
        let store = try store()
        let first = try store.insert(job(key: "k1"))
        XCTAssertTrue(first.created)
        let again = try store.insert(job(key: "k1"))
        XCTAssertFalse(again.created)
        XCTAssertEqual(again.job.id, first.job.id)
        let other = try store.insert(job(client: "other", key: "k1"))
        XCTAssertTrue(other.created)
        XCTAssertNil(try store.job(id: first.job.id, client: "other"))
        XCTAssertNil(try store.cancel(id: first.job.id, client: "other", now: 1))
        XCTAssertEqual(try store.cancel(id: first.job.id, client: "portal", now: 1)?.state, .cancelled)
        XCTAssertNil(try store.job(id: first.job.id, client: "portal"), "a cancelled queued job is gone at once")
        XCTAssertNil(try store.claim(owner: alive, now: 2, leaseUntil: 30).flatMap { $0.id == first.job.id ? $0 : nil })
        XCTAssertTrue(try store.insert(job(key: "k1")).created, "a removed job's key is free again")
    }

    func testARunningJobIsCancelledAtItsNextRenewalThenRemovedAndFinishedJobsExpire() throws {
        let store = try store()
        let stored = job()
        _ = try store.insert(stored)
        _ = try store.claim(owner: alive, now: 10, leaseUntil: 40)
        XCTAssertEqual(try store.cancel(id: stored.id, client: "portal", now: 11)?.cancelRequested, true)
        XCTAssertNil(try store.job(id: stored.id, client: "portal"), "its client no longer sees it")
        XCTAssertTrue(try store.renew(id: stored.id, owner: alive, leaseUntil: 50, total: 1, written: 0, failed: 0).cancelRequested)
        var done = stored
        (done.state, done.finished) = (.cancelled, 20)
        XCTAssertTrue(try store.finish(done, owner: alive, event: nil))
        XCTAssertTrue(try store.purgeRemoved(id: stored.id))
        XCTAssertEqual(try store.countsByState()[.cancelled] ?? 0, 0)
        // A finished job expires after its retention.
        let other = job()
        _ = try store.insert(other)
        _ = try store.claim(owner: alive, now: 30, leaseUntil: 60)
        var finished = other
        (finished.state, finished.finished) = (.done, 40)
        XCTAssertTrue(try store.finish(finished, owner: alive, event: nil))
        XCTAssertFalse(try store.purgeRemoved(id: other.id))
        XCTAssertEqual(try store.removeFinished(before: 39), [])
        XCTAssertEqual(try store.removeFinished(before: 41), [other.id])
    }

    func testAFinishedJobsEventIsStoredWithItAndRetriedUntilSettled() throws {
        let store = try store()
        var stored = job()
        _ = try store.insert(stored)
        _ = try store.claim(owner: alive, now: 10, leaseUntil: 40)
        (stored.state, stored.finished, stored.total, stored.written) = (.done, 20, 5, 5)
        let event = try XCTUnwrap(WebhookEvent.delivery(for: stored, url: "https://hooks.example.org/folio"))
        XCTAssertTrue(try store.finish(stored, owner: alive, event: event))
        let due = try store.dueDeliveries(owner: alive, now: 21, leaseUntil: 141, limit: 8)
        XCTAssertEqual(due.map(\.id), [event.id])
        XCTAssertEqual(
            try store.dueDeliveries(owner: second, now: 22, leaseUntil: 142, limit: 8), [], "an event being sent is not sent twice")
        try store.retryDelivery(id: event.id, attempts: 1, next: 30, error: "the receiver answered 503")
        XCTAssertEqual(try store.dueDeliveries(owner: second, now: 29, leaseUntil: 149, limit: 8), [])
        let retried = try store.dueDeliveries(owner: second, now: 30, leaseUntil: 150, limit: 8)
        XCTAssertEqual(retried.map(\.attempts), [1])
        XCTAssertEqual(retried.first?.body, event.body, "every attempt sends the same body")
        try store.settleDelivery(id: event.id, abandoned: nil)
        XCTAssertEqual(try store.dueDeliveries(owner: second, now: 10_000, leaseUntil: 10_120, limit: 8), [])
        // Ids and counts only.
        XCTAssertFalse(event.body.contains("records"))
        XCTAssertTrue(event.body.contains("\"type\":\"job.done\""), event.body)
    }

    func testTheSignatureIsTheStandardWebhooksOne() throws {
        // The specification's own example (standard-webhooks/standard-webhooks, spec/standard-webhooks.md).
        let key = try XCTUnwrap(WebhookEvent.key(ofSecret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"))
        XCTAssertEqual(
            WebhookEvent.signature(id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330, body: "{\"test\": 2432232314}", key: key),
            "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        XCTAssertNil(WebhookEvent.key(ofSecret: "whsec_c2hvcnQ="), "a secret under 16 bytes")
        XCTAssertNil(WebhookEvent.key(ofSecret: "whsec_not base64!"))
    }

    func testPrivateAddressesAreRefusedInEveryForm() throws {
        let policy = AddressPolicy()
        for refused in [
            "10.0.0.1", "172.16.5.4", "172.31.255.255", "192.168.0.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1",
            "255.255.255.255", "::", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::ffff:a9fe:a9fe", "::10.0.0.1", "64:ff9b::10.0.0.1",
            "2002:0a00:0001::1", "fc00::1", "fd00:ec2::254", "fe80::1", "ff02::1", "[fd00::1]", "2001:db8::1",
        ] {
            XCTAssertEqual(policy.allows(literal: refused), false, refused)
        }
        for allowed in ["127.0.0.1", "::1", "::ffff:127.0.0.1", "93.184.216.34", "2606:4700::1111", "[2606:4700::1111]", "172.32.0.1"] {
            XCTAssertEqual(policy.allows(literal: allowed), true, allowed)
        }
        XCTAssertNil(policy.allows(literal: "hooks.example.org"), "a name is checked once resolved")
        let operatorPolicy = AddressPolicy(allowed: [
            try AddressPolicy.Network("10.9.0.0/16", field: "--webhook-allow"),
            try AddressPolicy.Network("fd12::/16", field: "--webhook-allow"),
        ])
        XCTAssertEqual(operatorPolicy.allows(literal: "10.9.200.1"), true)
        XCTAssertEqual(operatorPolicy.allows(literal: "::ffff:10.9.0.1"), true)
        XCTAssertEqual(operatorPolicy.allows(literal: "10.10.0.1"), false)
        XCTAssertEqual(operatorPolicy.allows(literal: "fd12:3::1"), true)
        XCTAssertEqual(operatorPolicy.allows(literal: "fd13::1"), false)
        XCTAssertThrowsError(try AddressPolicy.Network("10.0.0.0/33", field: "--webhook-allow")) {
            XCTAssertEqual(($0 as? FolioError)?.path, "--webhook-allow")
        }
        XCTAssertThrowsError(try AddressPolicy.Network("example.org/8", field: "--webhook-allow"))
    }

    func testTheArchiveIsUstarThatTarReads() throws {
        let data = Data(repeating: 0x41, count: 700)
        var archive = TarArchive.header(name: "record-1.pdf", size: data.count) + Array(data) + TarArchive.padding(size: data.count)
        archive += TarArchive.end
        XCTAssertEqual(archive.count % 512, 0)
        let file = try TestSupport.temporaryFile(Data(archive), name: "a.tar")
        let listing = try TestSupport.run("tar", ["-tvf", file.path])
        XCTAssertEqual(listing.status, 0, listing.stderr)
        XCTAssertTrue(listing.text.contains("700"), listing.text)
        XCTAssertTrue(listing.text.contains("record-1.pdf"), listing.text)
    }

    func testTheTokensFileIsCheckedFieldByField() throws {
        let folder = try TestSupport.temporaryDirectory()
        func clients(_ text: String, mode: mode_t = 0o600) throws -> ServiceClients {
            let file = folder.appendingPathComponent("tokens-\(UUID().uuidString).json")
            try Data(text.utf8).write(to: file)
            chmod(file.path, mode)
            return try ServiceClients(tokensFile: file.path)
        }
        func error(_ text: String, mode: mode_t = 0o600) -> FolioError? {
            do {
                _ = try clients(text, mode: mode)
                return nil
            } catch { return error as? FolioError }
        }
        let read = try clients(
            #"{"clients": [{"name": "a", "token": "aaaaaaaaaaaaaaaa", "templates": ["x"]}, {"name": "b", "token": "bbbbbbbbbbbbbbbb"}]}"#)
        XCTAssertEqual(read.client(authorization: "Bearer aaaaaaaaaaaaaaaa")?.name, "a")
        XCTAssertEqual(read.client(authorization: "bearer bbbbbbbbbbbbbbbb")?.name, "b")
        XCTAssertNil(read.client(authorization: "Bearer cccccccccccccccc"))
        XCTAssertNil(read.client(authorization: nil))
        XCTAssertEqual(read.client(authorization: "Bearer aaaaaaaaaaaaaaaa")?.may(render: "y"), false)
        XCTAssertEqual(
            error(#"{"clients": [{"name": "a", "token": "short"}]}"#)?.path, "--tokens-file clients[0].token")
        XCTAssertEqual(
            error(#"{"clients": [{"name": "a", "token": "aaaaaaaaaaaaaaaa"}, {"name": "a", "token": "bbbbbbbbbbbbbbbb"}]}"#)?.path,
            "--tokens-file clients[1].name")
        XCTAssertEqual(
            error(#"{"clients": [{"name": "a", "token": "aaaaaaaaaaaaaaaa", "webhookSecret": "nope"}]}"#)?.path,
            "--tokens-file clients[0].webhookSecret")
        XCTAssertEqual(
            error(#"{"clients": [{"name": "a", "token": "aaaaaaaaaaaaaaaa", "role": "x"}]}"#)?.path, "--tokens-file clients[0].role")
        XCTAssertEqual(error(#"{"clients": [{"name": "a", "token": "aaaaaaaaaaaaaaaa"}]}"#, mode: 0o644)?.path, "--tokens-file")
    }

    func testJobRoutesAreNamedByTheirTemplates() {
        XCTAssertEqual(Route(path: "/v1/jobs").name, "/v1/jobs")
        XCTAssertEqual(Route(path: "/v1/jobs/abc").name, "/v1/jobs/{id}")
        XCTAssertEqual(Route(path: "/v1/jobs/abc/documents").name, "/v1/jobs/{id}/documents")
        XCTAssertEqual(Route(path: "/v1/jobs/abc/documents/record-1.pdf").name, "/v1/jobs/{id}/documents/{name}")
        XCTAssertEqual(Route(path: "/v1/jobs/abc/archive").name, "/v1/jobs/{id}/archive")
        XCTAssertEqual(Route(path: "/v1/jobs/abc/other").name, "unmatched")
        XCTAssertTrue(JobIdentifier.isValid(JobIdentifier.make()))
        XCTAssertFalse(JobIdentifier.isValid("../../../etc/passwd"))
        XCTAssertTrue(JobSubmission.isValidTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"))
        XCTAssertFalse(JobSubmission.isValidTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01\r\nX: y"))
    }
}
