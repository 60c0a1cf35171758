import Crypto
import Foundation
import XCTest
import _CryptoExtras

/// `folio batch … --emit fhir --post BASE_URL` against the FHIR test server: one DocumentReference
/// per patient and period whatever how often the batch is posted, its documents' bytes inline and
/// equal to the files Folio wrote, refusals listed in failures.jsonl.
final class PostIntegrationTests: XCTestCase {
    private var folder: URL!
    private var key: URL!
    private var clients: [String: (clientID: String, key: FHIRTestServer.ClientKeyKind)] = [:]

    override func setUpWithError() throws {
        folder = try TestSupport.temporaryDirectory()
        let rsa = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        key = folder.appendingPathComponent("key.pem")
        try Data(rsa.pemRepresentation.utf8).write(to: key)
        chmod(key.path, 0o600)
        clients = ["k1": ("folio-post", .rsa(rsa.publicKey))]
    }

    private func server(conditionalUpdate: Bool) throws -> FHIRTestServer {
        var behaviour = FHIRTestServer.Behaviour()
        behaviour.conditionalUpdate = conditionalUpdate
        let server = try FHIRTestServer(
            folder: TestSupport.samples.appendingPathComponent("fhir-export"), behaviour: behaviour, clients: clients)
        try server.start()
        addTeardownBlock { server.stop() }
        return server
    }

    private func batch(to server: FHIRTestServer, out: URL, credentials: Bool = true) throws -> TestSupport.Output {
        var arguments = [
            "batch", TestSupport.root.appendingPathComponent("Templates/fhir-weekly-summary.yaml").path,
            "--data", TestSupport.samples.appendingPathComponent("fhir-export").path, "--data-format", "fhir",
            "--period", "2026-11-09/2026-11-15", "--zone", "America/New_York", "--format", "pdf,html", "--emit", "fhir",
            "--out", out.path, "--post", server.base, "--quiet",
        ]
        if credentials { arguments += ["--client-id", "folio-post", "--private-key", key.path, "--key-id", "k1"] }
        return try TestSupport.run(TestSupport.folioBinary.path, arguments)
    }

    private func references(_ server: FHIRTestServer) throws -> [[String: Any]] {
        try server.snapshot { $0.documentReferences.values.map { $0 } }.map {
            try XCTUnwrap(try JSONSerialization.jsonObject(with: $0) as? [String: Any])
        }
    }

    func testPostingAgainLeavesOneReferencePerPatientWithTheDocumentsBytes() throws {
        for conditionalUpdate in [true, false] {
            let server = try server(conditionalUpdate: conditionalUpdate)
            let first = folder.appendingPathComponent("first-\(conditionalUpdate)")
            let result = try batch(to: server, out: first)
            XCTAssertEqual(result.status, 0, result.stderr)
            let pdfs = try FileManager.default.contentsOfDirectory(atPath: first.path).filter { $0.hasSuffix(".pdf") }.sorted()
            XCTAssertGreaterThan(pdfs.count, 1)
            var stored = try references(server)
            XCTAssertEqual(stored.count, pdfs.count, "one per patient")
            for reference in stored {
                let subject = try XCTUnwrap((reference["subject"] as? [String: Any])?["reference"] as? String)
                let patient = String(subject.dropFirst("Patient/".count))
                let content = try XCTUnwrap(reference["content"] as? [[String: Any]])
                let pdf = try XCTUnwrap(
                    content.compactMap { $0["attachment"] as? [String: Any] }.first { $0["contentType"] as? String == "application/pdf" })
                let written = try Data(contentsOf: first.appendingPathComponent("\(patient).pdf"))
                XCTAssertEqual(Data(base64Encoded: try XCTUnwrap(pdf["data"] as? String)), written, "\(patient): the bytes Folio wrote")
                XCTAssertEqual(pdf["hash"] as? String, Data(Insecure.SHA1.hash(data: written)).base64EncodedString())
                XCTAssertNil(pdf["url"], "no file name a server cannot resolve")
                XCTAssertEqual(content.count, 2, "the PDF and the HTML")
            }
            // The same batch again the next run (new creation times, new bytes): still one per patient.
            let second = folder.appendingPathComponent("second-\(conditionalUpdate)")
            XCTAssertEqual(try batch(to: server, out: second).status, 0)
            stored = try references(server)
            XCTAssertEqual(stored.count, pdfs.count, "posting again adds none (conditional \(conditionalUpdate ? "update" : "create"))")
            let methods = Set(server.snapshot { $0.documentRequests }.map { $0.split(separator: " ").first.map(String.init) ?? "" })
            XCTAssertEqual(methods, [conditionalUpdate ? "PUT" : "POST"])
            let postedLines = try String(contentsOf: second.appendingPathComponent("posted.jsonl"), encoding: .utf8).split(separator: "\n")
            XCTAssertEqual(postedLines.count, pdfs.count, "posted.jsonl lists each reference")
        }
    }

