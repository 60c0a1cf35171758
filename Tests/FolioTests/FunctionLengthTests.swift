import Foundation
import XCTest

/// No function in Sources runs past 100 lines (#56): a long one is cut along its seams, or says on
/// the line before it why it must be one (a comment holding "one function because"). Swift's
/// functions, initializers, subscripts and computed properties are measured, and C and C++
/// functions defined at the start of a line.
final class FunctionLengthTests: XCTestCase {
    private static let most = 100

    /// A line without its string and character literals and its comment, for counting braces.
    private static func code(_ line: Substring) -> String {
        guard line.contains(where: { $0 == "\"" || $0 == "'" || $0 == "/" }) else { return String(line) }
        var text = String(line)
        text = text.replacing(#/#+"(?:.*?)"#+/#, with: "\"\"")
        text = text.replacing(#/"(?:[^"\\]|\\.)*"/#, with: "\"\"")
        text = text.replacing(#/'(?:[^'\\]|\\.)'/#, with: "''")
        if let comment = text.range(of: "//") { text = String(text[..<comment.lowerBound]) }
        return text
    }

    /// Functions longer than `most` lines in `lines`, as "LINE: declaration (N lines)".
    static func longFunctions(_ lines: [Substring], swift: Bool) -> [String] {
        let swiftDeclaration =
            #/^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|private|fileprivate|internal|static|final|override|mutating|nonisolated|convenience|required)\s+)*(?:func\s+\w+|init[?!]?\s*[(<]|subscript|var\s+\w+\s*:[^=]*\{\s*$)/#
        let cDeclaration = #/^[A-Za-z_][\w:<>,\s\*&]*\b\w+(?:::\w+)?\s*\([^;]*$/#
        var found: [String] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            // A cheap look first: most lines declare nothing.
            let mayDeclare =
                swift
                ? line.contains("func ") || line.contains("init") || line.contains("subscript") || line.contains("var ")
                : line.first.map { $0.isLetter || $0 == "_" } == true && line.contains("(")
            let declares =
                mayDeclare && (swift ? line.firstMatch(of: swiftDeclaration) != nil : line.firstMatch(of: cDeclaration) != nil)
            guard declares else {
                index += 1
                continue
            }
            var depth = 0
            var started = false
            var end = index
            while end < lines.count {
                for character in code(lines[end]) {
                    if character == "{" {
                        depth += 1
                        started = true
                    } else if character == "}" {
                        depth -= 1
                    }
                }
                if started && depth <= 0 { break }
                if !started && end > index + 8 { break }
                end += 1
            }
            let length = end - index + 1
            let reason = index > 0 && lines[index - 1].contains("one function because")
            if started, length > most, !reason {
                found.append("\(index + 1): \(line.trimmingCharacters(in: .whitespaces)) (\(length) lines)")
            }
            index = started && !swift ? end + 1 : index + 1
        }
        return found
    }

    func testNoFunctionRunsPastAHundredLines() throws {
        let sources = TestSupport.root.appendingPathComponent("Sources")
        let files = try XCTUnwrap(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var long: [String] = []
        var measured = 0
        for case let file as URL in files where ["swift", "c", "cc", "hh", "h"].contains(file.pathExtension) {
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            measured += 1
            for function in Self.longFunctions(lines, swift: file.pathExtension == "swift") {
                long.append("\(file.path.replacingOccurrences(of: sources.path + "/", with: "")):\(function)")
            }
        }
        XCTAssertGreaterThan(measured, 300, "the scan read the sources")
        XCTAssertEqual(long, [], "functions longer than \(Self.most) lines")
    }

    func testTheMeasureFindsALongFunction() {
        let body = Array(repeating: "    let x = 1", count: 120).joined(separator: "\n")
        let swift = "struct A {\n    func long() {\n\(body)\n        let s = \"}\"\n    }\n}\n"
        XCTAssertEqual(Self.longFunctions(swift.split(separator: "\n", omittingEmptySubsequences: false), swift: true).count, 1)
        let c = "int long_one(int a) {\n\(body)\n    return 0;\n}\n"
        XCTAssertEqual(Self.longFunctions(c.split(separator: "\n", omittingEmptySubsequences: false), swift: false).count, 1)
        let short = "func short() {\n    let y = 2\n}\n"
        XCTAssertEqual(Self.longFunctions(short.split(separator: "\n", omittingEmptySubsequences: false), swift: true), [])
    }
}
