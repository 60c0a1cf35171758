import Crypto
import Foundation
import XCTest
import _CryptoExtras

@testable import FolioConnect

/// `folio fetch` against the FHIR test server (`FHIRTestServer`), run as a user runs it: SMART
/// Backend Services with an RS384 and an ES384 key, the protocol's faults, a stopped fetch run
/// again, Ctrl-C, an incremental fetch, and what must be refused.
final class FetchIntegrationTests: XCTestCase {
    private var folder: URL!
    private var rsaKey: URL!
    private var ecKey: URL!
    private var clients: [String: (clientID: String, key: FHIRTestServer.ClientKeyKind)] = [:]
    private let export = TestSupport.samples.appendingPathComponent("fhir-export")

    override func setUpWithError() throws {
        folder = try TestSupport.temporaryDirectory()
        let rsa = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let ec = P384.Signing.PrivateKey()
        rsaKey = folder.appendingPathComponent("rsa.pem")
        ecKey = folder.appendingPathComponent("ec.pem")
        try writeSecret(rsa.pemRepresentation, to: rsaKey)
        try writeSecret(ec.pemRepresentation, to: ecKey)
        clients = ["rsa-1": ("folio-rsa", .rsa(rsa.publicKey)), "ec-1": ("folio-ec", .ec(ec.publicKey))]
    }

    private func writeSecret(_ text: String, to url: URL) throws {
        try Data(text.utf8).write(to: url)
        chmod(url.path, 0o600)
    }

    private func server(_ behaviour: FHIRTestServer.Behaviour = .init()) throws -> FHIRTestServer {
        let server = try FHIRTestServer(folder: export, behaviour: behaviour, clients: clients)
        try server.start()
        addTeardownBlock { server.stop() }
        return server
    }

    private func fetch(_ server: FHIRTestServer, into out: URL, key: String = "rsa", _ extra: [String] = []) throws -> TestSupport.Output {
        let credentials =
            key == "rsa"
            ? ["--client-id", "folio-rsa", "--private-key", rsaKey.path, "--key-id", "rsa-1"]
            : ["--client-id", "folio-ec", "--private-key", ecKey.path, "--key-id", "ec-1"]
        return try TestSupport.run(TestSupport.folioBinary.path, ["fetch", server.base, "--out", out.path] + credentials + extra)
    }

