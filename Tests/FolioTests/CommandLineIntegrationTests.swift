import Foundation
import XCTest

@testable import Folio

/// Runs the built `folio` binary as a user would.
final class CommandLineIntegrationTests: XCTestCase {
    private var folio: String { TestSupport.folioBinary.path }
    private let sample = TestSupport.samples.appendingPathComponent("weekly-summary.yaml").path

    func testRendersPDFAndHTMLByExtension() throws {
        let folder = try TestSupport.temporaryDirectory()
        let pdf = folder.appendingPathComponent("w1.pdf").path
        let html = folder.appendingPathComponent("w1.html").path
        let first = try TestSupport.run(folio, ["render", sample, "-o", pdf])
        XCTAssertEqual(first.status, 0, first.stderr)
        let second = try TestSupport.run(folio, ["render", sample, "-o", html])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(try Data(contentsOf: URL(fileURLWithPath: pdf)).starts(with: Data("%PDF-".utf8)))
        XCTAssertTrue(try String(contentsOfFile: html, encoding: .utf8).hasPrefix("<!DOCTYPE html>"))
        XCTAssertEqual(try TestSupport.run("qpdf", ["--check", pdf]).status, 0)
    }

    func testFolioCompressesCairosFontsAndImagesAtZlibsFastestLevel() throws {
        // Cairo asks zlib for its default level for font subsets and images; `folio` answers with
        // level 1 (CStreamCompression), as the finishing step compresses page content: every
        // compressed stream's zlib header says "fastest" (0x78 0x01), not "default" (0x78 0x9C).
        let pdf = try TestSupport.temporaryDirectory().appendingPathComponent("levels.pdf").path
        let rendered = try TestSupport.run(folio, ["render", sample, "-o", pdf])
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: pdf)))
        let keyword = Array("stream".utf8)
        var headers: [String: Int] = [:]
        var index = 0
        while index + keyword.count + 3 < bytes.count {
            defer { index += 1 }
            guard bytes[index] == keyword[0], Array(bytes[index..<(index + keyword.count)]) == keyword,
                index >= 3, Array(bytes[(index - 3)..<index]) != Array("end".utf8)
            else { continue }
            var start = index + keyword.count
            if bytes[start] == 0x0D { start += 1 }
            guard bytes[start] == 0x0A, bytes[start + 1] == 0x78 else { continue }
            headers[String(format: "%02x%02x", bytes[start + 1], bytes[start + 2]), default: 0] += 1
        }
        // Page content, the font subsets and the logo.
        XCTAssertGreaterThan(headers["7801"] ?? 0, 6, "\(headers)")
        XCTAssertEqual(headers.keys.sorted(), ["7801"], "streams compressed at another level: \(headers)")
    }

    func testStandardInputToStandardOutput() throws {
        let json = #"{"title": "Piped", "elements": [{"type": "paragraph", "text": "From stdin"}]}"#
        let html = try TestSupport.run(folio, ["render", "-", "--format", "html", "--fragment", "-o", "-"], input: Data(json.utf8))
        XCTAssertEqual(html.status, 0, html.stderr)
        XCTAssertTrue(html.text.hasPrefix("<div class=\"folio-embed\""))
        XCTAssertTrue(html.text.contains("<p>From stdin</p>"))
        let pdf = try TestSupport.run(folio, ["render", "-", "-o", "-"], input: Data(json.utf8))
        XCTAssertEqual(pdf.status, 0, pdf.stderr)
        XCTAssertTrue(try TestSupport.pageTexts(pdf.stdout)[0].contains("From stdin"))
    }

    func testBadInputGivesOneLineNamingTheField() throws {
        let cases: [(String, String)] = [
            // FILE:LINE:COLUMN of the field, as editors and CI logs read it.
            (
                #"{"title": "T", "elements": [{"type": "table", "rows": [["a"], ["b"], 7]}]}"#,
                "FILE:1:70: error: elements[0].rows[2]: expected an array of strings"
            ),
            (
                #"{"title": "T", "elements": [{"type": "chart", "categories": ["a"], "series": [{"title": "s", "values": [1, 2]}]}]}"#,
                "FILE:1:94: error: elements[0].series[0].values: has 2 values but the chart has 1 categories"
            ),
            (
                #"{"title": "T", "elements": [{"type": "image", "path": "missing.png"}]}"#,
                #"FILE:1:47: error: elements[0].path: cannot read image file "missing.png""#
            ),
            ("{not json", "FILE:1:2: error: the input is not valid JSON"),
        ]
        let folder = try TestSupport.temporaryDirectory()
        for (json, expected) in cases {
            let input = folder.appendingPathComponent("bad.json")
            try Data(json.utf8).write(to: input)
            let output = folder.appendingPathComponent("bad.pdf")
            let result = try TestSupport.run(folio, ["render", input.path, "-o", output.path])
            XCTAssertEqual(result.status, 1)
            XCTAssertTrue(result.stderr.hasPrefix(expected.replacingOccurrences(of: "FILE", with: input.path)), result.stderr)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "more than one line: \(result.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: output.path), "no output for bad input")
        }
        let unwritable = try TestSupport.run(folio, ["render", sample, "-o", "/nonexistent/out.pdf"])
        XCTAssertEqual(unwritable.status, 1)
        XCTAssertEqual(unwritable.stderr, "folio: error: cannot write /nonexistent/out.pdf: the folder /nonexistent does not exist\n")
        let missing = try TestSupport.run(folio, ["render", "/nonexistent/doc.yaml", "-o", "-"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr, "folio: error: cannot read input \"/nonexistent/doc.yaml\": No such file or directory\n")
    }

    func testArgumentErrorsAndHelp() throws {
        let fragmentPDF = try TestSupport.run(folio, ["render", sample, "--fragment", "-o", "x.pdf"])
        XCTAssertNotEqual(fragmentPDF.status, 0)
        XCTAssertTrue(fragmentPDF.stderr.contains("need HTML output"), fragmentPDF.stderr)
        let help = try TestSupport.run(folio, ["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.text.contains("render"))
        let renderHelp = try TestSupport.run(folio, ["render", "--help"])
        for option in ["--output", "--format", "--fragment", "standard input"] {
            XCTAssertTrue(renderHelp.text.contains(option), "help lacks \(option)")
        }
    }

    func testFilesThatMustBeRegularAreCheckedBeforeAnyBlockingOpen() throws {
        let folder = try TestSupport.temporaryDirectory()
        let fifo = folder.appendingPathComponent("fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let data = try TestSupport.temporaryFile(Data("{\"id\": \"a\"}\n".utf8), name: "d.jsonl")
        let cases: [([String], String)] = [
            (["render", sample, "-o", folder.appendingPathComponent("a.pdf").path, "--theme", fifo], "--theme: cannot read theme"),
            (
                ["render", sample, "-o", folder.appendingPathComponent("a.html").path, "--template", fifo],
                "--template: cannot read template"
            ),
            (["batch", fifo, "--data", data.path, "--out", folder.appendingPathComponent("out").path], "cannot read template"),
            (["serve", "--templates", folder.path, "--template", fifo, "--port", "0"], "--template: cannot read template"),
        ]
        for (arguments, expected) in cases {
            let start = Date()
            let result = try TestSupport.run(folio, arguments)
            XCTAssertLessThan(Date().timeIntervalSince(start), 10, "\(arguments) blocked")
            XCTAssertEqual(result.status, 1, "\(arguments)")
            XCTAssertTrue(result.stderr.contains(expected) && result.stderr.contains("not a regular file"), result.stderr)
        }
    }

    func testAPageTemplateWithASyntaxErrorIsOneLineNamingWhere() throws {
        let shell = try TestSupport.temporaryFile(Data("<html>\n<body>\n{{#report}}{{{report}}}\n</body>".utf8), name: "shell.mustache")
        let out = shell.deletingLastPathComponent().appendingPathComponent("x.html").path
        let result = try TestSupport.run(folio, ["render", sample, "-o", out, "--template", shell.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "folio: error: --template: line 4, column 8: a section is not closed ({{#name}} needs {{/name}})\n")
    }

    func testErrorLinesShowTerminalEscapesInsteadOfActingOnThem() throws {
        // The key holds ESC and U+202E (written as JSON escapes: a raw control character is not JSON).
        let json = #"{"title": "T", "\u001b[2J\u202ebad": 1, "elements": []}"#
        let input = try TestSupport.temporaryFile(Data(json.utf8), name: "escapes.json")
        let result = try TestSupport.run(folio, ["render", input.path, "-o", "-"])
        XCTAssertEqual(result.status, 1)
        XCTAssertFalse(result.stderr.contains("\u{1B}") || result.stderr.contains("\u{202E}"), result.stderr)
        XCTAssertTrue(result.stderr.contains("\\u{1B}[2J\\u{202E}bad"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1)
    }

    func testAnInterruptLeavesNoFileBehind() throws {
        // SIGINT at several moments of a render that takes about a second: each run either finished
        // (status 0, the whole PDF) or says it was interrupted (status 130) and leaves nothing, not
        // even a temporary file.
        let rows = (0..<6000).map { #"["2026-11-\#($0 % 28 + 1)", "Blood pressure", "\#(120 + $0 % 20)/80 mmHg"]"# }
        let json =
            #"{"title": "Long", "elements": [{"type": "table", "header": ["When", "What", "Value"], "rows": ["#
            + rows.joined(separator: ",") + "]}]}"
        let input = try TestSupport.temporaryFile(Data(json.utf8), name: "long.json")
        var interrupted = 0
        for delay in [0.05, 0.2, 0.4, 0.6, 0.8] {
            let folder = try TestSupport.temporaryDirectory()
            let output = folder.appendingPathComponent("long.pdf")
            let render = try RunningFolio(["render", input.path, "-o", output.path])
            let process = render.process
            Thread.sleep(forTimeInterval: delay)
            process.interrupt()
            let message = render.finish()
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            if process.terminationReason == .uncaughtSignal {
                // Interrupted before it could install its handler (a loaded machine): nothing written either.
                XCTAssertEqual(process.terminationStatus, SIGINT)
                XCTAssertEqual(left, [], "a render stopped at its start left files")
            } else if process.terminationStatus == 130 {
                interrupted += 1
                XCTAssertEqual(message, "folio: interrupted\n")
                XCTAssertEqual(left, [], "an interrupted render left files")
            } else {
                XCTAssertEqual(process.terminationStatus, 0, message)
                XCTAssertEqual(left, ["long.pdf"])
                XCTAssertEqual(try TestSupport.run("qpdf", ["--check", output.path]).status, 0)
            }
        }
        XCTAssertGreaterThan(interrupted, 0, "no run was interrupted")
    }

    /// SIGHUP (a closed terminal) ends a render like SIGINT and SIGTERM: status 130 and no file, or a
    /// render that finished; never 129.
    func testAHangupEndsARenderLikeAnInterrupt() throws {
        let rows = (0..<6000).map { #"["2026-11-\#($0 % 28 + 1)", "Blood pressure", "\#(120 + $0 % 20)/80 mmHg"]"# }
        let json =
            #"{"title": "Long", "elements": [{"type": "table", "header": ["When", "What", "Value"], "rows": ["#
            + rows.joined(separator: ",") + "]}]}"
        let input = try TestSupport.temporaryFile(Data(json.utf8), name: "long.json")
        var hungUp = 0
        for delay in [0.2, 0.4, 0.6] {
            let folder = try TestSupport.temporaryDirectory()
            let render = try RunningFolio(["render", input.path, "-o", folder.appendingPathComponent("long.pdf").path])
            Thread.sleep(forTimeInterval: delay)
            kill(render.process.processIdentifier, SIGHUP)
            _ = render.finish()
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            guard render.process.terminationReason == .exit else { continue }  // before its handlers were installed
            XCTAssertNotEqual(render.process.terminationStatus, 129)
            if render.process.terminationStatus == 130 {
                hungUp += 1
                XCTAssertEqual(left, [], "a render ended by SIGHUP left files")
            } else {
                XCTAssertEqual(render.process.terminationStatus, 0)
            }
        }
        XCTAssertGreaterThan(hungUp, 0, "no run was ended by SIGHUP")
    }

    /// `{date}` and the PDF's dates come from SOURCE_DATE_EPOCH when it is set; one that is not whole
    /// seconds of a year from 1 to 9999 is an error naming it.
    func testDatesComeFromSourceDateEpochWithinRange() throws {
        let folder = try TestSupport.temporaryDirectory()
        let input = folder.appendingPathComponent("dated.yaml")
        try Data("title: Dated\nfooter: \"Printed {date}\"\nelements: [{type: paragraph, text: Hello}]\n".utf8).write(to: input)
        let output = folder.appendingPathComponent("dated.pdf")
        var environment = ProcessInfo.processInfo.environment
        environment["SOURCE_DATE_EPOCH"] = "1763280000"
        let rendered = try TestSupport.run(folio, ["render", input.path, "-o", output.path], environment: environment)
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        let text = try TestSupport.pdfText(try Data(contentsOf: output))
        XCTAssertTrue(text.contains("Printed Nov 16, 2025"), text)
        XCTAssertEqual(try TestSupport.pdfInfo(try Data(contentsOf: output))["CreationDate"]?.contains("2025"), true)
        for bad in ["-62135596801", "253402300800", "1e9", "12.5", "now", "99999999999999999999999"] {
            environment["SOURCE_DATE_EPOCH"] = bad
            let refused = try TestSupport.run(folio, ["render", input.path, "-o", output.path], environment: environment)
            XCTAssertEqual(refused.status, 1, bad)
            XCTAssertTrue(refused.stderr.hasPrefix("folio: error: SOURCE_DATE_EPOCH: expected whole seconds"), refused.stderr)
        }
        environment["SOURCE_DATE_EPOCH"] = "253402300799"
        XCTAssertEqual(try TestSupport.run(folio, ["render", input.path, "-o", output.path], environment: environment).status, 0)
        XCTAssertEqual(try TestSupport.run("qpdf", ["--check", output.path]).status, 0, "the year 9999 is a valid PDF date")
    }

    /// A page shell nested past the limit is refused before any parser sees it: `folio render` and
    /// `folio serve` (before it binds its port) exit 1 with a line naming --template.
    func testADeeplyNestedPageShellIsRefusedNamingTheOption() throws {
        let shell = try TestSupport.temporaryFile(
            // 100,000 levels (600 KB, within the 1 MB a page shell may have); its closing tags would not fit.
            Data((String(repeating: "{{#a}}", count: 100_000) + "{{{report}}}").utf8),
            name: "deep.mustache")
        let sample = TestSupport.samples.appendingPathComponent("weekly-summary.yaml").path
        let render = try TestSupport.run(folio, ["render", sample, "--template", shell.path, "-o", "-", "--format", "html"])
        XCTAssertEqual(render.status, 1)
        XCTAssertTrue(render.stderr.hasPrefix("folio: error: --template: line 1, column "), render.stderr)
        let serve = try TestSupport.run(folio, ["serve", "--port", "0", "--template", shell.path])
        XCTAssertEqual(serve.status, 1)
        XCTAssertTrue(serve.stderr.contains("--template: line 1, column "), serve.stderr)
        XCTAssertFalse(serve.stderr.contains("listening"), serve.stderr)
    }
}
