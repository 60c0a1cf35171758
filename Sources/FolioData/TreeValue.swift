import FolioModel
import Foundation

/// A JSON-like value with ordered object keys: what templates and data records
/// are made of before they become a `Document`.
package enum TreeValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([TreeValue])
    case object([(key: String, value: TreeValue)])

    /// Whether two trees hold the same values (objects compare in key order).
    package static func == (lhs: TreeValue, rhs: TreeValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b || (a.isNaN && b.isNaN)
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// Hashes the tree consistently with `==`.
    package func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .number(let n): hasher.combine(n)
        case .string(let s): hasher.combine(s)
        case .array(let a): hasher.combine(a)
        case .object(let o):
            for (k, v) in o {
                hasher.combine(k)
                hasher.combine(v)
            }
        }
    }

    /// The member named `key` of an object.
    package subscript(key: String) -> TreeValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The value at a dotted path such as `patient.name` or `stress.2.0`.
    package func value(at path: String) -> TreeValue? {
        // Walked a segment at a time, without splitting the path into new strings: templates look
        // up thousands of paths a document.
        var current = self
        var rest = Substring(path)
        while true {
            let end = rest.utf8.firstIndex(of: UInt8(ascii: ".")) ?? rest.endIndex
            let part = rest[..<end]
            switch current {
            case .object(let members):
                guard let member = members.first(where: { $0.key == part }) else { return nil }
                current = member.value
            case .array(let items):
                guard let index = Int(part), items.indices.contains(index) else { return nil }
                current = items[index]
            default: return nil
            }
            guard end < rest.endIndex else { return current }
            rest = rest[rest.utf8.index(after: end)...]
        }
    }

    /// The kind of value, for error messages.
    package var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// Text for string interpolation: strings as they are, whole numbers without ".0".
    package var text: String {
        switch self {
        case .null: return ""
        case .bool(let b): return String(b)
        case .number(let n): return TreeValue.numberText(n)
        case .string(let s): return s
        case .array(let items): return items.map(\.text).joined(separator: ", ")
        case .object(let members): return members.map { "\($0.key): \($0.value.text)" }.joined(separator: ", ")
        }
    }

    static func numberText(_ n: Double) -> String {
        if n == n.rounded(), abs(n) < 1e15 { return String(n.clampedInt()) }
        return String(n)
    }

    /// Compact JSON text; non-finite numbers become the strings JSONDecoder is told to accept.
    package var json: String {
        var out = ""
        out.reserveCapacity(256)
        write(into: &out)
        return out
    }

    private func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n):
            if n.isNaN {
                out += "\"NaN\""
            } else if n.isInfinite {
                out += n > 0 ? "\"+Infinity\"" : "\"-Infinity\""
            } else {
                out += TreeValue.numberText(n)
            }
        case .string(let s): TreeValue.writeString(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, member) in members.enumerated() {
                if i > 0 { out += "," }
                TreeValue.writeString(member.key, into: &out)
                out += ":"
                member.value.write(into: &out)
            }
            out += "}"
        }
    }

    static func writeString(_ s: String, into out: inout String) {
        out += "\""
        // Runs of characters that need no escape are appended whole (most strings are one run).
        let utf8 = s.utf8
        var runStart = utf8.startIndex
        var position = utf8.startIndex
        while position != utf8.endIndex {
            let byte = utf8[position]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
                position = utf8.index(after: position)
                continue
            }
            out += s[runStart..<position]
            switch byte {
            case UInt8(ascii: "\""): out += "\\\""
            case UInt8(ascii: "\\"): out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            default:
                let hex = String(byte, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
            position = utf8.index(after: position)
            runStart = position
        }
        out += s[runStart..<position]
        out += "\""
    }
}
