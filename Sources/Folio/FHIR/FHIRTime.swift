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

/// Proleptic Gregorian dates as day numbers (days since 1970-01-01), after Howard Hinnant's algorithms.
enum CivilDate {
    /// The day number of a date.
    static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The year, month and day of a day number.
    static func date(_ days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    /// Days in a month of a year.
    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// `YYYY-MM-DD` for a day number.
    static func text(_ days: Int64) -> String {
        let (year, month, day) = date(days)
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// The day number of `YYYY-MM-DD`, or nil.
    static func parse(_ text: String) -> Int64? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), (1...daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        return days(year: year, month: month, day: day)
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

/// An IANA zone's UTC offsets, looked up once per transition: the local day and the
/// ISO 8601 text (with the zone's offset) of any instant, without calendar work per reading.
struct ZoneClock: Sendable {
    /// The zone's identifier, such as `America/New_York`.
    let identifier: String
    private let zone: TimeZone
    /// Instants (ms) from which an offset (s) holds, ascending; covers `span`.
    private let transitions: [Transition]
    private let span: ClosedRange<Int64>

    private struct Transition: Sendable {
        let start: Int64
        let offset: Int32
    }

    /// The zone named `identifier` (`UTC`, `Europe/Paris`) with its offsets precomputed from `start` to
    /// `end` (ms; lookups outside ask the system), or nil when the system has no such zone.
    init?(identifier: String, from start: Int64, to end: Int64) {
        guard !identifier.isEmpty, identifier.count <= 64, identifier.allSatisfy(\.isASCII),
            let zone = TimeZone(identifier: identifier)
        else { return nil }
        self.identifier = identifier
        self.zone = zone
        var list: [(Int64, Int32)] = []
        var instant = start
        list.append((instant, Int32(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant) / 1000)))))
        while let next = zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: Double(instant) / 1000)),
            next.timeIntervalSince1970 * 1000 < Double(end), list.count < 10_000
        {
            let milliseconds = Int64((next.timeIntervalSince1970 * 1000).rounded())
            guard milliseconds > instant else { break }
            instant = milliseconds
            list.append((instant, Int32(zone.secondsFromGMT(for: next))))
        }
        transitions = list.map { Transition(start: $0.0, offset: $0.1) }
        span = start...max(start, end)
    }

    /// The zone's offset from UTC in seconds at `milliseconds`.
    func offset(at milliseconds: Int64) -> Int {
        guard span.contains(milliseconds), !transitions.isEmpty else {
            return zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
        }
        var low = 0
        var high = transitions.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if transitions[middle].start <= milliseconds { low = middle } else { high = middle - 1 }
        }
        return Int(transitions[low].offset)
    }

    /// The instant whose wall-clock time in this zone is `local` (ms since 1970 as if UTC).
    func instant(ofLocal local: Int64) -> Int64 {
        let guess = local - Int64(offset(at: local)) * 1000
        return local - Int64(offset(at: guess)) * 1000
    }

    /// The local day number of a reading (a date-only reading keeps its date).
    func day(of time: FHIRTime) -> Int64 {
        if time.dateOnly { return time.milliseconds / 86_400_000 }
        let local = time.milliseconds + Int64(offset(at: time.milliseconds)) * 1000
        return local >= 0 ? local / 86_400_000 : (local - 86_399_999) / 86_400_000
    }

    /// ISO 8601 with this zone's offset: `2026-11-09T21:30:00-05:00` (milliseconds when not zero);
    /// a date-only reading is its local midnight.
    func text(of time: FHIRTime) -> String {
        let instant = time.dateOnly ? instant(ofLocal: time.milliseconds) : time.milliseconds
        let offset = self.offset(at: instant)
        let local = instant + Int64(offset) * 1000
        let day = local >= 0 ? local / 86_400_000 : (local - 86_399_999) / 86_400_000
        let inDay = Int(local - day * 86_400_000)
        var text =
            CivilDate.text(day) + "T" + CivilDate.pad(inDay / 3_600_000, 2) + ":" + CivilDate.pad(inDay / 60_000 % 60, 2) + ":"
            + CivilDate.pad(inDay / 1000 % 60, 2)
        if inDay % 1000 != 0 { text += "." + CivilDate.pad(inDay % 1000, 3) }
        let magnitude = abs(offset) / 60
        text += (offset < 0 ? "-" : "+") + CivilDate.pad(magnitude / 60, 2) + ":" + CivilDate.pad(magnitude % 60, 2)
        return text
    }
}
