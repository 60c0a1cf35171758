import Foundation
import XCTest

@testable import Folio
@testable import FolioBatch
@testable import FolioModel

/// Runs `folio batch` as a user would, on the W1 template.
final class BatchCommandIntegrationTests: XCTestCase {
    private var folio: String { TestSupport.folioBinary.path }
    private let template = TestSupport.root.appendingPathComponent("Templates/weekly-summary.yaml").path

    /// `count` good records made from the first sample record, with ids P1…Pn.
    private func records(_ count: Int, mutate: (Int, inout [String: Any]) -> Void = { _, _ in }) throws -> [String] {
        let sample = try String(contentsOf: TestSupport.samples.appendingPathComponent("patients.jsonl"), encoding: .utf8)
        let first = try XCTUnwrap(sample.split(separator: "\n").first)
        return try (1...count).map { index in
            var record = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
            var patient = try XCTUnwrap(record["patient"] as? [String: Any])
            patient["id"] = "P\(index)"
            record["patient"] = patient
            mutate(index, &record)
            return String(decoding: try JSONSerialization.data(withJSONObject: record), as: UTF8.self)
        }
    }

    private func write(_ lines: [String], name: String = "data.jsonl") throws -> URL {
        try TestSupport.temporaryFile(Data((lines.joined(separator: "\n") + "\n").utf8), name: name)
    }

