import Foundation
import Yams

/// Turns a YAML document into a `TreeValue` with YAML 1.2 core-schema scalars:
/// quoted text stays text; plain `true`/`false`, `null`/`~`, numbers and
/// `.nan`/`.inf` are typed. Decoding that tree through JSON is several times
/// faster than decoding YAML nodes directly, and gives the same field paths.
public enum YAMLTree {
    /// Parses YAML text into a tree; syntax errors name the line.
    public static func parse(_ text: String) throws -> TreeValue {
        guard let node = try Yams.compose(yaml: text) else { return .null }
        return value(node)
    }

    /// The value for `node`; mapping keys become strings, in order.
    static func value(_ node: Node) -> TreeValue {
        switch node {
        case .scalar(let scalar):
            return scalar.style == .plain ? plain(scalar.string) : .string(scalar.string)
        case .sequence(let sequence):
            return .array(sequence.map(value))
        case .mapping(let mapping):
            return .object(mapping.map { (key: $0.key.string ?? "", value: value($0.value)) })
        @unknown default:
            return .null
        }
    }


    private static func plain(_ text: String) -> TreeValue {
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        case ".nan", ".NaN", ".NAN": return .number(.nan)
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .number(.infinity)
        case "-.inf", "-.Inf", "-.INF": return .number(-.infinity)
        default: break
        }
        guard let first = text.utf8.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+")
                || first == UInt8(ascii: ".") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return .string(text) }
        if let number = Double(text), number.isFinite, !text.contains(where: { $0.isLetter && $0 != "e" && $0 != "E" }) {
            return .number(number)
        }
        return .string(text)
    }
}
