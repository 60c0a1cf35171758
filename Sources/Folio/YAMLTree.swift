import Foundation
import Yams

/// Turns a YAML document into JSON-compatible Foundation values (dictionaries,
/// arrays, strings, numbers, booleans, `NSNull`) with YAML 1.2 core-schema
/// scalars: quoted text stays text; plain `true`/`false`, `null`/`~`, numbers and
/// `.nan`/`.inf` are typed. Decoding that tree through JSON is several times
/// faster than decoding YAML nodes directly, and gives the same field paths.
enum YAMLTree {
    /// The value for `node`; mapping keys become strings.
    static func value(_ node: Node) -> Any {
        switch node {
        case .scalar(let scalar):
            return scalar.style == .plain ? plain(scalar.string) : scalar.string
        case .sequence(let sequence):
            return sequence.map(value)
        case .mapping(let mapping):
            var object: [String: Any] = [:]
            object.reserveCapacity(mapping.count)
            for (key, item) in mapping { object[key.string ?? ""] = value(item) }
            return object
        @unknown default:
            return NSNull()
        }
    }

    /// Non-finite numbers travel through JSON as these strings.
    static let nan = "NaN", positiveInfinity = "+Infinity", negativeInfinity = "-Infinity"

    private static func plain(_ text: String) -> Any {
        switch text {
        case "", "~", "null", "Null", "NULL": return NSNull()
        case "true", "True", "TRUE": return true
        case "false", "False", "FALSE": return false
        case ".nan", ".NaN", ".NAN": return nan
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return positiveInfinity
        case "-.inf", "-.Inf", "-.INF": return negativeInfinity
        default: break
        }
        guard let first = text.utf8.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+")
                || first == UInt8(ascii: ".") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return text }
        if let integer = Int(text) { return integer }
        if let number = Double(text), number.isFinite, !text.contains(where: { $0.isLetter && $0 != "e" && $0 != "E" }) {
            return number
        }
        return text
    }
}