    private func lines(_ url: URL) -> [[String: Any]] {
        ((try? String(contentsOf: url, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    func testSampleBatchWritesGoodRecordsAndListsTheBadOne() throws {
        let out = try TestSupport.temporaryDirectory()
        let result = try TestSupport.run(
            folio,
            [
                "batch", template, "--data", TestSupport.samples.appendingPathComponent("patients.jsonl").path,
                "--out", out.path, "--format", "pdf,html", "--name", "{{patient.id}}-week.pdf",
            ])
        XCTAssertEqual(result.status, 1, "a failed record makes the exit status non-zero")
        XCTAssertTrue(result.stderr.contains("folio: 4 written, 1 failed"), result.stderr)
        let failures = lines(out.appendingPathComponent("failures.jsonl"))
        XCTAssertEqual(failures.count, 1)
        XCTAssertEqual(failures.first?["record"] as? Int, 4)
        XCTAssertEqual(failures.first?["id"] as? String, "P00005")
        XCTAssertEqual(
            failures.first?["error"] as? String,
            "elements[2].items[0].value: mean needs numbers, but pain[3] is a string")
        for id in ["P00001", "P00002", "P00003", "P00004"] {
            let pdf = out.appendingPathComponent("\(id)-week.pdf")
            XCTAssertEqual(try TestSupport.run("qpdf", ["--check", pdf.path]).status, 0, id)
            XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("\(id)-week.html").path))
        }
        // The manifest's sizes and checksums are those of the files.
        let manifest = lines(out.appendingPathComponent("manifest.jsonl"))
        XCTAssertEqual(manifest.count, 8)
        for entry in manifest {
            let file = out.appendingPathComponent(try XCTUnwrap(entry["file"] as? String))
            let data = try Data(contentsOf: file)
            XCTAssertEqual(entry["bytes"] as? Int, data.count)
            let sum = try TestSupport.run("sha256sum", [file.path]).text.split(separator: " ").first.map(String.init)
            XCTAssertEqual(entry["sha256"] as? String, sum)
            if file.pathExtension == "pdf" {
                XCTAssertEqual(entry["pages"] as? Int, Int(try TestSupport.pdfInfo(data)["Pages"] ?? ""))
            }
        }
        // The follow-up message appears only for the record that has the field.
        XCTAssertTrue(
            try TestSupport.pageTexts(Data(contentsOf: out.appendingPathComponent("P00002-week.pdf"))).joined()
                .contains("Call on Monday"))
        XCTAssertFalse(
            try TestSupport.pageTexts(Data(contentsOf: out.appendingPathComponent("P00001-week.pdf"))).joined()
                .contains("Follow-up"))
    }

    func testInjectionAttemptsStayLiteralText() throws {
        let hostile = [
            "{{x}}", "</p><script>alert(1)</script>", "': [", "---", String(repeating: "W", count: 10_000),
            "[Pay here](https://evil.example) **now**",
        ]
        let data = try write(
            try records(hostile.count) { index, record in
                var patient = record["patient"] as? [String: Any] ?? [:]
                patient["name"] = hostile[index - 1]
                record["patient"] = patient
                record["notes"] = [hostile[index - 1]]
            })
        let out = try TestSupport.temporaryDirectory()
        let result = try TestSupport.run(
            folio,
            [
                "batch", template, "--data", data.path, "--out", out.path, "--format", "pdf,html",
                "--name", "{{patient.name}}", "--quiet",
            ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".pdf") }
        XCTAssertEqual(files.count, hostile.count)
        XCTAssertTrue(files.allSatisfy { !$0.contains("/") && !$0.hasPrefix(".") && $0.utf8.count <= 184 }, "\(files)")
        for (index, name) in hostile.enumerated() {
            let stem = try XCTUnwrap(files.first { $0.hasPrefix(String(FileNaming.sanitized(name).prefix(40))) }).dropLast(4)
            let pdf = try Data(contentsOf: out.appendingPathComponent(stem + ".pdf"))
            let text = try TestSupport.pageTexts(pdf).joined()
            if name.count < 100 {
                XCTAssertTrue(
                    TestSupport.normalized(text).contains(TestSupport.normalized("update for \(name)")), "record \(index + 1): \(name)")
            }
            XCTAssertTrue(
                TestSupport.normalized(text).replacingOccurrences(of: " ", with: "").contains(
                    String(name.prefix(500)).replacingOccurrences(of: " ", with: "")),
                "note of record \(index + 1) missing")
            let html = try String(contentsOf: out.appendingPathComponent(stem + ".html"), encoding: .utf8)
            XCTAssertFalse(html.contains("<script"))
            XCTAssertFalse(html.contains("href=\"https://evil.example"), "a bound value became a link")
            // The value as text, set as the report's language sets text (typographic quotes and apostrophes).
            let typeset = Typography.set([TextRun(name)], language: "en").map(\.text).joined()
            XCTAssertTrue(html.contains("<p>\(HTMLEscapingForTests.escape(typeset))</p>"), "record \(index + 1): \(name)")
        }
    }

    func testAValueThatBreaksAFilterFailsItsRecordAlone() throws {
        let data = try write(
            try records(3) { index, record in
                if index == 2 { record["steps"] = [1e20] }
            })
        let out = try TestSupport.temporaryDirectory()
        let result = try TestSupport.run(
            folio, ["batch", template, "--data", data.path, "--out", out.path, "--name", "{{patient.id}}", "--quiet"])
        XCTAssertEqual(result.status, 1)
        let failures = lines(out.appendingPathComponent("failures.jsonl"))
        XCTAssertEqual(failures.count, 1)
        XCTAssertEqual(failures.first?["record"] as? Int, 2)
        XCTAssertEqual(
            failures.first?["error"] as? String,
            "elements[2].items[2].value: thousands needs a number between -1e15 and 1e15, but steps is 1e+20")
        for id in ["P1", "P3"] { XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("\(id).pdf").path)) }
    }

