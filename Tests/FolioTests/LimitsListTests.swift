import Foundation
import XCTest

/// docs/errors-and-limits.md names every type that holds an input bound of its own (a
/// `static let maximum…` or `most…` whole number outside `InputLimits`; a type is named by its
/// file, one main type per file), so a reader looking for a limit knows every place to look (#56).
final class LimitsListTests: XCTestCase {
    func testTheLimitsPageNamesEveryTypeHoldingABound() throws {
        let sources = TestSupport.root.appendingPathComponent("Sources")
        let files = try XCTUnwrap(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var holders: [String: String] = [:]
        let bound = #/static let (?:maximum|most|limit)\w* = [0-9][0-9_ *]*$/#
        for case let file as URL in files where file.pathExtension == "swift" && file.lastPathComponent != "InputLimits.swift" {
            let type = String(file.deletingPathExtension().lastPathComponent.prefix(while: { $0 != "+" }))
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") where line.firstMatch(of: bound) != nil {
                holders[type] = "\(file.lastPathComponent): \(line.trimmingCharacters(in: .whitespaces))"
            }
        }
        XCTAssertGreaterThan(holders.count, 10, "the scan found the bounds: \(holders)")
        let page = try String(contentsOf: TestSupport.root.appendingPathComponent("docs/errors-and-limits.md"), encoding: .utf8)
        let introduction = String(page.prefix(while: { $0 != "|" }))
        for (type, line) in holders.sorted(by: { $0.key < $1.key }) {
            XCTAssertTrue(
                introduction.contains("`\(type)`"), "docs/errors-and-limits.md does not name \(type), which holds a bound (\(line))")
        }
    }
}
