import Foundation

/// How numbers on an axis or a label are printed.
public enum ValueFormat: Sendable, Hashable, Codable {
    /// Plain numbers; nil decimals picks from the values.
    case number(decimals: Int?)
    /// Values as percentages: 0.25 prints as 25 %.
    case percent(decimals: Int)
    /// Values are seconds since 1970 (UTC), printed with a date pattern such as `MMM d` or `HH:mm`.
    case date(pattern: String)
    /// Values are elapsed seconds, printed as `m:ss` or `h:mm:ss`.
    case duration

    /// Decodes `"percent"`, `"duration"`, `"date"`, `"date:MMM d"`, `"time"`, `"0.0"` (two decimals: `"0.00"`) or a number of decimals.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let decimals = try? container.decode(Int.self) {
            self = .number(decimals: decimals)
            return
        }
        let text = try container.decode(String.self)
        if let format = ValueFormat(parsing: text) {
            self = format
        } else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription:
                    "unknown format \"\(text)\"; use a number of decimals, \"0.0\", \"percent\", \"date\", \"date:PATTERN\", \"time\" or \"duration\""
            )
        }
    }

    /// Parses the textual forms accepted in documents.
    public init?(parsing text: String) {
        switch text {
        case "percent", "%": self = .percent(decimals: 0)
        case "duration": self = .duration
        case "date": self = .date(pattern: "MMM d")
        case "time": self = .date(pattern: "HH:mm")
        case "datetime": self = .date(pattern: "MMM d HH:mm")
        default:
            if text.hasPrefix("date:") {
                self = .date(pattern: String(text.dropFirst(5)))
            } else if text.hasPrefix("percent:"), let decimals = Int(text.dropFirst(8)) {
                self = .percent(decimals: decimals)
            } else if text.allSatisfy({ "0.#".contains($0) }), !text.isEmpty {
                self = .number(decimals: text.split(separator: ".").dropFirst().first?.count ?? 0)
            } else {
                return nil
            }
        }
    }

    /// Encodes the value as a document writes it.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let decimals): try container.encode(decimals.map { $0 == 0 ? "0" : "0." + String(repeating: "0", count: $0) } ?? "0.#")
        case .percent(let decimals): try container.encode("percent:\(decimals)")
        case .date(let pattern): try container.encode("date:\(pattern)")
        case .duration: try container.encode("duration")
        }
    }
}
