import FolioModel
import Foundation

/// A time as the service writes it: ISO 8601 in UTC (`2026-12-03T16:15:06Z`, or with milliseconds
/// for its log), made from the calendar fields `gmtime_r` gives, without a formatter object (making
/// an `ISO8601DateFormatter` for each job status cost more than the rest of the answer).
enum UTCTimestamp {
    /// `seconds` since 1970, to the second (`YYYY-MM-DDTHH:MM:SSZ`); a time that is not finite, or
    /// that `gmtime_r` cannot convert, is written as 1970-01-01T00:00:00Z.
    static func text(_ seconds: Double) -> String {
        format(seconds.isFinite ? Int64(seconds.clampedInt(.down)) : 0, milliseconds: nil)
    }

    /// The time now, to the millisecond (`YYYY-MM-DDTHH:MM:SS.mmmZ`).
    static func now() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return format(Int64(now.tv_sec), milliseconds: now.tv_nsec / 1_000_000)
    }

    private static func format(_ seconds: Int64, milliseconds: Int?) -> String {
        var time = time_t(seconds)
        var parts = tm()
        if gmtime_r(&time, &parts) == nil {
            parts = tm()
            parts.tm_mday = 1
            parts.tm_year = 70
        }
        var text = ""
        text.reserveCapacity(24)
        append(Int(parts.tm_year) + 1900, digits: 4, to: &text)
        for (separator, value) in [
            ("-", parts.tm_mon + 1), ("-", parts.tm_mday), ("T", parts.tm_hour), (":", parts.tm_min), (":", parts.tm_sec),
        ] {
            text.append(separator)
            append(Int(value), digits: 2, to: &text)
        }
        if let milliseconds {
            text.append(".")
            append(min(999, max(0, milliseconds)), digits: 3, to: &text)
        }
        text.append("Z")
        return text
    }

    /// `value` in decimal, zero-padded to `digits` (a year before 1 keeps its sign).
    private static func append(_ value: Int, digits: Int, to text: inout String) {
        if value < 0 { text.append("-") }
        let decimal = String(value.magnitude)
        if decimal.count < digits { text.append(String(repeating: "0", count: digits - decimal.count)) }
        text.append(decimal)
    }
}
