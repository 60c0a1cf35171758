import Foundation
import XCTest

/// The README is a front door (#43): short, every link in it and in `docs/` leads somewhere, and
/// its five-minute tour is run as written.
final class DocumentationTests: XCTestCase {
    private let root = TestSupport.root

    /// README.md, CONTRIBUTING.md and every `docs/*.md`, by their path from the repository's root.
    private func markdownFiles() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        return ["README.md", "CONTRIBUTING.md"] + docs
    }

    private func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The text outside fenced code blocks and inline code (where `[see](#id)` is an example).
    private func prose(_ text: String) -> String {
        var inCode = false
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            if line.hasPrefix("```") { inCode.toggle() }
            return !inCode && !line.hasPrefix("```")
        }
        return lines.map { line in
            line.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
                .joined(separator: " ")
        }.joined(separator: "\n")
    }

    /// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.
    private func anchors(_ text: String) -> Set<String> {
        Set(
            prose(text).split(separator: "\n").filter { $0.hasPrefix("#") }.map { line in
                let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
                return String(
                    title.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == " " || $0 == "_" }
                )
                .replacingOccurrences(of: " ", with: "-")
            })
    }

    func testTheReadmeIsAFrontDoor() throws {
        let readme = try text("README.md")
        XCTAssertLessThanOrEqual(readme.split(separator: "\n", omittingEmptySubsequences: false).count, 250)
        for section in ["## Set up", "## A five-minute tour", "## Where to read on", "## Performance"] {
            XCTAssertTrue(readme.contains("\n\(section)\n"), "README.md has no \(section)")
        }
        XCTAssertTrue(readme.contains("make samples") && readme.contains("make test"))
        // Every document in docs/ is on the map.
        for file in try markdownFiles() where file.hasPrefix("docs/") {
            XCTAssertTrue(readme.contains("](\(file))"), "README.md does not link \(file)")
        }
    }

    func testEveryLinkLeadsToAFileAndHeadingThatExist() throws {
        let pattern = try NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#)
        var checked = 0
        for file in try markdownFiles() {
            let body = prose(try text(file))
            let folder = (file as NSString).deletingLastPathComponent
            for match in pattern.matches(in: body, range: NSRange(body.startIndex..., in: body)) {
                guard let range = Range(match.range(at: 1), in: body) else { continue }
                let target = String(body[range])
                if target.contains("://") || target.hasPrefix("mailto:") || target == "…" { continue }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let path = parts[0].isEmpty ? file : (folder as NSString).appendingPathComponent(parts[0])
                let resolved = (root.appendingPathComponent(path).path as NSString).standardizingPath
                XCTAssertTrue(FileManager.default.fileExists(atPath: resolved), "\(file): \(target) leads to no file")
                if parts.count > 1, resolved.hasSuffix(".md"), let linked = try? String(contentsOfFile: resolved, encoding: .utf8) {
                    XCTAssertTrue(anchors(linked).contains(parts[1]), "\(file): \(target) leads to no heading")
                }
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 30)
    }

    /// The tour's commands, run as a newcomer pastes them (from the repository's folder, `folio` on
    /// the path), and what each promises checked.
    func testTheTourRunsAsWritten() throws {
        try TestSupport.integrationOnly()
        let readme = try text("README.md")
        let tour = try XCTUnwrap(readme.components(separatedBy: "## A five-minute tour").last?.components(separatedBy: "\n## ").first)
        let blocks = tour.components(separatedBy: "```sh\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
        XCTAssertEqual(blocks.count, 6, "the tour's shell blocks")
        let out = root.appendingPathComponent("out")
        for name in ["tour.pdf", "tour.html", "tour-service.pdf", "tour-packet.pdf"] {
            try? FileManager.default.removeItem(at: out.appendingPathComponent(name))
        }
        try? FileManager.default.removeItem(at: out.appendingPathComponent("tour-batch"))
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        let binaries = TestSupport.folioBinary.deletingLastPathComponent().path
        for block in blocks {
            // `export PATH=…/.build/release` names the release build; the tests run the one they built.
            let script = "cd '\(root.path)'\n" + block.replacingOccurrences(of: "$PWD/.build/release", with: binaries)
            if block.contains("folio preview") {
                try previewAnswers(script, environment: environment)
                continue
            }
            let result = try TestSupport.run("/bin/bash", ["-c", script], environment: environment)
            if block.contains("export PATH") {
                environment["PATH"] = binaries + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
                continue
            }
            if block.contains("folio batch") {
                XCTAssertTrue(result.stderr.contains("record 4"), "check and batch name the bad record: \(result.stderr)")
            } else {
                XCTAssertEqual(result.status, 0, "\(block)\n\(result.stderr)")
            }
        }
        XCTAssertTrue(try TestSupport.pdfText(Data(contentsOf: out.appendingPathComponent("tour.pdf"))).contains("Weekly"))
        XCTAssertTrue(try String(contentsOf: out.appendingPathComponent("tour.html"), encoding: .utf8).contains("<svg"))
        let written = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("tour-batch").path)
        XCTAssertEqual(written.filter { $0.hasSuffix(".pdf") }.count, 4, "\(written)")
        XCTAssertTrue(try Data(contentsOf: out.appendingPathComponent("tour-service.pdf")).starts(with: Data("%PDF-".utf8)))
        let packet = try TestSupport.pageTexts(Data(contentsOf: out.appendingPathComponent("tour-packet.pdf")))
        XCTAssertEqual(packet.count, 4)
        XCTAssertTrue(packet[1].contains("Northside Laboratory"), "the appended lab report is the packet's second page")
    }

    /// Starts the tour's `folio preview`, waits for its page to answer with the template's pages, stops it.
    private func previewAnswers(_ script: String, environment: [String: String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        // `cd` first, then the command in the same shell.
        process.arguments = ["-c", script.replacingOccurrences(of: "\nfolio preview", with: "\nexec folio preview")]
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        var state: [String: Any]?
        for _ in 0..<100 where state?["pages"] == nil {
            usleep(100_000)
            let answer = try TestSupport.run("curl", ["-s", "http://127.0.0.1:8700/state.json"])
            if answer.status == 0 { state = try? JSONSerialization.jsonObject(with: answer.stdout) as? [String: Any] }
        }
        XCTAssertGreaterThan(state?["pages"] as? Int ?? 0, 0, "the preview shows the pages: \(String(describing: state))")
        XCTAssertEqual(state?["records"] as? Int, 5)
    }

    /// Every complete `folio` command of `docs/` (one naming only files the repository has, no
    /// placeholder) runs as written, from a folder holding the samples and templates; the long-running
    /// `serve` and `preview` are run by the tour and the preview's tests.
    func testTheDocumentsCommandsRunAsWritten() throws {
        try TestSupport.integrationOnly()
        let folder = try TestSupport.temporaryDirectory()
        for name in ["Samples", "Templates"] {
            try FileManager.default.createSymbolicLink(
                at: folder.appendingPathComponent(name), withDestinationURL: root.appendingPathComponent(name))
        }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("out"), withIntermediateDirectories: true)
        var commands: [(file: String, command: String)] = []
        for file in try markdownFiles() where file.hasPrefix("docs/") {
            var inShell = false
            var pending = ""
            for line in try text(file).split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                if line.hasPrefix("```") {
                    inShell = !inShell && (line == "```sh" || line == "```bash")
                    continue
                }
                guard inShell else { continue }
                pending += line.hasSuffix("\\") ? String(line.dropLast()) : line
                if line.hasSuffix("\\") { continue }
                // A comment after the command is the reader's, not the shell's work.
                let command = String(pending.split(separator: "#", maxSplits: 1).first ?? "").trimmingCharacters(in: .whitespaces)
                pending = ""
                guard command.hasPrefix("folio ") else { continue }
                commands.append((file, command))
            }
        }
        var run = 0
        for (file, command) in commands {
            let words = command.split(separator: " ").map(String.init)
            guard words.count > 1, !["serve", "preview"].contains(words[1]) else { continue }
            // A synopsis or an example naming files of the reader's own is not run.
            let placeholder = words.contains { word in
                word.contains("[") || word.contains("|") || (word.count > 1 && word == word.uppercased() && word.first?.isLetter == true)
            }
            let fileOptions: Set<String> = ["--data", "--theme", "--password-file", "--sign-key", "--sign-cert", "--template"]
            let missing = words.indices.dropFirst(2).contains { index in
                let word = words[index]
                let isFile =
                    fileOptions.contains(words[index - 1])
                    || (!word.hasPrefix("-") && [".yaml", ".json", ".jsonl", ".pem"].contains { word.hasSuffix($0) })
                return isFile && !FileManager.default.fileExists(atPath: folder.appendingPathComponent(word).path)
            }
            guard !placeholder, !missing else { continue }
            let result = try TestSupport.run(
                "/bin/bash",
                ["-c", "cd '\(folder.path)' && " + command.replacingOccurrences(of: "folio ", with: "'\(TestSupport.folioBinary.path)' ")])
            // A batch of the sample patients reports record 4, bad on purpose, and exits 1.
            let batchOfSamples = words[1] == "batch" && command.contains("Samples/patients.jsonl")
            XCTAssertEqual(result.status, batchOfSamples ? 1 : 0, "\(file): \(command)\n\(result.stderr)")
            if batchOfSamples { XCTAssertTrue(result.stderr.contains("1 failed"), result.stderr) }
            run += 1
        }
        XCTAssertGreaterThanOrEqual(run, 3, "the documents' complete commands: \(commands.map(\.command))")
    }
}