    /// A record whose text no installed font can draw is written, and said on standard error for
    /// that record (in worker processes and in process alike); with --strict it fails alone.
    func testBoxesInsteadOfLettersAreSaidForTheirRecord() throws {
        let data = try write(
            try records(3) { index, record in
                if index == 2 { record["notes"] = ["A note in a script no font has: \u{10FFFD}"] }
            })
        for extra in [[], ["--in-process"]] {
            let out = try TestSupport.temporaryDirectory()
            let result = try TestSupport.run(
                folio, ["batch", template, "--data", data.path, "--out", out.path, "--name", "{{patient.id}}", "--quiet"] + extra)
            XCTAssertEqual(result.status, 0, result.stderr)
            let warnings = result.stderr.split(separator: "\n").filter { $0.contains("warning") }
            XCTAssertFalse(warnings.isEmpty, "\(extra): \(result.stderr)")
            XCTAssertTrue(warnings.allSatisfy { $0.contains("record 2") }, "\(extra): \(warnings)")
            XCTAssertTrue(
                warnings.contains { $0.contains("U+10FFFD") || $0.lowercased().contains("glyph") || $0.contains("font") }, "\(warnings)")
        }
        let strict = try TestSupport.temporaryDirectory()
        let result = try TestSupport.run(
            folio, ["batch", template, "--data", data.path, "--out", strict.path, "--name", "{{patient.id}}", "--quiet", "--strict"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(lines(strict.appendingPathComponent("failures.jsonl")).map { $0["record"] as? Int }, [2])
    }

    func testDataThatIsNotDataIsOneErrorLine() throws {
        let out = try TestSupport.temporaryDirectory()
        var csv = Data("patient.id,patient.name\nP1,Ann".utf8)
        csv.append(contentsOf: [0xFF, 0xFE])
        csv.append(contentsOf: Data("\nP2,Bob\n".utf8))
        let cases: [(String, String)] = [
            (out.path, "folio: error: cannot read data file \(out.path): it is not a regular file (use - for standard input)\n"),
            ("/dev/zero", "folio: error: cannot read data file /dev/zero: it is not a regular file (use - for standard input)\n"),
            (try TestSupport.temporaryFile(csv, name: "latin1.csv").path, "folio: error: the CSV data is not UTF-8 after record 1\n"),
            (try TestSupport.temporaryFile(Data([0, 1, 2, 0]), name: "binary").path, ""),
        ]
        let sample = TestSupport.samples.appendingPathComponent("patients.jsonl").path
        let notAFolder = try TestSupport.run(folio, ["batch", template, "--data", sample, "--out", "/dev/null"])
        XCTAssertEqual(notAFolder.status, 1)
        XCTAssertEqual(notAFolder.stderr, "folio: error: --out: /dev/null exists and is not a folder\n")
        let threads = try TestSupport.run(folio, ["batch", template, "--data", sample, "--out", out.path, "--jobs", "100000"])
        XCTAssertEqual(threads.status, 1)
        XCTAssertEqual(threads.stderr, "folio: error: --jobs must be between 1 and 256 (see folio --help)\n")
        for (data, expected) in cases {
            let result = try TestSupport.run(folio, ["batch", template, "--data", data, "--out", out.path, "--quiet"])
            XCTAssertEqual(result.status, 1, data)
            if expected.isEmpty {
                XCTAssertTrue(result.stderr.hasSuffix("is not a JSON or CSV text file\n"), result.stderr)
            } else {
                XCTAssertEqual(result.stderr, expected)
            }
        }
    }

    func testResumeRepairsWhatAKilledRunLeftHalfDone() throws {
        let data = try write(try records(4))
        let out = try TestSupport.temporaryDirectory()
        let arguments = ["batch", template, "--data", data.path, "--out", out.path, "--name", "{{patient.id}}", "--format", "pdf,html"]
        XCTAssertEqual(try TestSupport.run(folio, arguments + ["--quiet"]).status, 0)
        let manifestURL = out.appendingPathComponent("manifest.jsonl")
        // As a kill -9 can leave it: P2's HTML never written; P3's files renamed into place but not logged;
        // the manifest's last line cut in half; a temporary file of a process that no longer runs.
        try FileManager.default.removeItem(at: out.appendingPathComponent("P2.html"))
        let kept = try String(contentsOf: manifestURL, encoding: .utf8).split(separator: "\n").filter { !$0.contains("\"P3.") }
        try Data((kept.joined(separator: "\n") + "\n{\"record\":3,\"fi").utf8).write(to: manifestURL)
        let stale = out.appendingPathComponent(".folio-tmp-999999-0000-P1.pdf")
        try Data("partial".utf8).write(to: stale)

        let resumed = try TestSupport.run(folio, arguments + ["--resume"])
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        XCTAssertTrue(resumed.stderr.contains("2 written, 2 skipped, 0 failed"), resumed.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("P2.html").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale.path), "stale temporary file removed")
        let text = try String(contentsOf: manifestURL, encoding: .utf8)
        XCTAssertTrue(text.hasSuffix("\n"))
        let entries = lines(manifestURL)
        XCTAssertEqual(entries.count, text.split(separator: "\n").count, "every manifest line is whole JSON")
        let listed = Set(entries.compactMap { $0["file"] as? String })
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".pdf") || $0.hasSuffix(".html") }
        XCTAssertEqual(files.count, 8)
        XCTAssertEqual(Set(files), listed, "every file has its manifest line")
        XCTAssertFalse(files.contains { $0.hasPrefix(".") })
    }

    func testShardsPartitionTheRecordsExactly() throws {
        let data = try write(try records(11))
        var seen: [String] = []
        let shared = try TestSupport.temporaryDirectory()
        for k in 0..<3 {
            let out = try TestSupport.temporaryDirectory()
            let result = try TestSupport.run(
                folio,
                [
                    "batch", template, "--data", data.path, "--out", out.path,
                    "--name", "{{patient.id}}", "--shard", "\(k)/3", "--jobs", "2", "--quiet",
                ])
            XCTAssertEqual(result.status, 0, result.stderr)
            let names = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".pdf") }
            XCTAssertTrue(names.allSatisfy { name in (Int(name.dropFirst().dropLast(4)) ?? -1) % 3 == k }, "\(names)")
            seen += names
        }
        XCTAssertEqual(seen.sorted(), (1...11).map { "P\($0).pdf" }.sorted())
        // Three shards running at once into one folder keep separate manifests.
        let processes = try (0..<3).map { k -> Process in
            let process = Process()
            process.executableURL = TestSupport.folioBinary
            process.arguments = [
                "batch", template, "--data", data.path, "--out", shared.path, "--name", "{{patient.id}}",
                "--shard", "\(k)/3", "--jobs", "1", "--quiet",
            ]
            try process.run()
            return process
        }
        processes.forEach { $0.waitUntilExit() }
        XCTAssertTrue(processes.allSatisfy { $0.terminationStatus == 0 })
        let manifests = (0..<3).map { lines(shared.appendingPathComponent("manifest-shard-\($0)-of-3.jsonl")).count }
        XCTAssertEqual(manifests, [3, 4, 4])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: shared.path).filter { $0.hasSuffix(".pdf") }.count, 11)
    }

    func testNameCollisionsStopTheBatchBeforeAnythingIsWritten() throws {
        let data = try write(
            try records(3) { index, record in
                if index == 3 { record["patient"] = ["id": "P1", "name": "Twin", "week": "w"] }
            })
        let out = try TestSupport.temporaryDirectory()
        let result = try TestSupport.run(folio, ["batch", template, "--data", data.path, "--out", out.path, "--name", "{{patient.id}}"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(
            result.stderr,
            "folio: error: --name: records 1 and 3 would both be written to \"P1.pdf\"; make the pattern unique, for example with {{$number}}\n"
        )
        XCTAssertTrue(try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".pdf") }.isEmpty)
        // A pattern that cannot be read is one error before any record, not a failure per record.
        for (pattern, error) in [
            ("{{patient.id", "--name: a placeholder opened with {{ is not closed with }}"),
            ("{{patient.id | shout}}", #"--name: unknown filter "shout""#),
        ] {
            let fresh = try TestSupport.temporaryDirectory()
            let bad = try TestSupport.run(folio, ["batch", template, "--data", data.path, "--out", fresh.path, "--name", pattern])
            XCTAssertEqual(bad.status, 1, pattern)
            XCTAssertTrue(bad.stderr.hasPrefix("folio: error: \(error)"), bad.stderr)
            XCTAssertEqual(bad.stderr.filter { $0 == "\n" }.count, 1, bad.stderr)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: fresh.path), [], "nothing written for \(pattern)")
        }
    }

    func testCSVAndJSONArrayAndStandardInput() throws {
        let csv = """
            patient.id,patient.name,patient.week,days,pain,medicationAdherence,steps,stress,rings,activityShare,heartRate,medications,notes
            C1,"Ann, Jr.",week 1,"[""Mon"",""Tue""]","[1,2]","[0.5,0.6]","[100,200]","[[1,2],[2,3]]","{""Move"":0.5}","{""Steps"":1}","{""elapsedSeconds"":[0,10],""expected"":[70,71],""actual"":[72,73]}","[]","[""Short note""]"
            C2,Bob,week 1,"[""Mon""]","[x]","[0.5]","[1]","[[1,2]]","{}","{}","{""elapsedSeconds"":[0],""expected"":[1],""actual"":[1]}","[]","[]"
            """
        let csvFile = try TestSupport.temporaryFile(Data(csv.utf8), name: "data.csv")
        let out = try TestSupport.temporaryDirectory()
        let result = try TestSupport.run(
            folio, ["batch", template, "--data", csvFile.path, "--out", out.path, "--name", "{{patient.id}}", "--quiet"])
        XCTAssertEqual(result.status, 1, "C2's pain is not a number")
        XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("C1.pdf").path))
        XCTAssertTrue(
            try TestSupport.pageTexts(Data(contentsOf: out.appendingPathComponent("C1.pdf"))).joined().contains("update for Ann, Jr."))
        XCTAssertEqual(lines(out.appendingPathComponent("failures.jsonl")).first?["id"] as? String, "C2")

        let array = "[\n" + (try records(3)).joined(separator: ",\n") + "\n]"
        let arrayOut = try TestSupport.temporaryDirectory()
        let fromStdin = try TestSupport.run(
            folio,
            [
                "batch", template, "--data", "-", "--out", arrayOut.path, "--name", "{{patient.id}}",
                "--format", "pdf,html", "--html", "shadow", "--quiet",
            ],
            input: Data(array.utf8))
        XCTAssertEqual(fromStdin.status, 0, fromStdin.stderr)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: arrayOut.path).filter { $0.hasSuffix(".pdf") }.sorted(),
            ["P1.pdf", "P2.pdf", "P3.pdf"])
        let shadow = try String(contentsOf: arrayOut.appendingPathComponent("P2.html"), encoding: .utf8)
        XCTAssertTrue(shadow.hasPrefix("<div class=\"folio-host\""), "--html shadow writes fragments")
    }

    func testMalformedLineFailsAloneAndFailFastStops() throws {
        var data = try records(4)
        data.insert("{\"patient\": {\"id\": \"broken\"", at: 1)
        let file = try write(data)
        let out = try TestSupport.temporaryDirectory()
        let result = try TestSupport.run(
            folio, ["batch", template, "--data", file.path, "--out", out.path, "--name", "{{patient.id}}", "--quiet"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("4 written, 1 failed"), result.stderr)
        XCTAssertTrue(
            (lines(out.appendingPathComponent("failures.jsonl")).first?["error"] as? String ?? "").hasPrefix("invalid JSON at line 1"))

        let fast = try TestSupport.temporaryDirectory()
        let stopped = try TestSupport.run(
            folio,
            [
                "batch", template, "--data", file.path, "--out", fast.path, "--name", "{{patient.id}}",
                "--fail-fast", "--jobs", "1", "--quiet",
            ])
        XCTAssertEqual(stopped.status, 1)
        XCTAssertLessThan(try FileManager.default.contentsOfDirectory(atPath: fast.path).filter { $0.hasSuffix(".pdf") }.count, 4)
    }

    func testInterruptedRunLeavesNoPartialFileAndResumeFinishes() throws {
        let count = 60
        let data = try write(try records(count))
        let out = try TestSupport.temporaryDirectory()
        let process = Process()
        process.executableURL = TestSupport.folioBinary
        process.arguments = [
            "batch", template, "--data", data.path, "--out", out.path, "--name", "{{patient.id}}", "--jobs", "2", "--quiet",
        ]
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Interrupt once a few documents exist.
        let deadline = Date(timeIntervalSinceNow: 30)
        while Date() < deadline {
            let done = (try? FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".pdf") }.count) ?? 0
            if done >= 5 { break }
            usleep(5_000)
        }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130)
        let written = try FileManager.default.contentsOfDirectory(atPath: out.path)
        XCTAssertFalse(written.contains { $0.hasPrefix(".folio-tmp") }, "temporary files left: \(written)")
        let pdfs = written.filter { $0.hasSuffix(".pdf") }
        XCTAssertLessThan(pdfs.count, count, "the run stopped early")
        for pdf in pdfs {
            XCTAssertEqual(try TestSupport.run("qpdf", ["--check", out.appendingPathComponent(pdf).path]).status, 0, "partial \(pdf)")
        }

        let resumed = try TestSupport.run(
            folio,
            [
                "batch", template, "--data", data.path, "--out", out.path, "--name", "{{patient.id}}",
                "--resume", "--jobs", "2",
            ])
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        XCTAssertTrue(resumed.stderr.contains("\(count - pdfs.count) written, \(pdfs.count) skipped, 0 failed"), resumed.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".pdf") }.count, count)
    }
    func testBlankCSVLinesAreNoRecordsAndAnOversizedRecordFailsAlone() throws {
        let simple = try TestSupport.temporaryFile(
            Data("title: \"{{id}}\"\nheader: \"{{id}} page {page}\"\nelements:\n  - {type: paragraph, text: \"x\"}\n".utf8),
            name: "t.yaml")
        let csv = try TestSupport.temporaryFile(Data("id\nA\n\n \nB\n\n".utf8), name: "d.csv")
        let out = try TestSupport.temporaryDirectory()
        let result = try TestSupport.run(
            folio, ["batch", simple.path, "--data", csv.path, "--out", out.path, "--name", "{{id}}", "--quiet"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".pdf") }.sorted(), ["A.pdf", "B.pdf"])

        // A record over 64 MB between two good ones, as a JSON line and as an array element.
        let huge = "{\"id\": \"H\", \"x\": \"" + String(repeating: "y", count: InputLimits.documentBytes + 10) + "\"}"
        for (name, text) in [
            ("big.jsonl", "{\"id\": \"A\"}\n\(huge)\n{\"id\": \"{page}\"}\n"),
            ("big.json", "[{\"id\": \"A\"}, \(huge), {\"id\": \"{page}\"}]"),
        ] {
            let file = try TestSupport.temporaryFile(Data(text.utf8), name: name)
            let folder = try TestSupport.temporaryDirectory()
            let run = try TestSupport.run(
                folio, ["batch", simple.path, "--data", file.path, "--out", folder.path, "--name", "r{{$number}}", "--quiet"])
            XCTAssertEqual(run.status, 1, run.stderr)
            XCTAssertEqual(
                try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".pdf") }.sorted(),
                ["r1.pdf", "r3.pdf"])
            let failure = lines(folder.appendingPathComponent("failures.jsonl"))
            XCTAssertEqual(failure.first?["record"] as? Int, 2)
            XCTAssertTrue((failure.first?["error"] as? String ?? "").hasPrefix("the record is larger than"), "\(failure)")
            // A record value in the header stays literal: "{page}" is not the page number.
            let text = try TestSupport.pageTexts(Data(contentsOf: folder.appendingPathComponent("r3.pdf"))).joined()
            XCTAssertTrue(text.contains("{page} page 1"), text)
        }
    }

    func testFileNamesLoseCharactersThatWouldDisguiseThem() throws {
        let data = try write(try records(1) { _, record in record["patient"] = ["id": "report\u{202E}fdp.exe", "name": "N", "week": "w"] })
        let out = try TestSupport.temporaryDirectory()
        let result = try TestSupport.run(
            folio, ["batch", template, "--data", data.path, "--out", out.path, "--name", "{{patient.id}}", "--quiet"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".pdf") }, ["reportfdp.exe.pdf"])
    }

    func testLenientMeansWarningsOnStandardErrorInBatchAsInRender() throws {
        // One meaning of --lenient: an unknown key is a warning printed on standard error, not an
        // error. Without it every record fails naming the key; with it every record is written and
        // the template's warnings are printed once, not once per record.
        let folder = try TestSupport.temporaryDirectory()
        let misspelt = folder.appendingPathComponent("misspelt.yaml")
        try Data("title: \"Week {{n}}\"\ntitel: oops\nelements:\n  - type: paragraph\n    text: \"Hi {{name}}\"\n    colour: red\n".utf8)
            .write(to: misspelt)
        let data = try write((1...3).map { #"{"n": \#($0), "name": "P\#($0)"}"# })
        let strict = try TestSupport.run(
            folio, ["batch", misspelt.path, "--data", data.path, "--out", folder.appendingPathComponent("a").path])
        XCTAssertEqual(strict.status, 1)
        let failures = lines(folder.appendingPathComponent("a/failures.jsonl"))
        XCTAssertEqual(failures.count, 3)
        XCTAssertTrue((failures.first?["error"] as? String ?? "").contains("titel: unknown key"), "\(failures)")
        let lenient = try TestSupport.run(
            folio, ["batch", misspelt.path, "--data", data.path, "--out", folder.appendingPathComponent("b").path, "--lenient", "--quiet"])
        XCTAssertEqual(lenient.status, 0, lenient.stderr)
        // Each names the template's line and column that hold the key.
        let warnings = lenient.stderr.split(separator: "\n").filter { $0.contains(": warning: ") }
        XCTAssertEqual(
            warnings.map { $0.replacingOccurrences(of: misspelt.path, with: "T") },
            [
                #"T:2:1: warning: titel: unknown key; did you mean "title"?"#,
                "T:6:5: warning: elements[0].colour: unknown key; expected one of: align, keepTogether, language, text, type",
            ])
        XCTAssertEqual(lines(folder.appendingPathComponent("b/manifest.jsonl")).count, 3)
        // folio render --lenient says the same, in the same words.
        let render = try TestSupport.run(
            folio, ["render", misspelt.path, "-o", folder.appendingPathComponent("one.pdf").path, "--lenient"])
        XCTAssertEqual(render.status, 0, render.stderr)
        XCTAssertEqual(render.stderr.split(separator: "\n").map(String.init), warnings.map(String.init))
    }

    func testTheCommandsShareTheirOptions() throws {
        // --theme, --template, --html, --lenient, --memory-limit and --in-process are declared once and
        // explained alike wherever they appear.
        /// The OPTIONS section of `folio COMMAND --help`, in one line with single spaces.
        func help(_ command: String) throws -> String {
            let text = try TestSupport.run(folio, [command, "--help"]).text
            let options = text.components(separatedBy: "OPTIONS:").last ?? ""
            return options.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        /// What follows `option` up to the next option.
        func explanation(of option: String, in text: String) -> String? {
            guard let start = text.range(of: "\(option) <") ?? text.range(of: "\(option) ") else { return nil }
            let rest = text[start.upperBound...]
            let end = rest.firstMatch(of: #/ (-\w, )?--[a-z]/#)?.range.lowerBound ?? rest.endIndex
            return String(rest[..<end])
        }
        let render = try help("render")
        let batch = try help("batch")
        let serve = try help("serve")
        for (option, commands) in [
            ("--theme", [render, batch, serve]), ("--template", [render, serve]), ("--html", [render, batch]),
            ("--lenient", [render, batch]), ("--memory-limit", [batch, serve]), ("--in-process", [batch, serve]),
        ] {
            let explanations = commands.map { explanation(of: option, in: $0) }
            XCTAssertNotNil(explanations.first ?? nil, "\(option) missing")
            XCTAssertEqual(Set(explanations.compactMap { $0 }).count, 1, "\(option) is explained differently: \(explanations)")
            XCTAssertEqual(explanations.compactMap { $0 }.count, commands.count, "\(option) missing from a command")
        }
        XCTAssertTrue(render.contains("are warnings printed on standard error, not errors"), render)
    }
}

/// The HTML escaping rule, restated for assertions.
enum HTMLEscapingForTests {
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }
}
