import ArgumentParser
import CFolioStartup
import XCTest

@testable import FolioHTML
@testable import folio

/// `folio render`'s fast path (`RenderRequest.commonForm`) accepts only what ArgumentParser accepts,
/// with the same meaning; everything else goes to ArgumentParser.
final class RenderRequestTests: XCTestCase {
    /// Words an invocation is made of: paths, the options the fast path reads, values good and bad,
    /// and options it leaves to ArgumentParser.
    private static let words = [
        "in.yaml", "-", "out.html", "-o", "--output", "--format", "pdf", "html", "png", "docx", "--fragment", "-h", "help", "--",
        "-x", "--output=a.pdf", "-oa.pdf", "--lenient",
    ]

    func testEveryArgumentListUpToFourWordsParsesAsArgumentParserParsesIt() throws {
        var lists: [[String]] = [[]]
        var frontier: [[String]] = [[]]
        for _ in 1...4 {
            frontier = frontier.flatMap { list in Self.words.map { list + [$0] } }
            lists += frontier
        }
        var accepted = 0
        for list in lists {
            guard let fast = RenderRequest.commonForm(list[...]) else { continue }
            accepted += 1
            let parsed: RenderCommand
            do {
                parsed = try RenderCommand.parse(list)
            } catch {
                XCTFail("\(list): the fast path accepts what ArgumentParser rejects: \(RenderCommand.message(for: error))")
                continue
            }
            XCTAssertEqual(fast, parsed.request, "\(list)")
        }
        // The common forms are taken, so the fast path is not dead code.
        XCTAssertGreaterThan(accepted, 100)
    }

    func testTheCommonFormsTakeTheFastPath() {
        XCTAssertEqual(RenderRequest.commonForm(["in.yaml"]), RenderRequest(input: "in.yaml"))
        XCTAssertEqual(
            RenderRequest.commonForm(["--format", "html", "in.yaml", "-o", "out"]),
            RenderRequest(input: "in.yaml", output: "out", format: .html))
        XCTAssertEqual(RenderRequest.commonForm(["-", "--output", "-"]), RenderRequest(input: "-", output: "-"))
        XCTAssertEqual(RenderRequest(input: "in.yaml").outputPath, "in.pdf")
        XCTAssertEqual(RenderRequest(input: "in.yaml", output: "x.HTML").resolvedFormat, .html)
    }

    func testAnythingElseIsLeftToArgumentParser() {
        for list in [
            [], ["-"], ["a.yaml", "b.yaml"], ["in.yaml", "--fragment"], ["in.yaml", "-o"], ["in.yaml", "-o", "a", "-o", "b"],
            ["in.yaml", "--format", "docx"], ["in.yaml", "--format", "pdf", "--format", "pdf"], ["--help"],
            ["in.yaml", "--theme", "t.yaml"], ["in.yaml", "--sign-key", "k.pem"], ["in.yaml", "-o", "-x"],
        ] {
            XCTAssertNil(RenderRequest.commonForm(list[...]), "\(list)")
        }
    }

    /// The start-up constructor that reads the font configuration before `main` knows the command by name.
    func testTheStartupConstructorNamesTheRenderCommand() {
        XCTAssertEqual(FOLIO_RENDER_COMMAND, RenderCommand.configuration.commandName)
    }
}
