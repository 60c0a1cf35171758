import FolioModel
import Foundation

/// Formats chart numbers without locale surprises: fixed decimals, percentages, dates, durations.
public enum NumberFormat {
    /// `value` with `decimals` digits after the point; `-0` prints as `0`.
    public static func string(_ value: Double, decimals: Int) -> String {
        let text = String(format: "%.\(max(0, min(decimals, 6)))f", value)
        if text.hasPrefix("-"), Double(text) == 0 { return String(text.dropFirst()) }
        return text
    }

    /// 0 when every value is whole, else 1.
    public static func decimals(for values: [Double]) -> Int {
        values.allSatisfy { $0 == $0.rounded() } ? 0 : 1
    }

    /// `value` printed as `format` says; plain numbers use `fallbackDecimals` when the format names none.
    public static func string(_ value: Double, format: ValueFormat?, fallbackDecimals: Int) -> String {
        switch format {
        case nil, .number(nil)?: return string(value, decimals: fallbackDecimals)
        case .number(let decimals?)?: return string(value, decimals: decimals)
        case .percent(let decimals)?: return string(value * 100, decimals: decimals) + "%"
        case .date(let pattern)?: return dateString(value, pattern: pattern)
        case .duration?: return duration(value)
        }
    }

    /// `m:ss`, or `h:mm:ss` from an hour.
    public static func duration(_ seconds: Double) -> String {
        let total = seconds.clampedInt()
        let sign = total < 0 ? "-" : ""
        let s = abs(total)
        let pad = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
        return s >= 3600 ? "\(sign)\(s / 3600):\(pad(s / 60 % 60)):\(pad(s % 60))" : "\(sign)\(s / 60):\(pad(s % 60))"
    }

    private static let formatterLock = NSLock()
    nonisolated(unsafe) private static var formatters: [String: DateFormatter] = [:]

    /// Seconds since 1970 printed in UTC with a `DateFormatter` pattern, in English.
    public static func dateString(_ seconds: Double, pattern: String) -> String {
        formatterLock.lock()
        defer { formatterLock.unlock() }
        let formatter: DateFormatter
        if let cached = formatters[pattern] {
            formatter = cached
        } else {
            formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = pattern
            formatters[pattern] = formatter
        }
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }
}
