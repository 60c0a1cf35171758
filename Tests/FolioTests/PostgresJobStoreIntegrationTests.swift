import FolioModel
import Foundation
import XCTest

@testable import FolioServer

/// The job store of several servers on a real PostgreSQL 15 (Debian's, started by `TestPostgres`
/// on loopback): the same contract as SQLite's, then what only many servers at once can break —
/// concurrent claims, concurrent submissions with one `Idempotency-Key`, a client's limit under a
/// race — and two `folio serve` sharing one queue, one killed mid-job.
final class PostgresJobStoreIntegrationTests: XCTestCase {
    nonisolated(unsafe) private static var server: TestPostgres?
    nonisolated(unsafe) private static var startError: (any Error)?

    override class func setUp() {
        super.setUp()
        do { server = try TestPostgres() } catch { startError = error }
    }

    override class func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    private func postgres() throws -> TestPostgres {
        if let error = PostgresJobStoreIntegrationTests.startError { throw error }
        return try XCTUnwrap(PostgresJobStoreIntegrationTests.server)
    }

    /// A store on a new, empty database; `open` made its tables.
    private func newStore() async throws -> PostgresJobStore {
        let store = PostgresJobStore(location: try PostgresLocation(try postgres().newDatabase()))
        try await store.open()
        return store
    }

    func testThePostgreSQLStoreKeepsTheSameContractAsSQLites() async throws {
        let stores = Locked<[PostgresJobStore]>([])
        defer { for store in stores.value { store.close() } }
        try await JobStoreContract {
            let store = try await self.newStore()
            stores.withLock { $0.append(store) }
            return store
        }.checkAll()
    }

    func testServersClaimingAtOnceNeverTakeTheSameJob() async throws {
        let store = try await newStore()
        defer { store.close() }
        let count = 60
        for number in 0..<count { _ = try await store.insert(JobStoreContract.job(created: Double(number)), limit: 1000) }
        // Eight servers, each claiming as fast as it can until the queue is empty.
        let claimed = try await withThrowingTaskGroup(of: [String].self) { group in
            for server in 0..<8 {
                group.addTask {
                    let owner = LeaseOwner(instance: "s\(server)", host: "host-\(server)", pid: Int32(100 + server))
                    var mine: [String] = []
                    while let job = try await store.claim(owner: owner, now: 10_000, leaseUntil: 20_000) { mine.append(job.id) }
                    return mine
                }
            }
            var all: [String] = []
            for try await ids in group { all += ids }
            return all
        }
        XCTAssertEqual(claimed.count, count, "every job claimed, none twice")
        XCTAssertEqual(Set(claimed).count, count)
        let counts = try await store.countsByState()
        XCTAssertEqual(counts[.running], count)
    }

    func testSubmissionsRacingWithOneKeyMakeOneJobAndALimitHoldsUnderARace() async throws {
        let store = try await newStore()
        defer { store.close() }
        let results = try await withThrowingTaskGroup(of: (String, Bool).self) { group in
            for _ in 0..<12 {
                group.addTask {
                    let result = try await store.insert(JobStoreContract.job(key: "discharge-P1"), limit: 100)
                    return (result.job.id, result.created)
                }
            }
            var all: [(String, Bool)] = []
            for try await result in group { all.append(result) }
            return all
        }
        XCTAssertEqual(results.filter(\.1).count, 1, "one submission makes the job")
        XCTAssertEqual(Set(results.map(\.0)).count, 1, "every one gets that job")
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<12 {
                group.addTask { (try? await store.insert(JobStoreContract.job(client: "clinic"), limit: 3)) != nil }
            }
            var all: [Bool] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        XCTAssertEqual(outcomes.filter { $0 }.count, 3, "a client's limit of 3 holds when 12 submissions race")
    }

