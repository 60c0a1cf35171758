import Foundation
import XCTest

/// The served OpenAPI document checked against the running service by schemathesis:
/// generated requests (valid and invalid) never get a 5xx, and every response matches the schema.
final class ContractIntegrationTests: XCTestCase {
    /// schemathesis: FOLIO_SCHEMATHESIS, the package's .venv, or PATH.
    private var schemathesis: String? {
        if let path = ProcessInfo.processInfo.environment["FOLIO_SCHEMATHESIS"] { return path }
        let local = TestSupport.root.appendingPathComponent(".venv/bin/schemathesis").path
        if FileManager.default.isExecutableFile(atPath: local) { return local }
        let found = (try? TestSupport.run("which", ["schemathesis"]))?.text.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return found.isEmpty ? nil : found
    }

    func testServiceConformsToItsOpenAPIDocument() throws {
        guard let schemathesis else { return XCTFail("schemathesis not found: run `make test`, which installs it into .venv") }
        let templates = TestSupport.root.appendingPathComponent("Templates").path
        let jobs = try TestSupport.temporaryDirectory().appendingPathComponent("jobs")
        let server = try RunningServer(["--templates", templates, "--assets", templates, "--timeout", "20", "--job-dir", jobs.path])
        defer { server.stop() }
        let reports = try TestSupport.temporaryDirectory()
        // Every check but "a schema-valid request is accepted": the schema cannot say everything a
        // document must be (a chart's values must match its categories), and those get a 400.
        let result = try TestSupport.run(
            schemathesis,
            [
                "run", server.url("/v1/openapi.yaml"), "--url", server.url(""), "--checks", "all",
                "--exclude-checks", "positive_data_acceptance", "--max-examples", "80", "--seed", "20261122",
                "--generation-database", "none", "--request-timeout", "30", "--no-color",
                "--report-dir", reports.path,
            ])
        XCTAssertEqual(result.status, 0, "schemathesis failed:\n\(result.text.suffix(6000))\n\(result.stderr.suffix(2000))")
        let tested = result.text.range(of: #"(\d+) generated"#, options: .regularExpression).map { result.text[$0] } ?? ""
        XCTAssertFalse(tested.isEmpty, result.text)
        let requests = server.logEntries().filter { $0["message"] as? String == "request" }
        XCTAssertGreaterThan(requests.count, 200, "schemathesis sent too few requests")
        XCTAssertTrue(requests.contains { $0["route"] as? String == "/v1/render" && $0["status"] as? Int == 200 })
        XCTAssertTrue(requests.contains { $0["route"] as? String == "/v1/templates/{name}/render" && $0["status"] as? Int == 200 })
        XCTAssertTrue(requests.contains { $0["route"] as? String == "/v1/jobs" && $0["status"] as? Int == 202 }, "no job was accepted")
        let failures = requests.filter { ($0["status"] as? Int ?? 0) >= 500 }
        XCTAssertTrue(failures.isEmpty, "5xx answers: \(failures)")
    }
}
