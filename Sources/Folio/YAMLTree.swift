import Foundation
import Yams

/// Turns a YAML document into a `TreeValue` with YAML 1.2 core-schema scalars:
/// quoted text stays text; plain `true`/`false`, `null`/`~`, numbers and
/// `.nan`/`.inf` are typed. Decoding that tree through JSON is several times
/// faster than decoding YAML nodes directly, and gives the same field paths.
package enum YAMLTree {
    /// Parses YAML text into a tree; syntax errors name the line. Nesting deeper than
    /// `InputLimits.nestingDepth`, aliases that expand past `InputLimits.treeValues`
    /// values and keys that appear twice in one mapping are errors.
    package static func parse(_ text: String) throws -> TreeValue {
        try checkNesting(text)
        // `.basic` resolves no scalar: `plain(_:)` types them. Yams' default resolver would
        // compile seven ICU regular expressions on first use (9 M instructions, a third of a
        // cold start's YAML cost), only for their answers to go unread.
        let composed: Node?
        do {
            composed = try Yams.compose(yaml: text, .basic)
        } catch let error as YamlError {
            throw FolioError(path: "", "the input is not valid YAML: \(syntaxMessage(error))")
        }
        guard let node = composed else { return .null }
        // Without aliases a tree has fewer values than its text has bytes; aliases may repeat a little.
        let limit = min(InputLimits.treeValues, 16 * text.utf8.count + 10_000)
        var budget = limit
        do {
            return try value(node, depth: 0, budget: &budget)
        } catch is BudgetExceeded {
            throw FolioError(path: "", "YAML aliases expand the input to more than \(limit) values (16 per byte of input at most)")
        }
    }

    /// The value for `node`; mapping keys become strings, in order.
    static func value(_ node: Node, depth: Int, budget: inout Int) throws -> TreeValue {
        guard depth < InputLimits.nestingDepth else {
            throw FolioError(path: "", "the input is nested more than \(InputLimits.nestingDepth) levels deep\(line(node))")
        }
        budget -= 1
        guard budget >= 0 else { throw BudgetExceeded() }
        switch node {
        case .scalar(let scalar):
            return scalar.style == .plain ? plain(scalar.string) : .string(scalar.string)
        case .sequence(let sequence):
            var items: [TreeValue] = []
            items.reserveCapacity(sequence.count)
            for item in sequence { items.append(try value(item, depth: depth + 1, budget: &budget)) }
            return .array(items)
        case .mapping(let mapping):
            var members: [(key: String, value: TreeValue)] = []
            members.reserveCapacity(mapping.count)
            var keys = Set<String>()
            var merged: [(key: String, value: TreeValue)] = []
            for (key, child) in mapping {
                let name = key.string ?? ""
                if name == "<<", case .scalar(let scalar) = key, scalar.style == .plain {
                    // A merge key: the members of the aliased mapping(s), unless given here.
                    switch try value(child, depth: depth + 1, budget: &budget) {
                    case .object(let inherited): merged += inherited
                    case .array(let list):
                        for case .object(let inherited) in list { merged += inherited }
                    default: throw FolioError(path: "", "a << merge key needs a mapping\(line(key))")
                    }
                    continue
                }
                guard keys.insert(name).inserted else {
                    throw FolioError(path: "", "the key \"\(name)\" appears twice in one mapping\(line(key))")
                }
                members.append((name, try value(child, depth: depth + 1, budget: &budget)))
            }
            for member in merged where keys.insert(member.key).inserted { members.append(member) }
            return .object(members)
        @unknown default:
            return .null
        }
    }

    /// A YAML syntax error as one line: where it is (line and column) and what the parser expected,
    /// never the source text around it. Yams' own description quotes the offending line, and a line
    /// of a document may hold a secret (`protection: {userPassword: …}`): an error message reaches
    /// standard error, logs and the service's problem documents.
    static func syntaxMessage(_ error: YamlError) -> String {
        func context(_ context: YamlError.Context?) -> String {
            guard let context else { return "" }
            return " (\(context.text) at line \(context.mark.line), column \(context.mark.column))"
        }
        switch error {
        case .scanner(let found, let problem, let mark, _), .parser(let found, let problem, let mark, _),
            .composer(let found, let problem, let mark, _):
            return "line \(mark.line), column \(mark.column): \(problem)\(context(found))"
        case .reader(let problem, let offset, _, let yaml):
            guard let offset, offset >= 0 else { return problem }
            // The line and column of the byte offset, counted without copying the text.
            var line = 1
            var column = 1
            for (position, byte) in yaml.utf8.enumerated() {
                if position >= offset { break }
                if byte == 0x0A {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1
                }
            }
            return "line \(line), column \(column): \(problem)"
        case .writer(let problem), .emitter(let problem), .representer(let problem): return problem
        case .memory: return "out of memory"
        case .no: return "an unknown error"
        case .dataCouldNotBeDecoded: return "the text is not UTF-8"
        @unknown default: return "a syntax error"
        }
    }

    /// Thrown when alias expansion spends the value budget; `parse` turns it into the message.
    private struct BudgetExceeded: Error {}

    private static func line(_ node: Node) -> String {
        node.mark.map { " (line \($0.line))" } ?? ""
    }

    /// Rejects nesting deeper than the limit before the YAML parser, which recurses once
    /// per level, sees it. A deliberately conservative upper bound that needs no knowledge of
    /// YAML's quoting rules (emulating them let a fuzzed input through): every `[` and `{`
    /// counts, wherever it stands, less every `]` and `}`; plus indentation steps and compact
    /// `- ` / `? ` entries at the start of a line. Only a text with over a hundred more opening
    /// than closing brackets could be refused without being that deep.
    static func checkNesting(_ text: String) throws {
        let limit = InputLimits.nestingDepth * 2
        var flow = 0
        var lineNumber = 1
        var atLineStart = true
        var inPrefix = false
        var indentLevels: [Int] = []
        var column = 0
        var compact = 0
        var previous: UInt8 = 0x0A
        let space: UInt8 = 0x20
        for byte in text.utf8 {
            defer { previous = byte }
            if byte == 0x0A {
                lineNumber += 1
                atLineStart = true
                column = 0
                compact = 0
                continue
            }
            if atLineStart {
                if byte == space {
                    column += 1
                    continue
                }
                atLineStart = false
                inPrefix = true
                if flow == 0 {
                    while let last = indentLevels.last, last >= column { indentLevels.removeLast() }
                    indentLevels.append(column)
                }
            }
            if inPrefix, byte == space, previous == UInt8(ascii: "-") || previous == UInt8(ascii: "?") {
                compact += 1
            } else if inPrefix, byte != space, byte != UInt8(ascii: "-"), byte != UInt8(ascii: "?") {
                inPrefix = false
            }
            if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
                flow += 1
            } else if (byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}")) && flow > 0 {
                flow -= 1
            }
            if flow + indentLevels.count + compact > limit {
                throw FolioError(path: "", "the input is nested more than \(InputLimits.nestingDepth) levels deep (line \(lineNumber))")
            }
        }
    }

    private static func plain(_ text: String) -> TreeValue {
        guard let first = text.utf8.first else { return .null }
        let mayBeNumber =
            first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".")
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
        // Only a number or one of the words below can start otherwise: most plain scalars (words,
        // names) are strings at their first byte, without trying the words.
        guard mayBeNumber || "~nNtTfF".utf8.contains(first) else { return .string(text) }
        switch text {
        case "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        case ".nan", ".NaN", ".NAN": return .number(.nan)
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .number(.infinity)
        case "-.inf", "-.Inf", "-.INF": return .number(-.infinity)
        default: break
        }
        guard mayBeNumber else { return .string(text) }
        // Double reads ASCII only, so a letter in a number it read is an ASCII letter: a hexadecimal
        // "0x1F" or "0x1p3" stays a string (as in YAML 1.2's JSON schema); an exponent ("1e3") is a number.
        if let number = Double(text), number.isFinite,
            !text.utf8.contains(where: { byte in
                let lower = byte | 0x20
                return lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z") && lower != UInt8(ascii: "e")
            })
        {
            return .number(number)
        }
        return .string(text)
    }
}
