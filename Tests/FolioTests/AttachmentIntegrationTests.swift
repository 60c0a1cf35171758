import Crypto
import Foundation
import XCTest

@testable import Folio

/// Files carried inside the PDF (`attachments`), as the receiving system reads them: pikepdf (PyPI)
/// reads each back byte for byte with its relationship, MIME type, size, dates and MD5; the XMP claims
/// PDF/A-3u; a signature covers them (a byte changed inside one breaks it); a template's record rides
/// along as JSON; wrong attachments are one line naming the field.
final class AttachmentIntegrationTests: XCTestCase {
    private var folio: String { TestSupport.folioBinary.path }

    /// What Fixtures/read_attachments.py finds in `pdf`: the XMP's PDF/A part and every attached file.
    private func attachments(of pdf: URL) throws -> [String: Any] {
        let script = TestSupport.root.appendingPathComponent("Tests/FolioTests/Fixtures/read_attachments.py").path
        let read = try TestSupport.run(try TestSupport.python(), [script, pdf.path])
        XCTAssertEqual(read.status, 0, read.stderr)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: read.stdout) as? [String: Any], read.stderr)
    }

    /// A folder with `files` and `document.yaml` holding `yaml`.
    private func folder(_ yaml: String, files: [String: Data] = [:]) throws -> URL {
        let folder = try TestSupport.temporaryDirectory()
        for (name, data) in files { try data.write(to: folder.appendingPathComponent(name)) }
        try Data(yaml.utf8).write(to: folder.appendingPathComponent("document.yaml"))
        return folder
    }

    /// HL7's IPS example Bundle attached to a PDF/A-3u summary comes back byte for byte, with what
    /// describes it; the PDF passes qpdf and both PDF/UA checkers.
    func testAPDFA3CarriesTheBundleByteForByte() throws {
        let bundle = try Data(contentsOf: TestSupport.samples.appendingPathComponent("ips-summary.json"))
        let notes = Data("Día 1: ½ dose\r\n".utf8)
        let input = try folder(
            """
            title: Summary with its record
            metadata: {conformance: pdfa-3u, creationDate: 2026-11-16T08:00:00Z}
            attachments:
              - {path: ips-summary.json, name: patient-bundle.fhir.json, relationship: Source, description: The FHIR Bundle this summary was made from}
              - {path: notes.txt, name: "Notas del día.txt", relationship: Supplement}
            elements:
              - {type: paragraph, text: The record this summary was made from is attached.}
            """, files: ["ips-summary.json": bundle, "notes.txt": notes])
        let pdf = input.appendingPathComponent("summary.pdf")
        let rendered = try TestSupport.run(folio, ["render", input.appendingPathComponent("document.yaml").path, "-o", pdf.path])
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        let found = try attachments(of: pdf)
        XCTAssertEqual(found["pdfaPart"] as? String, "3")
        XCTAssertEqual(found["pdfaConformance"] as? String, "U")
        XCTAssertEqual(
            found["xmpFiles"] as? [String],
            [
                "patient-bundle.fhir.json (application/fhir+json, Source): The FHIR Bundle this summary was made from",
                "Notas del día.txt (text/plain, Supplement): Notas del día.txt",
            ])
        XCTAssertEqual(found["xmpDescribesSchema"] as? Bool, true)
        let files = try XCTUnwrap(found["files"] as? [[String: Any]])
        XCTAssertEqual(files.count, 2)
        let fhir = try XCTUnwrap(files.first { $0["name"] as? String == "patient-bundle.fhir.json" })
        XCTAssertEqual(fhir["sha256"] as? String, sha256(bundle))
        XCTAssertEqual(fhir["relationship"] as? String, "/Source")
        XCTAssertEqual(fhir["mimeType"] as? String, "application/fhir+json")
        XCTAssertEqual(fhir["description"] as? String, "The FHIR Bundle this summary was made from")
        XCTAssertEqual(fhir["size"] as? Int, bundle.count)
        XCTAssertEqual(fhir["checksumMatches"] as? Bool, true)
        XCTAssertEqual(fhir["modified"] as? String, "D:20261116080000Z")
        XCTAssertEqual(fhir["inAF"] as? Bool, true)
        let text = try XCTUnwrap(files.first { $0["name"] as? String == "Notas del día.txt" })
        XCTAssertEqual(text["sha256"] as? String, sha256(notes))
        XCTAssertEqual(text["mimeType"] as? String, "text/plain")
        XCTAssertEqual(text["relationship"] as? String, "/Supplement")
        XCTAssertEqual(text["description"] as? String, "Notas del día.txt")
        XCTAssertEqual(try TestSupport.run("qpdf", ["--check", pdf.path]).status, 0)
        try TestSupport.assertPassesPDFUACheckers([pdf.path])
    }

    /// A signed packet's signature covers its attachments: intact as written, broken by one byte
    /// changed inside an attached file's stream.
    func testASignatureCoversTheAttachments() throws {
        try TestSupport.integrationOnly()
        let pki = try TestSupport.temporaryDirectory()
        let made = try TestSupport.run(
            try TestSupport.python(),
            [TestSupport.root.appendingPathComponent("Tests/FolioTests/Fixtures/make_test_pki.py").path, pki.path])
        XCTAssertEqual(made.status, 0, made.stderr)
        let bundle = Data(#"{"resourceType":"Bundle","type":"collection","entry":[]}"#.utf8)
        let input = try folder(
            """
            title: Signed summary
            metadata: {conformance: pdfa-3u}
            attachments: [{path: bundle.json, relationship: Data}]
            elements: [{type: paragraph, text: Signed with its data.}]
            """, files: ["bundle.json": bundle])
        let pdf = input.appendingPathComponent("signed.pdf")
        let rendered = try TestSupport.run(
            folio,
            [
                "render", input.appendingPathComponent("document.yaml").path, "-o", pdf.path, "--sign-key",
                pki.appendingPathComponent("signer.key").path, "--sign-cert", pki.appendingPathComponent("signer.pem").path,
            ])
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        let script = TestSupport.root.appendingPathComponent("Tests/FolioTests/Fixtures/validate_signature.py").path
        func validation(_ file: URL) throws -> [String: Any] {
            let checked = try TestSupport.run(try TestSupport.python(), [script, file.path, pki.appendingPathComponent("root.pem").path])
            return try XCTUnwrap(try JSONSerialization.jsonObject(with: checked.stdout) as? [String: Any], checked.stderr)
        }
        let found = try validation(pdf)
        XCTAssertEqual(found["intact"] as? Bool, true, "\(found)")
        XCTAssertEqual(found["coverage"] as? String, "ENTIRE_FILE", "\(found)")
        let files = try XCTUnwrap(try attachments(of: pdf)["files"] as? [[String: Any]])
        XCTAssertEqual(files.first?["sha256"] as? String, sha256(bundle))
        var bytes = try Data(contentsOf: pdf)
        let embedded = try XCTUnwrap(bytes.range(of: Data("/Type /EmbeddedFile".utf8)))
        let stream = try XCTUnwrap(bytes.range(of: Data("stream\n".utf8), in: embedded.upperBound..<bytes.count)).upperBound
        bytes[stream + 4] ^= 0x01
        let tampered = try TestSupport.temporaryFile(bytes, name: "tampered.pdf")
        XCTAssertEqual(try validation(tampered)["intact"] as? Bool, false)
    }

    /// `from: record` attaches the record a template was rendered with, as JSON.
    func testATemplateAttachesItsRecord() throws {
        let record = #"{"patient": {"name": "Émile Okafor", "id": "P00001"}, "pain": [3, 4.5, null]}"#
        let input = try folder(
            """
            title: "Summary for {{patient.name}}"
            metadata: {conformance: pdfa-3u}
            attachments: [{from: record, description: The record this summary was made from}]
            elements: [{type: paragraph, text: "Patient {{patient.id}}."}]
            """, files: ["record.json": Data(record.utf8)])
        let pdf = input.appendingPathComponent("summary.pdf")
        let rendered = try TestSupport.run(
            folio,
            [
                "render", input.appendingPathComponent("document.yaml").path, "--data", input.appendingPathComponent("record.json").path,
                "-o", pdf.path,
            ])
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        let files = try XCTUnwrap(try attachments(of: pdf)["files"] as? [[String: Any]])
        XCTAssertEqual(files.first?["name"] as? String, "record.json")
        XCTAssertEqual(files.first?["mimeType"] as? String, "application/json")
        let attached = try XCTUnwrap((files.first?["text"] as? String).map { Data($0.utf8) })
        let parsed = try JSONSerialization.jsonObject(with: attached) as? NSDictionary
        XCTAssertEqual(parsed, try JSONSerialization.jsonObject(with: Data(record.utf8)) as? NSDictionary)
    }

    /// Attachments that cannot be written are one line naming the field, and nothing is written.
    func testWrongAttachmentsNameTheField() throws {
        let cases: [(String, String)] = [
            ("metadata: {conformance: pdfa-2u}\nattachments: [{path: data.json}]", "attachments: PDF/A-2u"),
            ("attachments: [{from: record}]", "attachments[0].from: \"from: record\" attaches the data record"),
            ("attachments: [{path: data.json, name: ../escape.json}]", "attachments[0].name: \"../escape.json\" is not a file name"),
            ("attachments: [{path: data.json, mimeType: json}]", "attachments[0].mimeType: \"json\" is not a MIME type"),
            ("attachments: [{path: data.json}, {path: data.json}]", "attachments[1].name: \"data.json\" is attached twice"),
            // r64: a name that reads as another (U+202E turns "a\u{202E}txt.exe" into "aexe.txt"), and two
            // names that are one file on a case-insensitive disk.
            (
                #"attachments: [{path: data.json, name: "a\u202Etxt.exe"}]"#,
                #"attachments[0].name: "a\u{202E}txt.exe" is not a file name: it holds U+202E"#
            ),
            (#"attachments: [{path: data.json, name: "a\u2066b.json"}]"#, "it holds U+2066"),
            (#"attachments: [{path: data.json, name: "a\u200Fb.json"}]"#, "it holds U+200F"),
            (
                "attachments: [{path: data.json, name: a.txt}, {path: data.json, name: A.TXT}]",
                #"attachments[1].name: "A.TXT" is attached twice (as "a.txt")"#
            ),
            ("attachments: [{path: data.json, name: \"lab?.json\"}]", "attachments[0].name: \"lab?.json\" is not a file name"),
            ("attachments: [{path: data.json, name: \"notes.\"}]", "attachments[0].name: \"notes.\" is not a file name"),
            ("attachments: [{path: missing.json}]", "attachments[0].path: "),
            ("attachments: [{path: data.json, relationship: Owner}]", "attachments[0].relationship: unknown value \"Owner\""),
            ("attachments: [{path: data.json, data: e30=}]", "attachments[0]: an attachment needs exactly one of"),
        ]
        for (yaml, expected) in cases {
            let input = try folder("title: T\n\(yaml)\nelements: [{type: paragraph, text: x}]\n", files: ["data.json": Data("{}".utf8)])
            let pdf = input.appendingPathComponent("out.pdf")
            let rendered = try TestSupport.run(folio, ["render", input.appendingPathComponent("document.yaml").path, "-o", pdf.path])
            XCTAssertNotEqual(rendered.status, 0, yaml)
            XCTAssertEqual(rendered.stderr.split(separator: "\n").count, 1, rendered.stderr)
            XCTAssertTrue(rendered.stderr.contains(expected), "\(yaml): \(rendered.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: pdf.path), yaml)
        }
    }

    /// `folio batch --attach fhir` embeds in each patient's PDF a FHIR Bundle of exactly that
    /// patient's resources as the export has them (fhir.resources parses it; each resource equals its
    /// export line), beside the DocumentReference; in worker processes as in threads.
    func testABatchAttachesEachPatientsBundle() throws {
        try TestSupport.integrationOnly()
        let export = TestSupport.samples.appendingPathComponent("fhir-export")
        for inProcess in [false, true] {
            let output = try TestSupport.temporaryDirectory()
            let run = try TestSupport.run(
                folio,
                [
                    "batch", TestSupport.root.appendingPathComponent("Templates/fhir-weekly-summary.yaml").path, "--data", export.path,
                    "--data-format", "fhir", "--period", "2026-11-09/2026-11-15", "--zone", "America/New_York", "--emit", "fhir",
                    "--attach", "fhir", "--out", output.path, "--quiet",
                ] + (inProcess ? ["--in-process"] : []))
            XCTAssertEqual(run.status, 0, run.stderr)
            let script = """
                import json, os, sys, pikepdf
                from fhir.resources.bundle import Bundle
                folder, export = sys.argv[1], sys.argv[2]
                lines = {}
                for name in os.listdir(export):
                    for line in open(os.path.join(export, name), encoding="utf-8"):
                        if line.strip():
                            resource = json.loads(line)
                            lines[(resource["resourceType"], resource["id"])] = resource
                def patient_of(resource):
                    if resource["resourceType"] == "Patient": return resource["id"]
                    return resource["subject"]["reference"].split("/", 1)[1]
                for name in sorted(os.listdir(folder)):
                    if not name.endswith(".pdf"): continue
                    pdf = pikepdf.open(os.path.join(folder, name))
                    attached = pdf.attachments["fhir-bundle.json"]
                    data = attached.get_file().read_bytes()
                    bundle = json.loads(data)
                    Bundle(bundle)
                    resources = [entry["resource"] for entry in bundle["entry"]]
                    patient = name[:-4]
                    expected = sorted(key for key, resource in lines.items() if patient_of(resource) == patient)
                    same = all(lines[(r["resourceType"], r["id"])] == r for r in resources)
                    print(name, attached.get_file().mime_type, str(attached.obj.AFRelationship), bundle["type"],
                          sorted((r["resourceType"], r["id"]) for r in resources) == expected, same, len(resources))
                """
            let read = try TestSupport.run(try TestSupport.python(), ["-c", script, output.path, export.path])
            XCTAssertEqual(read.status, 0, read.stderr)
            let lines = read.text.split(separator: "\n").map(String.init)
            XCTAssertEqual(lines.count, 4, read.text)
            for line in lines {
                let fields = line.split(separator: " ")
                XCTAssertEqual(fields[1], "application/fhir+json", line)
                XCTAssertEqual(fields[2], "/Source", line)
                XCTAssertEqual(fields[3], "collection", line)
                XCTAssertEqual(fields[4], "True", "\(line): not exactly the patient's resources")
                XCTAssertEqual(fields[5], "True", "\(line): a resource differs from the export's")
                XCTAssertGreaterThan(Int(fields[6]) ?? 0, 1, line)
            }
        }
        let refused = try TestSupport.run(folio, ["batch", "t.yaml", "--data", "d.jsonl", "--attach", "fhir", "--out", "o"])
        XCTAssertTrue(refused.stderr.contains("--attach fhir needs --data-format fhir"), refused.stderr)
    }

    private func sha256(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }
}
