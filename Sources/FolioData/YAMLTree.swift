import FolioModel
import Foundation

/// Turns a YAML document into a `TreeValue` with YAML 1.2 core-schema scalars:
/// quoted text stays text; plain `true`/`false`, `null`/`~`, numbers and
/// `.nan`/`.inf` are typed. Decoding that tree through JSON is several times
/// faster than decoding YAML nodes directly, and gives the same field paths.
package enum YAMLTree {
    /// Parses YAML text into a tree; syntax errors name the line and column (never the text there).
    /// Nesting deeper than `InputLimits.nestingDepth` (counting the `depth` the document starts at,
    /// the place that includes it), aliases that repeat more than `budget` allows (shared with the
    /// files an input includes) and keys that appear twice in one mapping are errors.
    ///
    /// libyaml's events are read straight into the tree, one value at a time (no YAML node tree
    /// in between, which took several times the text's size: a 40 MB document peaked at 210 MB).
    /// A value an alias repeats is the anchor's, shared, never copied. A spent budget is thrown as
    /// `TreeBudget.Exceeded`, for the caller to say whose budget it was.
    package static func parse(_ text: String, budget: TreeBudget = TreeBudget(), depth: Int = 0) throws -> TreeValue {
        try checkNesting(text, depth: depth)
        var text = text
        return try text.withUTF8 { bytes in try YAMLEventReader(bytes, budget: budget, depth: depth).document() }
    }

    /// Rejects nesting deeper than the limit before the YAML parser, which recurses once
    /// per level, sees it. A deliberately conservative upper bound that needs no knowledge of
    /// YAML's quoting rules (emulating them let a fuzzed input through): every `[` and `{`
    /// counts, wherever it stands, less every `]` and `}`; plus indentation steps and compact
    /// `- ` / `? ` entries at the start of a line. Only a text with over a hundred more opening
    /// than closing brackets could be refused without being that deep.
    static func checkNesting(_ text: String, depth: Int = 0) throws {
        let limit = (InputLimits.nestingDepth - depth) * 2
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

    /// A plain scalar typed as YAML 1.2's core schema types it (null, booleans, numbers), else text.
    static func plain(_ text: String) -> TreeValue {
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