    func testARefusedReferenceIsAFailureLineAndTheOthersStillGo() throws {
        let server = try server(conditionalUpdate: true)
        let out = folder.appendingPathComponent("refused")
        let result = try batch(to: server, out: out, credentials: false)
        XCTAssertEqual(result.status, 1)
        let failures = try String(contentsOf: out.appendingPathComponent("failures.jsonl"), encoding: .utf8).split(separator: "\n")
        let pdfs = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".pdf") }
        XCTAssertEqual(failures.count, pdfs.count, "each refused reference is a line")
        XCTAssertTrue(failures.allSatisfy { $0.contains("401") && $0.contains("a valid bearer token is required") }, "\(failures)")
        XCTAssertTrue(result.stderr.contains("refused"), result.stderr)
    }
}

/// `folio render TEMPLATE --fhir-server BASE --patient ID`: one patient's record read from the
/// server by `$everything`, by searches, or as its `$summary` document, rendered as the same record
/// read from a file is.
final class PatientOnDemandIntegrationTests: XCTestCase {
    private func render(_ arguments: [String]) throws -> TestSupport.Output {
        try TestSupport.run(
            TestSupport.folioBinary.path, ["render"] + arguments, environment: ["SOURCE_DATE_EPOCH": "1764000000", "PATH": "/usr/bin:/bin"])
    }

    func testOnePatientsRecordFromTheServerRendersAsFromTheExport() throws {
        let folder = try TestSupport.temporaryDirectory()
        let export = TestSupport.samples.appendingPathComponent("fhir-export")
        let template = TestSupport.root.appendingPathComponent("Templates/fhir-weekly-summary.yaml").path
        let period = ["--data-format", "fhir", "--period", "2026-11-09/2026-11-15", "--zone", "America/New_York"]
        let fromFile = folder.appendingPathComponent("file.pdf")
        let local = try render([template, "--data", export.path, "--id", "pat-rivera", "-o", fromFile.path] + period)
        XCTAssertEqual(local.status, 0, local.stderr)
        let expected = try TestSupport.run("pdftotext", ["-layout", fromFile.path, "-"]).text
        for (operations, label) in [(["everything"], "everything"), ([], "search")] {
            var behaviour = FHIRTestServer.Behaviour()
            behaviour.requiresAuthorization = false
            behaviour.patientOperations = operations
            behaviour.pageSize = 7
            let server = try FHIRTestServer(folder: export, behaviour: behaviour, clients: [:])
            try server.start()
            defer { server.stop() }
            let out = folder.appendingPathComponent("\(label).pdf")
            let result = try render([template, "--fhir-server", server.base, "--patient", "pat-rivera", "-o", out.path] + period)
            XCTAssertEqual(result.status, 0, "\(label): \(result.stderr)")
            XCTAssertEqual(try TestSupport.run("pdftotext", ["-layout", out.path, "-"]).text, expected, label)
        }
    }

    func testAPatientsSummaryDocumentIsRenderedAsTheServerGivesIt() throws {
        let folder = try TestSupport.temporaryDirectory()
        let bundle = TestSupport.samples.appendingPathComponent("ips-summary.json")
        let template = TestSupport.root.appendingPathComponent("Templates/patient-summary.yaml").path
        let fromFile = folder.appendingPathComponent("file.pdf")
        XCTAssertEqual(try render([template, "--data", bundle.path, "--data-format", "fhir", "-o", fromFile.path]).status, 0)
        var behaviour = FHIRTestServer.Behaviour()
        behaviour.requiresAuthorization = false
        behaviour.patientOperations = ["summary", "everything"]
        behaviour.summaryBundle = try Data(contentsOf: bundle)
        let server = try FHIRTestServer(
            folder: TestSupport.samples.appendingPathComponent("fhir-export"), behaviour: behaviour, clients: [:])
        try server.start()
        defer { server.stop() }
        let out = folder.appendingPathComponent("summary.pdf")
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: behaviour.summaryBundle) as? [String: Any])
        let entries = try XCTUnwrap(document["entry"] as? [[String: Any]])
        let patient = try XCTUnwrap(
            entries.compactMap { $0["resource"] as? [String: Any] }.first { $0["resourceType"] as? String == "Patient" }?["id"] as? String)
        // A summary that is another patient's is refused, never rendered under the id asked for.
        let other = try render([
            template, "--fhir-server", server.base, "--patient", "someone-else", "--data-format", "fhir", "-o", out.path,
        ])
        XCTAssertEqual(other.status, 1)
        XCTAssertTrue(other.stderr.contains("no patient \"someone-else\""), other.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path))
        let result = try render([template, "--fhir-server", server.base, "--patient", patient, "--data-format", "fhir", "-o", out.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            try Data(contentsOf: out), try Data(contentsOf: fromFile), "the $summary document rendered byte for byte as the file")
    }

    func testAPatientTheServerDoesNotHaveIsOneLine() throws {
        var behaviour = FHIRTestServer.Behaviour()
        behaviour.requiresAuthorization = false
        behaviour.patientOperations = []
        let server = try FHIRTestServer(
            folder: TestSupport.samples.appendingPathComponent("fhir-export"), behaviour: behaviour, clients: [:])
        try server.start()
        defer { server.stop() }
        let out = try TestSupport.temporaryDirectory().appendingPathComponent("none.pdf")
        let result = try render([
            TestSupport.root.appendingPathComponent("Templates/patient-summary.yaml").path, "--fhir-server", server.base, "--patient",
            "nobody",
            "-o", out.path,
        ])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "folio: error: --patient: the server has no Patient nobody\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path))
    }
}
