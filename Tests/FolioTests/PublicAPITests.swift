import Foundation
import XCTest

/// The public API is what users need, each declaration documented: checked on the sources,
/// so a new `public` without a `///` summary, or internal machinery made public, fails CI.
final class PublicAPITests: XCTestCase {
    /// Every Swift file under Sources, with its lines.
    private func sourceFiles() throws -> [(path: String, lines: [Substring])] {
        let sources = TestSupport.root.appendingPathComponent("Sources")
        guard let walker = FileManager.default.enumerator(atPath: sources.path) else { throw FixtureError("no Sources folder") }
        var files: [(String, [Substring])] = []
        for case let relative as String in walker where relative.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(relative), encoding: .utf8)
            files.append((relative, text.split(separator: "\n", omittingEmptySubsequences: false)))
        }
        return files
    }

    /// Whether `line` declares something `public` or `open` (after any attributes).
    private func isPublicDeclaration(_ line: Substring) -> Bool {
        var words = line.split(separator: " ")[...]
        while let first = words.first, first.hasPrefix("@") { words = words.dropFirst() }
        return words.first == "public" || words.first == "open"
    }

    /// Whether `line` holds `name` as a whole word (`struct HTML`, not `struct HTMLRenderer`).
    private func declares(_ line: Substring, _ name: String) -> Bool {
        guard let range = line.range(of: name) else { return false }
        guard let next = line[range.upperBound...].first else { return true }
        return !(next.isLetter || next.isNumber || next == "_")
    }

    func testEveryPublicDeclarationHasASummary() throws {
        var undocumented: [String] = []
        var count = 0
        for (path, lines) in try sourceFiles() {
            for (index, line) in lines.enumerated() where isPublicDeclaration(line) {
                count += 1
                var previous = index - 1
                while previous >= 0, lines[previous].trimmingCharacters(in: .whitespaces).hasPrefix("@") { previous -= 1 }
                if previous < 0 || !lines[previous].trimmingCharacters(in: .whitespaces).hasPrefix("///") {
                    undocumented.append("\(path):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        XCTAssertGreaterThan(count, 100, "the scan found the public declarations")
        XCTAssertEqual(undocumented, [], "public declarations without a /// summary")
    }

    func testInternalMachineryIsNotPublic() throws {
        // Parsers, readers, layout helpers and writers are `package`: the tests, the command and
        // the server see them; a program that imports Folio does not.
        let machinery = [
            "struct JSONTreeParser", "enum TreeValue", "enum YAMLTree", "final class RecordReader", "enum SHA256Digest",
            "struct NiceScale", "enum ImageLoader", "enum BoundedFile", "static func slots", "protocol Canvas",
            "struct Drawing", "struct ChartRenderer", "struct HTML", "struct CSS", "final class PangoTextEngine",
            "final class CairoCanvas", "enum AtomicFile", "enum ISODate", "struct NumberFormat",
        ]
        var exposed: [String] = []
        for (path, lines) in try sourceFiles() {
            for line in lines where isPublicDeclaration(line) {
                for name in machinery where declares(line, name) {
                    exposed.append("\(path): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        XCTAssertEqual(exposed, [])
    }
}
