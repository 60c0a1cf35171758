import Folio
import Foundation
import Logging

/// A swift-log handler that writes one JSON object per line to standard error:
/// `{"time":"…","level":"info","message":"request","id":"…","route":"/v1/render","status":200,"bytes":5120,"ms":12.3}`.
/// Metadata keys become fields; numbers stay numbers.
package struct JSONLogHandler: LogHandler {
    /// The handler's own metadata, added to every line.
    package var metadata: Logger.Metadata = [:]
    /// Lines below this level are dropped.
    package var logLevel: Logger.Level
    private let label: String

    /// A handler for the logger `label`, writing lines at `level` and above.
    package init(label: String, level: Logger.Level = .info) {
        self.label = label
        self.logLevel = level
    }

    /// One metadata value by key.
    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes one line.
    package func log(event: LogEvent) {
        let level = event.level
        let message = event.message
        var fields = self.metadata
        if let explicit = event.metadata { fields.merge(explicit) { $1 } }
        if let error = event.error { fields["error"] = .string(String(describing: error)) }
        var text = "{\"time\":\(JSONLogHandler.quoted(UTCTimestamp.now())),\"level\":\"\(level.rawValue)\""
        text += ",\"message\":\(JSONLogHandler.quoted(message.description))"
        for key in fields.keys.sorted() {
            guard let value = fields[key] else { continue }
            text += ",\(JSONLogHandler.quoted(key)):\(JSONLogHandler.json(value))"
        }
        text += "}\n"
        JSONLogHandler.write(text)
    }

    /// Held while a line is written, so lines from several threads never interleave.
    private static let output = Locked(())

    private static func write(_ text: String) {
        output.withLock { _ in writeLocked(text) }
    }

    private static func writeLocked(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Foundation.write(2, base + offset, raw.count - offset)
            }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }

    private static func json(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let text): return quoted(text)
        case .stringConvertible(let convertible):
            if let number = convertible as? Int { return String(number) }
            if let number = convertible as? Double, number.isFinite { return String(format: "%.3f", number) }
            if let flag = convertible as? Bool { return flag ? "true" : "false" }
            return quoted(convertible.description)
        case .array(let values): return "[" + values.map(json).joined(separator: ",") + "]"
        case .dictionary(let entries):
            return "{" + entries.keys.sorted().map { "\(quoted($0)):\(json(entries[$0] ?? .string("")))" }.joined(separator: ",") + "}"
        }
    }

    /// `text` as a JSON string: quotes, backslashes and control characters escaped.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    result += String(format: "\\u%04x", scalar.value)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
