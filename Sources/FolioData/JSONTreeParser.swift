import FolioModel
import Foundation

/// Which members of a JSON value a parse builds (`JSONTreeParser.parse(_:keeping:)`): the rest is
/// read as closely as a whole parse reads it (every error found where a whole parse finds it) but
/// not kept. `folio batch` reads each record for its file names and id only; its render workers
/// parse the whole record themselves.
package indirect enum JSONProjection: Sendable, Equatable {
    /// The whole value.
    case whole
    /// Of an object, only these members, each as its projection says; any other value whole.
    case members([String: JSONProjection])

    /// The projection keeping the value at each dotted path of `paths` (as `TreeValue.value(at:)`
    /// reads them: a number walks into an array, which is then kept whole); nothing for no paths.
    package init(keeping paths: [String]) {
        var root = JSONProjection.members([:])
        for path in paths { root = root.adding(path.split(separator: ".", omittingEmptySubsequences: false)[...]) }
        self = root
    }

    private func adding(_ keys: ArraySlice<Substring>) -> JSONProjection {
        guard case .members(var members) = self else { return .whole }
        guard let first = keys.first else { return .whole }
        members[String(first)] = (members[String(first)] ?? .members([:])).adding(keys.dropFirst())
        return .members(members)
    }
}

/// A small JSON parser that keeps object keys in order and reports errors with
/// line and column; records of a batch are parsed with it one at a time.
package struct JSONTreeParser {
    /// The text being parsed: borrowed for the parse (`parse` holds its owner), never copied.
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    /// What a parse keeps of the value it is reading.
    private enum Reading {
        /// The whole value.
        case keep
        /// Nothing: the value is checked and passed over (`.null` stands for it).
        case skip
        /// Of an object, the members a projection names.
        case select([String: JSONProjection])
    }

    /// Parses one JSON value from `data`; anything after it but white space is an error. The bytes
    /// are read where they are (a 40 MB document is not copied before it is parsed).
    package static func parse(_ data: Data) throws -> TreeValue {
        try data.withUnsafeBytes { raw in try parse(raw.bindMemory(to: UInt8.self), keeping: .whole) }
    }

    /// Parses one JSON value from `data` as a file included `depth` levels deep: its nesting counts
    /// from there.
    package static func parse(_ data: Data, depth: Int) throws -> TreeValue {
        try data.withUnsafeBytes { raw in try parse(raw.bindMemory(to: UInt8.self), keeping: .whole, depth: depth) }
    }

    /// Parses JSON bytes into a tree, keeping key order (and of the value, what `projection` keeps);
    /// errors say where, the same whatever is kept. A UTF-8 byte order mark before the value is
    /// passed over (RFC 8259, 8.1: a parser may ignore one; Windows tools write it).
    package static func parse(_ bytes: [UInt8], keeping projection: JSONProjection = .whole) throws -> TreeValue {
        try bytes.withUnsafeBufferPointer { try parse($0, keeping: projection) }
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, keeping projection: JSONProjection, depth: Int = 0) throws -> TreeValue {
        var parser = JSONTreeParser(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        parser.skipWhitespace()
        let reading: Reading
        switch projection {
        case .whole: reading = .keep
        case .members(let members): reading = .select(members)
        }
        let value = try parser.parseValue(depth: depth, reading: reading)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("unexpected text after the value") }
        return value
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    private func error(_ message: String) -> FolioError {
        var line = 1
        var column = 1
        for byte in bytes[..<min(index, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return FolioError(
            path: "", "invalid JSON at line \(line), column \(column): \(message)", position: SourcePosition(line: line, column: column))
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }

    /// The value at `index`, of which an object keeps what `reading` says (`skipValue` passes over one).
    private mutating func parseValue(depth: Int, reading: Reading = .keep) throws -> TreeValue {
        guard depth < InputLimits.nestingDepth else { throw error("nested more than \(InputLimits.nestingDepth) levels deep") }
        guard index < bytes.count else { throw error("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth, reading: reading)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expect("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expect("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expect("null")
            return .null
        default: return .number(try parseNumber())
        }
    }

    private mutating func expect(_ word: String) throws {
        let utf8 = Array(word.utf8)
        guard index + utf8.count <= bytes.count, Array(bytes[index..<index + utf8.count]) == utf8 else {
            throw error("expected \(word)")
        }
        index += utf8.count
    }

    private mutating func parseObject(depth: Int, reading: Reading = .keep) throws -> TreeValue {
        index += 1
        var members: [(key: String, value: TreeValue)] = []
        // Repeated keys, kept or not: a scan of the few keys most objects have; a set once an object grows large.
        var names: [String] = []
        var keys: Set<String>?
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key in quotes") }
            let keyStart = index
            let key = try parseString()
            let repeated: Bool
            if names.count < 16 {
                repeated = names.contains(key)
                names.append(key)
            } else {
                if keys == nil { keys = Set(names) }
                repeated = keys?.insert(key).inserted == false
            }
            guard !repeated else {
                index = keyStart
                throw error("the key \"\(key)\" appears twice in one object")
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            switch reading {
            case .keep: members.append((key, try parseValue(depth: depth + 1)))
            case .skip: _ = try skipValue(depth: depth + 1)
            case .select(let projections):
                switch projections[key] {
                case nil: _ = try skipValue(depth: depth + 1)
                case .whole?: members.append((key, try parseValue(depth: depth + 1)))
                case .members(let inner)?: members.append((key, try parseValue(depth: depth + 1, reading: .select(inner))))
                }
            }
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input in an object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            throw error("expected ',' or '}'")
        }
    }

    /// Checks the value at `index` as a parse reads it and passes over it, keeping nothing: `.null`.
    private mutating func skipValue(depth: Int) throws -> TreeValue {
        guard depth < InputLimits.nestingDepth else { throw error("nested more than \(InputLimits.nestingDepth) levels deep") }
        guard index < bytes.count else { throw error("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): _ = try parseObject(depth: depth, reading: .skip)
        case UInt8(ascii: "["): _ = try parseArray(depth: depth, keep: false)
        case UInt8(ascii: "\""): _ = try parseString(keep: false)
        case UInt8(ascii: "t"): try expect("true")
        case UInt8(ascii: "f"): try expect("false")
        case UInt8(ascii: "n"): try expect("null")
        default: _ = try parseNumber()
        }
        return .null
    }

    private mutating func parseArray(depth: Int, keep: Bool = true) throws -> TreeValue {
        index += 1
        var items: [TreeValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            if keep { items.append(try parseValue(depth: depth + 1)) } else { _ = try skipValue(depth: depth + 1) }
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input in an array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            }
            throw error("expected ',' or ']'")
        }
    }

    /// The string at `index`; with `keep` false it is checked the same way but not made ("").
    private mutating func parseString(keep: Bool = true) throws -> String {
        index += 1
        // Most strings have no escape: made straight from their bytes.
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return keep ? String(decoding: bytes[start..<index - 1], as: UTF8.self) : ""
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw error("control character in a string") }
            index += 1
        }
        var buffer = keep ? Array(bytes[start..<index]) : []
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return keep ? String(decoding: buffer, as: UTF8.self) : ""
            }
            if byte == UInt8(ascii: "\\") {
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    // A surrogate pair makes one character; a lone surrogate becomes U+FFFD.
                    if (0xD800...0xDBFF).contains(scalar), index + 5 < bytes.count,
                        bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                    {
                        let mark = index
                        index += 2
                        let low = try hex4()
                        if (0xDC00...0xDFFF).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            index = mark
                        }
                    }
                    buffer.append(contentsOf: Array(String(Unicode.Scalar(scalar) ?? "\u{FFFD}").utf8))
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escape)
                default:
                    index -= 1
                    throw error("unknown escape \\\(Character(Unicode.Scalar(escape)))")
                }
                continue
            }
            guard byte >= 0x20 else { throw error("control character in a string") }
            if keep { buffer.append(byte) }
            index += 1
        }
        throw error("unterminated string")
    }

    private mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count,
            let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
        else {
            throw error("bad \\u escape")
        }
        index += 4
        return value
    }

    private mutating func parseNumber() throws -> Double {
        let start = index
        while index < bytes.count, Self.isNumberByte(bytes[index]) { index += 1 }
        if let value = JSONTreeParser.plainDecimal(bytes[start..<index]) { return value }
        guard index > start, let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)) else {
            throw error("unexpected character")
        }
        return value
    }

    /// Powers of ten a Double holds exactly, 10⁰ to 10¹⁵.
    private static let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]

    /// The value of `text` when it is a plain decimal (`-12.75`, `140`) of at most 15 digits, else
    /// nil (the caller asks the C library): its digits as an integer divided by a power of ten, both
    /// exact in a Double, so the division's one rounding gives the correctly rounded value, the one
    /// strtod gives (Clinger's fast path), without making a string of every number of a record.
    package static func plainDecimal<Bytes: Collection<UInt8>>(_ text: Bytes) -> Double? where Bytes.Index == Int {
        var position = text.startIndex
        let negative = position < text.endIndex && text[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var sawPoint = false
        while position < text.endIndex {
            let byte = text[position]
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                digits += 1
                guard digits <= 15 else { return nil }
                mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
                if sawPoint { fractionDigits += 1 }
            } else if byte == UInt8(ascii: "."), !sawPoint, digits > 0 {
                sawPoint = true
            } else {
                return nil
            }
            position += 1
        }
        guard digits > 0, !sawPoint || fractionDigits > 0 else { return nil }
        let value = Double(mantissa) / powersOfTen[fractionDigits]
        return negative ? -value : value
    }

    /// Whether `byte` may be part of a JSON number (a digit, a sign, a point or an exponent).
    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "e"),
            UInt8(ascii: "E"):
            return true
        default:
            return false
        }
    }
}
