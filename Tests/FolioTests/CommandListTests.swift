import Foundation
import XCTest

/// The docs name every command `folio --help` lists (#56): docs/design.md's entry for the
/// command line and docs/command-line.md, which has a section for each.
final class CommandListTests: XCTestCase {
    /// The subcommands `folio --help` lists, in its order.
    private func subcommands() throws -> [String] {
        let help = try TestSupport.run(TestSupport.folioBinary.path, ["--help"]).text
        guard let start = help.range(of: "SUBCOMMANDS:\n") else { throw FixtureError("folio --help lists no subcommands: \(help)") }
        return help[start.upperBound...].split(separator: "\n").compactMap { line in
            // A command's line starts with two spaces and its name; a wrapped description has more.
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first else { return nil }
            return String(name)
        }.filter { $0 != "See" }
    }

    func testTheDesignAndTheCommandLineGuideNameEveryCommand() throws {
        let commands = try subcommands()
        XCTAssertGreaterThanOrEqual(commands.count, 7, "the help was read: \(commands)")
        let design = try String(contentsOf: TestSupport.root.appendingPathComponent("docs/design.md"), encoding: .utf8)
        let entry = try XCTUnwrap(design.firstMatch(of: #/\nfolio {10}[^\n]*(?:\n {15}[^\n]*)*/#), "docs/design.md has no folio entry")
        let guide = try String(contentsOf: TestSupport.root.appendingPathComponent("docs/command-line.md"), encoding: .utf8)
        for command in commands {
            XCTAssertTrue(String(entry.output).contains(command), "docs/design.md's folio entry does not name \(command)")
            XCTAssertTrue(guide.contains("folio \(command)"), "docs/command-line.md does not show folio \(command)")
        }
    }
}