    func testAnUnreachableServerIsOneLineNamingTheOptionAndNeverThePassword() async throws {
        let port = try postgres().port
        // The test server's port with a wrong password, and a port nothing listens on.
        let wrong = PostgresJobStore(
            location: try PostgresLocation("postgresql://folio:not-the-password@127.0.0.1:\(port)/folio?sslmode=disable"))
        defer { wrong.close() }
        do {
            try await wrong.open()
            XCTFail("a wrong password is refused")
        } catch let error as FolioError {
            XCTAssertEqual(error.path, "--job-store")
            XCTAssertTrue(error.description.contains("127.0.0.1:\(port)/folio"), error.description)
            XCTAssertTrue(error.description.contains("password authentication failed"), error.description)
            XCTAssertFalse(error.description.contains("not-the-password"), error.description)
            XCTAssertFalse(error.description.contains("\n"), error.description)
        }
        let nobody = PostgresJobStore(location: try PostgresLocation("postgresql://folio:secret@127.0.0.1:1/folio?sslmode=disable"))
        defer { nobody.close() }
        do {
            try await nobody.open()
            XCTFail("a port nothing listens on is refused")
        } catch let error as FolioError {
            XCTAssertEqual(error.path, "--job-store")
            XCTAssertTrue(error.description.contains("127.0.0.1:1/folio: cannot connect"), error.description)
            XCTAssertFalse(error.description.contains("secret"), error.description)
        }
    }

    func testTwoServersShareOneQueueAndOneKilledMidJobLeavesItToTheOther() throws {
        let url = try postgres().newDatabase()
        let jobDir = try TestSupport.temporaryDirectory().appendingPathComponent("jobs")
        let templates = TestSupport.root.appendingPathComponent("Templates")
        func start() throws -> RunningServer {
            try RunningServer([
                "--templates", templates.path, "--assets", templates.path, "--job-dir", jobDir.path, "--job-store", url,
                "--grace-period", "0", "--workers", "1",
            ])
        }
        let first = try start()
        let second = try start()
        defer { second.stop() }
        let count = 80
        let lines = try String(contentsOf: TestSupport.samples.appendingPathComponent("patients.jsonl"), encoding: .utf8)
        let record = try XCTUnwrap(lines.split(separator: "\n").first.map(String.init))
        let body = (1...count).map {
            record.replacingOccurrences(of: "\"P00001\"", with: "\"P\($0)\"").replacingOccurrences(
                of: "Émile Okafor", with: "Patient Number\($0)")
        }.joined(separator: "\n")
        // Two jobs: both servers busy, one with each (or one with both); the first server is killed mid-job.
        var ids: [String] = []
        for _ in 0..<2 {
            let accepted = try HTTPExchange.send(
                "POST", first.url("/v1/jobs?template=weekly-summary"), headers: ["Content-Type: application/x-ndjson"],
                body: Data(body.utf8))
            XCTAssertEqual(accepted.status, 202, accepted.text)
            ids.append(try XCTUnwrap(accepted.json["id"] as? String))
        }
        let deadline = Date().addingTimeInterval(120)
        func written(_ id: String) -> Int {
            let text = (try? String(contentsOf: jobDir.appendingPathComponent("\(id)/manifest.jsonl"), encoding: .utf8)) ?? ""
            return text.split(separator: "\n").count
        }
        while ids.contains(where: { written($0) < 10 }) && Date() < deadline { usleep(50_000) }
        XCTAssertTrue(ids.allSatisfy { written($0) < count }, "a job finished before the kill")
        first.stop(signal: SIGKILL)
        // The survivor takes the dead server's job (the same host: at once) and finishes both.
        for id in ids {
            var status: [String: Any] = [:]
            let finish = Date().addingTimeInterval(300)
            while Date() < finish {
                status = try HTTPExchange.send("GET", second.url("/v1/jobs/\(id)")).json
                if ["done", "failed"].contains(status["state"] as? String ?? "") { break }
                usleep(200_000)
            }
            XCTAssertEqual(status["state"] as? String, "done", "\(status)")
            XCTAssertEqual(status["written"] as? Int, count)
            let manifest = try String(contentsOf: jobDir.appendingPathComponent("\(id)/manifest.jsonl"), encoding: .utf8)
            let numbers = manifest.split(separator: "\n").compactMap {
                ((try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any])?["number"] as? Int
            }
            XCTAssertEqual(numbers.count, count, "a record listed twice or not at all")
            XCTAssertEqual(Set(numbers), Set(1...count))
            let files = try FileManager.default.contentsOfDirectory(atPath: jobDir.appendingPathComponent("\(id)/documents").path)
            XCTAssertEqual(files.sorted(), (1...count).map { "record-\($0).pdf" }.sorted(), "a duplicate, a leftover or a missing document")
            let pdf = try HTTPExchange.send("GET", second.url("/v1/jobs/\(id)/documents/record-\(count).pdf"))
            XCTAssertTrue(try TestSupport.pdfText(pdf.body).contains("Patient Number\(count)\n"))
        }
    }
}
