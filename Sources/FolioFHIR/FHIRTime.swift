import FolioModel
import Foundation

/// When a FHIR reading was taken: an instant (milliseconds since 1970 UTC), or a calendar date
/// without a time, which belongs to that date in the report's zone.
struct FHIRTime: Sendable, Hashable {
    /// Milliseconds since 1970-01-01T00:00:00Z; for a date, its midnight in UTC.
    let milliseconds: Int64
    /// Whether only the date is known (`2026-11-10`).
    let dateOnly: Bool

    /// Parses a FHIR `dateTime` or `instant`: `2026-11-10`, `2026-11-10T02:30:00Z`,
    /// `2026-11-09T21:30:00.250-05:00`. A time without an offset is read in `zone`. Nil for
    /// text that is not one, or only a year or a month (too coarse to place on a day).
    static func parse(_ text: String, zone: ZoneClock) -> FHIRTime? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + digits] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += digits
            return value
        }
        func skip(_ character: Character) -> Bool {
            guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
            index += 1
            return true
        }
        guard let year = number(4), skip("-"), let month = number(2), skip("-"), let day = number(2),
            (1...12).contains(month), (1...CivilDate.daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        let days = CivilDate.days(year: year, month: month, day: day)
        if index == bytes.count { return FHIRTime(milliseconds: days * 86_400_000, dateOnly: true) }
        guard skip("T"), let hour = number(2), hour < 24, skip(":"), let minute = number(2), minute < 60 else { return nil }
        var millisecond = 0
        var second = 0
        if skip(":") {
            guard let whole = number(2), whole <= 60 else { return nil }
            second = min(whole, 59)
            if skip(".") {
                var scale = 100
                var digits = 0
                while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                    millisecond += Int(bytes[index] - 0x30) * scale
                    scale /= 10
                    digits += 1
                    index += 1
                }
                guard digits > 0, digits <= 9 else { return nil }
            }
        }
        let local = ((days * 24 + Int64(hour)) * 60 + Int64(minute)) * 60_000 + Int64(second * 1000 + millisecond)
        if index == bytes.count {
            // No offset (not valid FHIR, but common): the time is the report zone's wall-clock time.
            return FHIRTime(milliseconds: zone.instant(ofLocal: local), dateOnly: false)
        }
        if skip("Z"), index == bytes.count { return FHIRTime(milliseconds: local, dateOnly: false) }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") else { return nil }
        let sign: Int64 = bytes[index] == UInt8(ascii: "-") ? -1 : 1
        index += 1
        guard let offsetHours = number(2), offsetHours <= 14, skip(":"), let offsetMinutes = number(2), offsetMinutes < 60,
            index == bytes.count
        else { return nil }
        return FHIRTime(milliseconds: local - sign * Int64(offsetHours * 60 + offsetMinutes) * 60_000, dateOnly: false)
    }
}
