import FolioModel
import Foundation
import XCTest

@testable import FolioConnect
@testable import FolioServer

/// The job store's leases, the webhook signature, address checks and the archive format: what a
/// durable job's correctness rests on, in the fast suite.
final class JobStoreTests: XCTestCase {
    private let contract = JobStoreContract {
        try SQLiteJobStore(path: try TestSupport.temporaryDirectory().appendingPathComponent("jobs.sqlite").path)
    }

    func testAJobIsClaimedByOneServerAndTakenOverOnlyWhenItsLeaseLapses() async throws {
        try await contract.aJobIsClaimedByOneServerAndTakenOverOnlyWhenItsLeaseLapses()
    }

    func testAClientHasAtMostItsLimitOfUnfinishedJobs() async throws {
        try await contract.aClientHasAtMostItsLimitOfUnfinishedJobs()
    }

    func testADeadServerOfThisMachineLeavesItsJobAtOnce() async throws {
        try await contract.aDeadServerOfThisMachineLeavesItsJobAtOnce()
    }

    func testIdempotencyKeysAndJobsBelongToTheirClient() async throws {
        try await contract.idempotencyKeysAndJobsBelongToTheirClient()
    }

    func testARunningJobIsCancelledAtItsNextRenewalThenRemovedAndFinishedJobsExpire() async throws {
        try await contract.aRunningJobIsCancelledAtItsNextRenewalThenRemovedAndFinishedJobsExpire()
    }

    func testAFinishedJobsEventIsStoredWithItAndRetriedUntilSettled() async throws {
        try await contract.aFinishedJobsEventIsStoredWithItAndRetriedUntilSettled()
    }

    func testPostgreSQLLocationsAreReadLikeLibpqsAndErrorsNameTheOptionWithoutThePassword() throws {
        let full = try PostgresLocation("postgresql://folio:p%40ss@db.example.org:6543/jobs?sslmode=verify-full&sslrootcert=/ca.pem")
        XCTAssertEqual(full.host, "db.example.org")
        XCTAssertEqual(full.port, 6543)
        XCTAssertEqual(full.user, "folio")
        XCTAssertEqual(full.password, "p@ss", "the password is percent-decoded")
        XCTAssertEqual(full.database, "jobs")
        XCTAssertEqual(full.encryption, .verifyFull)
        XCTAssertEqual(full.rootCertificates, "/ca.pem")
        XCTAssertEqual(full.shown, "db.example.org:6543/jobs")
        let fromEnvironment = try PostgresLocation("postgres://folio@db/jobs", environment: ["PGPASSWORD": "from-env"])
        XCTAssertEqual(fromEnvironment.password, "from-env")
        XCTAssertEqual(fromEnvironment.port, 5432)
        XCTAssertEqual(fromEnvironment.encryption, .prefer)
        let socket = try PostgresLocation("postgresql://folio@/jobs?host=/run/postgresql")
        XCTAssertEqual(socket.socketFolder, "/run/postgresql")
        XCTAssertEqual(socket.shown, "/run/postgresql/.s.PGSQL.5432 (database jobs)")
        for wrong in [
            "postgresql://db.example.org/jobs", "postgresql://folio@db.example.org/", "postgresql://folio@db/jobs?sslmode=maybe",
            "postgresql://folio@db/jobs?options=-c", "postgresql://folio@db:70000/jobs", "postgresql://folio@/jobs?host=relative",
            "postgresql://folio:hunter2@db/jobs?sslmode=sometimes", "mysql://folio@db/jobs",
        ] {
            var settings = JobSettings(directory: URL(fileURLWithPath: "/tmp"))
            settings.store = wrong
            XCTAssertThrowsError(try settings.validate(), wrong) { error in
                XCTAssertEqual((error as? FolioError)?.path, "--job-store", wrong)
                XCTAssertFalse("\(error)".contains("hunter2"), "\(error)")
            }
        }
        var sqlite = JobSettings(directory: URL(fileURLWithPath: "/srv/jobs"))
        XCTAssertEqual(try sqlite.storeLocation(), .sqlite(path: "/srv/jobs/jobs.sqlite"))
        sqlite.store = "sqlite:/var/lib/folio/jobs.db"
        XCTAssertEqual(try sqlite.storeLocation(), .sqlite(path: "/var/lib/folio/jobs.db"))
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

    func testJobIdentifiersAreRandomHexOfSixteenBytes() {
        let identifiers = (0..<1000).map { _ in JobIdentifier.make() }
        XCTAssertTrue(identifiers.allSatisfy(JobIdentifier.isValid))
        XCTAssertEqual(Set(identifiers).count, 1000)
        // Every hex digit turns up in every place (the bytes are not all drawn from one place of a word).
        for place in 0..<32 {
            let digits = Set(identifiers.map { $0.utf8[$0.utf8.index($0.utf8.startIndex, offsetBy: place)] })
            XCTAssertEqual(digits.count, 16, "place \(place)")
        }
    }

    func testTimesAreWrittenInUTCAsISO8601() {
        XCTAssertEqual(UTCTimestamp.text(0), "1970-01-01T00:00:00Z")
        XCTAssertEqual(UTCTimestamp.text(1_796_310_306.75), "2026-12-03T15:05:06Z")
        XCTAssertEqual(UTCTimestamp.text(951_825_600), "2000-02-29T12:00:00Z")
        XCTAssertEqual(UTCTimestamp.text(-1), "1969-12-31T23:59:59Z")
        // A time that is not a number is the epoch, not a trap.
        XCTAssertEqual(UTCTimestamp.text(.infinity), "1970-01-01T00:00:00Z")
        XCTAssertEqual(UTCTimestamp.text(.nan), "1970-01-01T00:00:00Z")
        let now = UTCTimestamp.now()
        XCTAssertEqual(now.count, 24, now)
        XCTAssertTrue(now.hasSuffix("Z") && now.dropLast().split(separator: ".").last?.count == 3, now)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        for seconds in stride(from: -2_000_000_000.0, to: 4_000_000_000, by: 7_654_321.5) {
            XCTAssertEqual(UTCTimestamp.text(seconds), formatter.string(from: Date(timeIntervalSince1970: seconds.rounded(.down))))
        }
    }
}
