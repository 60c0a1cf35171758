import Foundation

/// A small JSON parser that keeps object keys in order and reports errors with
/// line and column; records of a batch are parsed with it one at a time.
package struct JSONTreeParser {
    private let bytes: [UInt8]
    private var index = 0

    /// Parses one JSON value from `data`; anything after it but white space is an error.
    package static func parse(_ data: Data) throws -> TreeValue {
        try parse([UInt8](data))
    }

    /// Parses JSON bytes into a tree, keeping key order; errors say where.
    package static func parse(_ bytes: [UInt8]) throws -> TreeValue {
        var parser = JSONTreeParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("unexpected text after the value") }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

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
        return FolioError(path: "", "invalid JSON at line \(line), column \(column): \(message)")
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }

    private mutating func parseValue(depth: Int) throws -> TreeValue {
        guard depth < InputLimits.nestingDepth else { throw error("nested more than \(InputLimits.nestingDepth) levels deep") }
        guard index < bytes.count else { throw error("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
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

    private mutating func parseObject(depth: Int) throws -> TreeValue {
        index += 1
        var members: [(key: String, value: TreeValue)] = []
        // Repeated keys: a scan of the few keys most objects have; a set once an object grows large.
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
            if members.count < 16 {
                repeated = members.contains { $0.key == key }
            } else {
                if keys == nil { keys = Set(members.map(\.key)) }
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
            members.append((key, try parseValue(depth: depth + 1)))
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

    private mutating func parseArray(depth: Int) throws -> TreeValue {
        index += 1
        var items: [TreeValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try parseValue(depth: depth + 1))
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

    private mutating func parseString() throws -> String {
        index += 1
        // Most strings have no escape: made straight from their bytes.
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: bytes[start..<index - 1], as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw error("control character in a string") }
            index += 1
        }
        var buffer = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: buffer, as: UTF8.self)
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
            buffer.append(byte)
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
    package static func plainDecimal(_ text: ArraySlice<UInt8>) -> Double? {
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