    /// Resource ids by type, as the files of `folder` hold them.
    private func ids(in folder: URL) throws -> [String: Set<String>] {
        var result: [String: Set<String>] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".ndjson") {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], name)
                let type = try XCTUnwrap(object["resourceType"] as? String)
                result[type, default: []].insert(try XCTUnwrap(object["id"] as? String))
            }
        }
        return result
    }

    func testEitherKeyFetchesExactlyTheExportAndBatchReadsTheFolder() throws {
        let expected = try ids(in: export)
        XCTAssertFalse(expected.isEmpty)
        let server = try server()
        for key in ["rsa", "ec"] {
            let out = folder.appendingPathComponent("export-\(key)")
            let result = try fetch(server, into: out, key: key)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(try ids(in: out), expected, key)
            let manifest = try XCTUnwrap(
                try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent(".folio-fetch/manifest.json")))
                    as? [String: Any])
            XCTAssertNotNil(manifest["transactionTime"])
            XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent(".folio-fetch/request.json").path))
            let records = try TestSupport.run(TestSupport.folioBinary.path, ["records", out.path, "--data-format", "fhir"])
            XCTAssertEqual(records.status, 0, records.stderr)
            XCTAssertEqual(records.text.split(separator: "\n").count, expected["Patient"]?.count, "one record per patient")
        }
        server.snapshot { state in
            XCTAssertEqual(state.exports.count, 2)
            XCTAssertTrue(state.exports.values.allSatisfy { $0.method == "POST" && $0.deleted }, "kicked off by POST, deleted when done")
            XCTAssertEqual(state.unauthorized, 0)
            XCTAssertTrue(state.refusedAssertions.isEmpty, "\(state.refusedAssertions)")
        }
    }

    func testTheProtocolsFaultsAreAnsweredAsTheServerAsks() throws {
        var behaviour = FHIRTestServer.Behaviour()
        behaviour.pollsBeforeReady = 2
        behaviour.tooManyRequestsOnce = true
        behaviour.serverErrorOnceEachFile = true
        behaviour.linksExpire = true
        behaviour.gzip = true
        behaviour.manifestPageSize = 1
        behaviour.resourcesPerFile = 40
        behaviour.tokenLifetime = 3
        behaviour.kickOffMethods = ["GET"]
        let server = try server(behaviour)
        let out = folder.appendingPathComponent("faults")
        let result = try fetch(server, into: out, key: "ec", ["--type", "Patient,Observation,MedicationAdministration"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try ids(in: out), try ids(in: export))
        XCTAssertTrue(result.stderr.contains("export in progress: "), result.stderr)
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".ndjson") }
        XCTAssertTrue(names.contains("Observation-2.ndjson"), "a type's several files: \(names)")
        server.snapshot { state in
            XCTAssertEqual(state.exports.values.first?.method, "GET", "POST refused (405), then GET")
            XCTAssertEqual(Set(state.exports.values.first?.parameters ?? []), ["_outputFormat", "_type"])
            XCTAssertGreaterThan(state.tokenRequests, 1, "a 3-second token renewed")
            XCTAssertEqual(state.unauthorized, 0, "renewed before it expired")
        }
    }

    func testWithoutRequiresAccessTokenTheFilesGetNoToken() throws {
        var behaviour = FHIRTestServer.Behaviour()
        behaviour.requiresAccessToken = false
        let server = try server(behaviour)
        let out = folder.appendingPathComponent("open-files")
        // The files' endpoint refuses requests with no valid token; here the manifest says none is needed,
        // so Folio sends none and the server (which checks all of its API) answers 401: a file server that
        // is not the FHIR server's would have answered.
        let result = try fetch(server, into: out)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("401"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").filter { $0.hasPrefix("folio: error") }.count, 1)
    }

    func testAWrongKeyIsOneLineAboutAuthorizationAndLeavesNoFiles() throws {
        let server = try server()
        let other = folder.appendingPathComponent("other.pem")
        try writeSecret(P384.Signing.PrivateKey().pemRepresentation, to: other)
        let out = folder.appendingPathComponent("never")
        let result = try TestSupport.run(
            TestSupport.folioBinary.path,
            ["fetch", server.base, "--out", out.path, "--client-id", "folio-ec", "--private-key", other.path, "--key-id", "ec-1"])
        XCTAssertEqual(result.status, 1)
        let lines = result.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("authorization"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "no folder for a refused client")
        // An unknown kid, too.
        let unknown = try fetch(server, into: out, key: "ec", ["--key-id", "nobody"])
        XCTAssertEqual(unknown.status, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path))
        server.snapshot { XCTAssertEqual($0.refusedAssertions, ["bad signature", "unknown kid"]) }
    }

    func testAReplayedAssertionIsRefusedByTheTestServer() throws {
        let server = try server()
        let key = try ClientKey(path: rsaKey.path, keyID: "rsa-1")
        let claims: [String: Any] = [
            "iss": "folio-rsa", "sub": "folio-rsa", "aud": "\(server.base)/auth/token",
            "exp": Int(Date().timeIntervalSince1970) + 200, "jti": "once",
        ]
        let assertion = try key.sign(claims: try JSONSerialization.data(withJSONObject: claims))
        let form = Data(
            "grant_type=client_credentials&scope=system%2F*.rs&client_assertion_type=urn%3Aietf%3Aparams%3Aoauth%3Aclient-assertion-type%3Ajwt-bearer&client_assertion=\(assertion)"
                .utf8)
        let endpoint = try ServerURL("\(server.base)/auth/token", field: "test")
        let first = try FolioConnect.HTTPExchange(
            method: "POST", url: endpoint, headers: ["Content-Type: application/x-www-form-urlencoded"], body: form
        )
        .send(ConnectionSettings())
        let second = try FolioConnect.HTTPExchange(
            method: "POST", url: endpoint, headers: ["Content-Type: application/x-www-form-urlencoded"], body: form
        )
        .send(ConnectionSettings())
        XCTAssertEqual(first.status, 200)
        XCTAssertEqual(second.status, 400)
        XCTAssertEqual(second.outcomeText, "invalid_client (replayed jti)")
    }

    func testAFetchKilledMidDownloadRunAgainFinishesWithoutDownloadingFinishedFiles() throws {
        var behaviour = FHIRTestServer.Behaviour()
        behaviour.resourcesPerFile = 20
        behaviour.throttle = 40_000
        let server = try server(behaviour)
        let out = folder.appendingPathComponent("killed")
        let process = Process()
        process.executableURL = TestSupport.folioBinary
        process.arguments = [
            "fetch", server.base, "--out", out.path, "--client-id", "folio-rsa", "--private-key", rsaKey.path, "--key-id", "rsa-1",
            "--parallel", "1",
        ]
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Killed once some files are down and others are on their way.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let done = (try? FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".ndjson") }.count) ?? 0
            if done >= 2 { break }
            usleep(20_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let before = server.snapshot { $0.downloads }
        let partial = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".ndjson") }
        XCTAssertGreaterThanOrEqual(partial.count, 2)
        behaviour.throttle = 0
        server.behaviour = behaviour
        let again = try fetch(server, into: out)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("already there"), again.stderr)
        XCTAssertEqual(try ids(in: out), try ids(in: export))
        let after = server.snapshot { $0.downloads }
        // Each file was downloaded once in all, but the one cut off by the kill (twice).
        let total = after.values.reduce(0, +)
        XCTAssertLessThanOrEqual(total, after.count + 1, "downloads: \(after) (before the kill: \(before))")
        XCTAssertTrue(after.values.allSatisfy { $0 <= 2 }, "\(after)")
        XCTAssertEqual(server.snapshot { $0.exports.count }, 1, "the same export went on")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasPrefix(".folio-tmp-") }
        XCTAssertEqual(leftovers, [], "the killed run's temporary file removed")
    }

    func testCtrlCCancelsTheExportOnTheServer() throws {
        var behaviour = FHIRTestServer.Behaviour()
        behaviour.pollsBeforeReady = 1000
        let server = try server(behaviour)
        let out = folder.appendingPathComponent("interrupted")
        let process = Process()
        process.executableURL = TestSupport.folioBinary
        process.arguments = [
            "fetch", server.base, "--out", out.path, "--client-id", "folio-rsa", "--private-key", rsaKey.path, "--key-id", "rsa-1",
        ]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, server.snapshot({ $0.polls }) < 2 { usleep(20_000) }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130)
        XCTAssertEqual(server.snapshot { $0.deletes.count }, 1, "the export cancelled")
        XCTAssertTrue(server.snapshot { $0.exports.values.allSatisfy(\.deleted) })
    }

    func testAnIncrementalFetchGetsWhatChangedSinceTheLastOne() throws {
        let server = try server()
        let out = folder.appendingPathComponent("weekly")
        XCTAssertEqual(try fetch(server, into: out).status, 0)
        let full = try ids(in: out)
        usleep(50_000)
        let observation = #"{"resourceType":"Observation","id":"added-later","status":"final","code":{"text":"Heart rate"}}"#
        server.add("Observation", line: observation)
        let incremental = try fetch(server, into: out, key: "rsa", ["--incremental"])
        XCTAssertEqual(incremental.status, 0, incremental.stderr)
        let changed = try ids(in: out)
        XCTAssertEqual(changed, ["Observation": ["added-later"]])
        XCTAssertLessThan(changed.values.map(\.count).reduce(0, +), full.values.map(\.count).reduce(0, +))
        server.snapshot { state in
            XCTAssertEqual(state.exports.values.filter { $0.since != nil }.count, 1, "_since sent once")
        }
    }

    func testWhatMustBeRefusedIsRefusedInOneLine() throws {
        let out = folder.appendingPathComponent("refused")
        let open = folder.appendingPathComponent("open.pem")
        try Data(P384.Signing.PrivateKey().pemRepresentation.utf8).write(to: open)
        chmod(open.path, 0o644)
        let cases: [([String], String)] = [
            (["fetch", "http://ehr.example.org/fhir", "--out", out.path], "plain http:// is allowed to this machine (loopback) only"),
            (["fetch", "file:///etc/passwd", "--out", out.path], "expected an https:// address"),
            (["fetch", "https://user:pw@ehr.example.org/fhir", "--out", out.path], "user name or password"),
            (
                ["fetch", "https://ehr.example.org/fhir", "--out", out.path, "--client-id", "x", "--private-key", open.path],
                "make it chmod 600"
            ),
            (["fetch", "https://ehr.example.org/fhir", "--out", out.path, "--type", "../etc"], "--type[0]"),
            (["fetch", "https://ehr.example.org/fhir", "--out", out.path, "--since", "yesterday"], "--since"),
            (["fetch", "https://ehr.example.org/fhir", "--out", out.path, "--group", "a/b"], "--group"),
        ]
        for (arguments, words) in cases {
            let result = try TestSupport.run(TestSupport.folioBinary.path, arguments)
            XCTAssertEqual(result.status, 1, "\(arguments)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            XCTAssertTrue(result.stderr.contains(words), "\(arguments): \(result.stderr)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path))
    }

    func testThePrintedKeySetVerifiesTheClientsAssertions() throws {
        for (path, kty) in [(rsaKey!, "RSA"), (ecKey!, "EC")] {
            let result = try TestSupport.run(TestSupport.folioBinary.path, ["fetch", "--print-jwks", "--private-key", path.path])
            XCTAssertEqual(result.status, 0, result.stderr)
            let set = try XCTUnwrap(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
            let jwk = try XCTUnwrap((set["keys"] as? [[String: String]])?.first)
            XCTAssertEqual(jwk["kty"], kty)
            XCTAssertEqual(jwk["alg"], kty == "RSA" ? "RS384" : "ES384")
            XCTAssertFalse(result.text.contains("PRIVATE"), "only the public half")
            XCTAssertNil(jwk["d"])
            // The printed kid is the one Folio signs with by default.
            let key = try ClientKey(path: path.path, keyID: nil)
            XCTAssertEqual(jwk["kid"], key.keyID)
            XCTAssertEqual(jwk["kid"]?.count, 43, "a SHA-256 thumbprint in base64url")
        }
    }
}
