import Foundation
import XCTest

@testable import Folio
@testable import FolioTemplate

/// Signed PDFs (PAdES baseline B-B) as a recipient and an auditor would check them: pyHanko (an
/// independent library) finds the signature intact, trusted against the test root, covering the
/// entire file, ETSI.CAdES.detached with signing-certificate-v2; poppler's pdfsig says it is valid;
/// one byte changed afterwards breaks it; the signed PDF passes both PDF/UA checkers. Bad keys and
/// certificates are one line naming the option, before anything is rendered.
final class SigningIntegrationTests: XCTestCase {
    private var folio: String { TestSupport.folioBinary.path }

    /// A fresh test PKI (Fixtures/make_test_pki.py: root, RSA and ECDSA signers, bad certificates).
    private func testPKI() throws -> URL {
        try TestSupport.integrationOnly()
        let folder = try TestSupport.temporaryDirectory()
        let script = TestSupport.root.appendingPathComponent("Tests/FolioTests/Fixtures/make_test_pki.py").path
        let made = try TestSupport.run(try TestSupport.python(), [script, folder.path])
        XCTAssertEqual(made.status, 0, made.stderr)
        return folder
    }

    /// What Fixtures/validate_signature.py (pyHanko and pikepdf) finds in `pdf`.
    private func validation(_ pdf: URL, root: URL, password: String? = nil) throws -> [String: Any] {
        let script = TestSupport.root.appendingPathComponent("Tests/FolioTests/Fixtures/validate_signature.py").path
        let checked = try TestSupport.run(try TestSupport.python(), [script, pdf.path, root.path] + (password.map { [$0] } ?? []))
        XCTAssertEqual(checked.status, 0, checked.stderr)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: checked.stdout) as? [String: Any], checked.stderr)
    }

    private func assertValidPAdES(_ found: [String: Any], signer: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(found["signatures"] as? Int, 1, "\(found)", file: file, line: line)
        XCTAssertEqual(found["intact"] as? Bool, true, "\(found)", file: file, line: line)
        XCTAssertEqual(found["valid"] as? Bool, true, "\(found)", file: file, line: line)
        XCTAssertEqual(found["trusted"] as? Bool, true, "\(found)", file: file, line: line)
        XCTAssertEqual(found["coverage"] as? String, "ENTIRE_FILE", "\(found)", file: file, line: line)
        XCTAssertEqual(found["subFilter"] as? String, "/ETSI.CAdES.detached", file: file, line: line)
        XCTAssertEqual(found["digest"] as? String, "sha256", file: file, line: line)
        let attributes = found["signedAttributes"] as? [String] ?? []
        XCTAssertTrue(attributes.contains("signing_certificate_v2"), "\(attributes)", file: file, line: line)
        XCTAssertTrue(attributes.contains("message_digest") && attributes.contains("content_type"), "\(attributes)", file: file, line: line)
        // PAdES B-B: the time is the signature dictionary's /M, never a CMS signing-time attribute.
        XCTAssertFalse(attributes.contains("signing_time"), "\(attributes)", file: file, line: line)
        XCTAssertEqual(found["signer"] as? String, signer, file: file, line: line)
        XCTAssertEqual(found["sigFlags"] as? Int, 3, file: file, line: line)
        let field = found["field"] as? [String: Any] ?? [:]
        XCTAssertEqual(field["type"] as? String, "/Sig", file: file, line: line)
        // Invisible (a zero rectangle), printable and locked, never hidden (PDF/A), with an appearance.
        XCTAssertEqual(field["rect"] as? [Double], [0, 0, 0, 0], file: file, line: line)
        XCTAssertEqual(field["flags"] as? Int, 132, file: file, line: line)
        XCTAssertEqual(field["appearance"] as? Bool, true, file: file, line: line)
        XCTAssertEqual(field["onPage"] as? Bool, true, file: file, line: line)
        XCTAssertTrue((field["description"] as? String ?? "").contains(signer), "\(field)", file: file, line: line)
    }

    private func render(_ arguments: [String], environment: [String: String] = [:]) throws -> TestSupport.Output {
        var env = ProcessInfo.processInfo.environment
        env["FOLIO_SIGN_PASSPHRASE"] = nil
        for (key, value) in environment { env[key] = value }
        return try TestSupport.run(folio, ["render"] + arguments, environment: env)
    }

    func testASignedPDFIsIntactTrustedCoversTheWholeFileAndStaysAccessible() throws {
        let pki = try testPKI()
        let pdf = try TestSupport.temporaryDirectory().appendingPathComponent("signed.pdf")
        let sample = TestSupport.samples.appendingPathComponent("weekly-summary.yaml").path
        let signing = [
            "--sign-key", pki.appendingPathComponent("signer.key").path, "--sign-cert", pki.appendingPathComponent("signer.pem").path,
        ]
        let rendered = try render([sample, "-o", pdf.path] + signing)
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        XCTAssertEqual(rendered.stderr, "")
        let found = try validation(pdf, root: pki.appendingPathComponent("root.pem"))
        assertValidPAdES(found, signer: "Example Clinic")
        // A tagged document describes the field as a Form element of its structure.
        let element = found["element"] as? [String: Any] ?? [:]
        XCTAssertEqual(element["type"] as? String, "/Form", "\(found)")
        XCTAssertEqual(element["refersToField"] as? Bool, true)
        XCTAssertEqual(element["inTree"] as? Bool, true)
        XCTAssertEqual(element["alt"] as? String, "Digital signature: Example Clinic")

        let pdfsig = try TestSupport.run("pdfsig", [pdf.path])
        XCTAssertTrue(pdfsig.text.contains("Signature Validation: Signature is Valid."), pdfsig.text)
        XCTAssertTrue(pdfsig.text.contains("Total document signed"), pdfsig.text)
        XCTAssertTrue(pdfsig.text.contains("Signature Type: ETSI.CAdES.detached"), pdfsig.text)
        XCTAssertTrue(try TestSupport.pdfText(try Data(contentsOf: pdf)).contains("Weekly"))
        XCTAssertEqual(try TestSupport.run("qpdf", ["--check", pdf.path]).status, 0)
        try TestSupport.assertPassesPDFUACheckers([pdf.path])

        // Drawn and finished in one-page parts, the signature and its Form element are the same.
        var options = RenderOptions(baseDirectory: TestSupport.samples)
        options.signer = try PDFSigner(
            PDFSigner.Material(
                key: try Data(contentsOf: pki.appendingPathComponent("signer.key")),
                certificate: try Data(contentsOf: pki.appendingPathComponent("signer.pem"))))
        options.pagesPerPart = 1
        let document = try DocumentDecoder.decode(try Data(contentsOf: URL(fileURLWithPath: sample)), format: .yaml)
        let parts = try TestSupport.temporaryFile(try document.pdf(options: options), name: "signed-parts.pdf")
        let partsFound = try validation(parts, root: pki.appendingPathComponent("root.pem"))
        assertValidPAdES(partsFound, signer: "Example Clinic")
        XCTAssertEqual((partsFound["element"] as? [String: Any])?["inTree"] as? Bool, true, "\(partsFound)")
        XCTAssertGreaterThan(try TestSupport.pageTexts(try Data(contentsOf: parts)).count, 1)
        try TestSupport.assertPassesPDFUACheckers([parts.path])

        // One byte changed afterwards, before or after the signature's contents, and it no longer holds:
        // a letter of the XMP metadata, a digit of the trailer's /ID.
        let bytes = try Data(contentsOf: pdf)
        let metadata = try XCTUnwrap(bytes.range(of: Data("<dc:title>".utf8))).upperBound + 20
        let identifier = try XCTUnwrap(bytes.range(of: Data("/ID [".utf8), options: .backwards)).upperBound + 4
        for offset in [metadata, identifier] {
            var changed = bytes
            changed[offset] = changed[offset] == UInt8(ascii: "a") ? UInt8(ascii: "b") : UInt8(ascii: "a")
            let tampered = try TestSupport.temporaryFile(changed, name: "tampered-\(offset).pdf")
            let check = try TestSupport.run("pdfsig", [tampered.path])
            XCTAssertTrue(check.text.contains("Digest Mismatch"), "byte \(offset): \(check.text)")
            XCTAssertEqual(try validation(tampered, root: pki.appendingPathComponent("root.pem"))["intact"] as? Bool, false)
        }
    }

    func testSignaturesWithAChainAnEncryptedKeyProtectionPDFAAndNoTags() throws {
        let pki = try testPKI()
        let folder = try TestSupport.temporaryDirectory()
        let root = pki.appendingPathComponent("root.pem")
        func write(_ name: String, _ yaml: String) throws -> String {
            let url = folder.appendingPathComponent(name)
            try Data(yaml.utf8).write(to: url)
            return url.path
        }
        let paragraph = "  - {type: paragraph, text: \"Resting heart rate 72 beats per minute.\"}\n"
        let plain = try write("plain.yaml", "title: Summary\nmetadata: {language: en}\nelements:\n" + paragraph)

        /// `source` rendered to NAME.pdf in the folder with `arguments`; the render must succeed.
        func signed(
            _ name: String, _ source: String, _ arguments: [String], environment: [String: String] = [:], line: UInt = #line
        ) throws -> URL {
            let pdf = folder.appendingPathComponent(name + ".pdf")
            let rendered = try render([source, "-o", pdf.path] + arguments, environment: environment)
            XCTAssertEqual(rendered.status, 0, rendered.stderr, line: line)
            return pdf
        }
        func file(_ name: String) -> String { pki.appendingPathComponent(name).path }

        // An ECDSA key issued through an intermediate, the chain embedded: trusted against the root.
        let ecPDF = try signed(
            "ec", plain, ["--sign-key", file("ec.key"), "--sign-cert", file("ec.pem"), "--sign-chain", file("intermediate.pem")])
        let ecFound = try validation(ecPDF, root: root)
        assertValidPAdES(ecFound, signer: "Example Clinic EC")
        XCTAssertEqual(ecFound["certificates"] as? Int, 2)

        // A PKCS #12 bundle is key, certificate and chain in one file: no --sign-cert.
        let bundleFound = try validation(
            try signed("bundle", plain, ["--sign-key", file("bundle.p12")], environment: ["FOLIO_SIGN_PASSPHRASE": "correct horse"]),
            root: root)
        assertValidPAdES(bundleFound, signer: "Example Clinic Bundle")
        XCTAssertEqual(bundleFound["certificates"] as? Int, 2)
        // DER key and certificate files sign as PEM ones do.
        let derPDF = try signed("der", plain, ["--sign-key", file("signer-der.key"), "--sign-cert", file("signer.der")])
        assertValidPAdES(try validation(derPDF, root: root), signer: "Example Clinic")

        // An encrypted key opens with the passphrase from the environment.
        let rsa = ["--sign-cert", file("signer.pem")]
        let encryptedPDF = try signed(
            "encrypted-key", plain, ["--sign-key", file("signer-encrypted.key")] + rsa,
            environment: ["FOLIO_SIGN_PASSPHRASE": "correct horse"])
        assertValidPAdES(try validation(encryptedPDF, root: root), signer: "Example Clinic")

        let key = ["--sign-key", file("signer.key")] + rsa
        // Protected and signed: the signature holds for whoever opens the file with its password.
        let protectedSource = try write(
            "protected.yaml",
            "title: Summary\nmetadata: {language: en}\nprotection: {userPassword: \"1954-03-02\"}\nelements:\n" + paragraph)
        let protectedPDF = try signed("protected", protectedSource, key)
        assertValidPAdES(try validation(protectedPDF, root: root, password: "1954-03-02"), signer: "Example Clinic")
        XCTAssertTrue(
            try TestSupport.run("qpdf", ["--show-encryption", "--password=1954-03-02", protectedPDF.path]).text.contains("R = 6"))
        let pdfsig = try TestSupport.run("pdfsig", ["-upw", "1954-03-02", protectedPDF.path])
        XCTAssertTrue(pdfsig.text.contains("Signature is Valid."), pdfsig.text)

        // A signed PDF/A-2u stays PDF/A-2u (its claim and output intent kept, the field printable).
        let archivalSource = try write(
            "archival.yaml", "title: Summary\nmetadata: {language: en, conformance: pdfa-2u}\nelements:\n" + paragraph)
        let archivalPDF = try signed("archival", archivalSource, key)
        let archival = try validation(archivalPDF, root: root)
        assertValidPAdES(archival, signer: "Example Clinic")
        XCTAssertEqual(archival["pdfaPart"] as? String, "2")
        XCTAssertEqual(archival["outputIntents"] as? Int, 1)

        // An untagged document gets the field without a structure element.
        let untaggedSource = try write(
            "untagged.yaml", "title: Summary\nmetadata: {language: en, tagged: false}\nelements:\n" + paragraph)
        let untagged = try validation(try signed("untagged", untaggedSource, key), root: root)
        assertValidPAdES(untagged, signer: "Example Clinic")
        XCTAssertNil(untagged["element"])
        try TestSupport.assertPassesPDFUACheckers([ecPDF.path, archivalPDF.path])
    }

    func testBadKeysAndCertificatesAreOneLineBeforeAnythingIsRendered() throws {
        let pki = try testPKI()
        let folder = try TestSupport.temporaryDirectory()
        let sample = TestSupport.samples.appendingPathComponent("weekly-summary.yaml").path
        let output = folder.appendingPathComponent("never.pdf")
        func file(_ name: String) -> String { pki.appendingPathComponent(name).path }
        let cases: [(arguments: [String], environment: [String: String], expected: String)] = [
            (
                ["--sign-key", file("other.key"), "--sign-cert", file("signer.pem")], [:],
                "--sign-key: the private key does not belong to the certificate in --sign-cert"
            ),
            (["--sign-key", file("signer.key"), "--sign-cert", file("expired.pem")], [:], "--sign-cert: the certificate expired on "),
            (
                ["--sign-key", file("signer.key"), "--sign-cert", file("future.pem")], [:],
                "--sign-cert: the certificate is not valid before "
            ),
            (
                ["--sign-key", file("signer.key"), "--sign-cert", file("encipher-only.pem")], [:],
                "--sign-cert: the certificate's key usage"
            ),
            (
                ["--sign-key", file("signer-encrypted.key"), "--sign-cert", file("signer.pem")], [:],
                "give its passphrase in FOLIO_SIGN_PASSPHRASE"
            ),
            (
                ["--sign-key", file("signer-encrypted.key"), "--sign-cert", file("signer.pem")], ["FOLIO_SIGN_PASSPHRASE": "wrong horse"],
                "the passphrase in FOLIO_SIGN_PASSPHRASE does not decrypt it"
            ),
            (["--sign-key", file("signer.pem"), "--sign-cert", file("signer.pem")], [:], "--sign-key: cannot read the private key"),
            (["--sign-key", file("signer.key"), "--sign-cert", file("signer.key")], [:], "--sign-cert: cannot read the certificate"),
            (["--sign-key", file("missing.key"), "--sign-cert", file("signer.pem")], [:], "--sign-key: cannot read private key"),
            (["--sign-key", file("signer.key"), "--sign-cert", pki.path], [:], "--sign-cert: cannot read certificate"),
            (["--sign-key", file("signer.key")], [:], "--sign-cert: missing: the key file holds no certificate; give it with --sign-cert"),
            (["--sign-key", file("bundle.p12")], [:], "--sign-key: cannot open the PKCS #12 bundle: give its passphrase"),
            (
                ["--sign-key", file("bundle.p12")], ["FOLIO_SIGN_PASSPHRASE": "wrong horse"],
                "--sign-key: cannot open the PKCS #12 bundle: the passphrase in FOLIO_SIGN_PASSPHRASE does not open it"
            ),
            (["--sign-key", file("signer.der"), "--sign-cert", file("signer.pem")], [:], "--sign-key: cannot read the private key"),
            (["--sign-chain", file("root.pem")], [:], "--sign-chain needs --sign-key"),
        ]
        for (arguments, environment, expected) in cases {
            let result = try render([sample, "-o", output.path] + arguments, environment: environment)
            XCTAssertNotEqual(result.status, 0, "\(arguments)")
            XCTAssertTrue(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: output.path), "\(arguments)")
            XCTAssertFalse(result.stderr.contains("horse") || result.stderr.contains("PRIVATE"), result.stderr)
            if !expected.contains("needs") {
                XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            }
        }
        // HTML cannot be signed.
        let html = try render([
            sample, "-o", folder.appendingPathComponent("x.html").path, "--sign-key", file("signer.key"), "--sign-cert", file("signer.pem"),
        ])
        XCTAssertNotEqual(html.status, 0)
        XCTAssertTrue(html.stderr.contains("HTML output cannot be signed"), html.stderr)
        // A key file others may read signs, with a warning.
        let open = folder.appendingPathComponent("open.key")
        try FileManager.default.copyItem(at: pki.appendingPathComponent("signer.key"), to: open)
        chmod(open.path, 0o644)
        let warned = try render([sample, "-o", output.path, "--sign-key", open.path, "--sign-cert", file("signer.pem")])
        XCTAssertEqual(warned.status, 0, warned.stderr)
        XCTAssertTrue(warned.stderr.contains("folio: warning: --sign-key: \(open.path) can be read by other users"), warned.stderr)
    }

    func testABatchAndTheServiceSignEveryPDFInTheirWorkers() throws {
        let pki = try testPKI()
        let folder = try TestSupport.temporaryDirectory()
        let records = folder.appendingPathComponent("records.jsonl")
        var lines: [String] = []
        for number in 1...4 {
            lines.append(
                #"{"patient":{"id":"P\#(number)","name":"Patient \#(number)","birthDate":"1950-01-0\#(number)"},"week":"Nov 9–15","metrics":[]}"#
            )
        }
        try Data(lines.joined(separator: "\n").utf8).write(to: records)
        let template = folder.appendingPathComponent("template.yaml")
        try Data(
            """
            title: "Summary for {{patient.name}}"
            metadata: {language: en}
            protection: {userPassword: "{{patient.birthDate}}"}
            elements:
              - {type: paragraph, text: "Week {{week}} for {{patient.id}}."}
            """.utf8
        ).write(to: template)
        let out = folder.appendingPathComponent("out")
        var env = ProcessInfo.processInfo.environment
        env["FOLIO_SIGN_PASSPHRASE"] = "correct horse"
        let batch = try TestSupport.run(
            folio,
            [
                "batch", template.path, "--data", records.path, "--out", out.path, "--name", "{{patient.id}}", "--jobs", "2",
                "--sign-key", pki.appendingPathComponent("bundle.p12").path,
            ], environment: env)
        XCTAssertEqual(batch.status, 0, batch.stderr)
        for number in 1...4 {
            let pdf = out.appendingPathComponent("P\(number).pdf")
            assertValidPAdES(
                try validation(pdf, root: pki.appendingPathComponent("root.pem"), password: "1950-01-0\(number)"),
                signer: "Example Clinic Bundle")
        }
        // The manifest's SHA-256 of a signed PDF (taken with the signature's own digest) is the file's.
        let manifest = try String(contentsOf: out.appendingPathComponent("manifest.jsonl"), encoding: .utf8)
        let entries = manifest.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        XCTAssertEqual(entries.count, 4, manifest)
        for entry in entries {
            let file = out.appendingPathComponent(try XCTUnwrap(entry["file"] as? String))
            let sum = try TestSupport.run("sha256sum", [file.path]).text.split(separator: " ").first.map(String.init)
            XCTAssertEqual(entry["sha256"] as? String, sum, file.lastPathComponent)
        }
        // The workers signed with the bundle their supervisor read (binary, through their setup); neither
        // the key nor its passphrase is written anywhere the batch writes.
        for name in try FileManager.default.contentsOfDirectory(atPath: out.path) {
            let bytes = try Data(contentsOf: out.appendingPathComponent(name))
            XCTAssertNil(bytes.range(of: Data("correct horse".utf8)), name)
            XCTAssertNil(bytes.range(of: Data("PRIVATE KEY".utf8)), name)
        }
        XCTAssertFalse(batch.stderr.contains("horse"))
        // HTML only: nothing to sign.
        let htmlOnly = try TestSupport.run(
            folio,
            [
                "batch", template.path, "--data", records.path, "--out", out.path, "--format", "html", "--sign-key",
                pki.appendingPathComponent("signer.key").path, "--sign-cert", pki.appendingPathComponent("signer.pem").path,
            ])
        XCTAssertNotEqual(htmlOnly.status, 0)
        XCTAssertTrue(htmlOnly.stderr.contains("--sign-key signs PDFs"), htmlOnly.stderr)

        let server = try RunningServer([
            "--sign-key", pki.appendingPathComponent("signer.key").path, "--sign-cert", pki.appendingPathComponent("signer.pem").path,
        ])
        defer { server.stop() }
        let response = try HTTPExchange.send(
            "POST", server.url("/v1/render"), headers: ["Content-Type: application/yaml"],
            body: Data("title: Served\nelements:\n  - {type: paragraph, text: Hello.}\n".utf8))
        XCTAssertEqual(response.status, 200, response.text.prefix(300).description)
        let served = try TestSupport.temporaryFile(response.body, name: "served.pdf")
        assertValidPAdES(try validation(served, root: pki.appendingPathComponent("root.pem")), signer: "Example Clinic")
    }
}
