/// Strict ISO 8601 dates and date-times, as data exports write them:
/// `2026-11-14`, `2026-11-14T08:00`, `2026-11-14T08:00:00`, `2026-11-14 08:00:00.250`,
/// each optionally followed by `Z`, `+01:00`, `-0500` or `+01`. A time without a zone is UTC;
/// a date alone is midnight UTC. Anything else (or an impossible date) is not a date.
package enum ISODate {
    /// Seconds since 1970-01-01T00:00:00Z, or nil when `text` is not such a date.
    package static func parse(_ text: String) -> Double? {
        var scanner = Scanner(Array(text.utf8))
        guard let year = scanner.digits(4), scanner.take(UInt8(ascii: "-")), let month = scanner.digits(2),
            scanner.take(UInt8(ascii: "-")), let day = scanner.digits(2),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        var seconds = Double(daysFromCivil(year: year, month: month, day: day)) * 86_400
        if scanner.atEnd { return seconds }
        guard scanner.take(UInt8(ascii: "T")) || scanner.take(UInt8(ascii: "t")) || scanner.take(UInt8(ascii: " ")),
            let hour = scanner.digits(2), scanner.take(UInt8(ascii: ":")), let minute = scanner.digits(2),
            hour <= 24, minute <= 59
        else { return nil }
        var second = 0.0
        if scanner.take(UInt8(ascii: ":")) {
            guard let whole = scanner.digits(2), whole <= 60 else { return nil }
            second = Double(whole)
            if scanner.take(UInt8(ascii: ".")) || scanner.take(UInt8(ascii: ",")) {
                var scale = 0.1
                var any = false
                while let digit = scanner.digit() {
                    second += Double(digit) * scale
                    scale /= 10
                    any = true
                }
                guard any else { return nil }
            }
        }
        if hour == 24, minute != 0 || second != 0 { return nil }
        seconds += Double(hour * 3600 + minute * 60) + second
        if scanner.atEnd { return seconds }
        if scanner.take(UInt8(ascii: "Z")) || scanner.take(UInt8(ascii: "z")) { return scanner.atEnd ? seconds : nil }
        let sign: Double
        if scanner.take(UInt8(ascii: "+")) { sign = 1 } else if scanner.take(UInt8(ascii: "-")) { sign = -1 } else { return nil }
        guard let offsetHours = scanner.digits(2), offsetHours <= 23 else { return nil }
        var offsetMinutes = 0
        if scanner.take(UInt8(ascii: ":")) {
            guard let m = scanner.digits(2) else { return nil }
            offsetMinutes = m
        } else if let m = scanner.digits(2) {
            offsetMinutes = m
        }
        guard offsetMinutes <= 59, scanner.atEnd else { return nil }
        return seconds - sign * Double(offsetHours * 3600 + offsetMinutes * 60)
    }

    /// Whether `text` starts like a date (`YYYY-MM-DD`), so that failing to read it is an error, not a category.
    package static func looksLikeDate(_ text: String) -> Bool {
        let b = Array(text.utf8.prefix(10))
        guard b.count == 10 else { return false }
        for (i, c) in b.enumerated() {
            if i == 4 || i == 7 { if c != UInt8(ascii: "-") { return false } } else if !(48...57).contains(c) { return false }
        }
        return true
    }

    /// `YYYY-MM-DD` for a midnight, else `YYYY-MM-DDTHH:MM:SSZ` (with milliseconds when there are any).
    package static func format(_ seconds: Double) -> String {
        let (date, millis) = split(seconds)
        if seconds == (seconds / 86_400).rounded(.down) * 86_400 { return date }
        let ms = millis % 1000
        let fraction = ms == 0 ? "" : "." + String(1000 + ms).dropFirst()
        return "\(date)T\(time(millis))\(fraction)Z"
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` in whole seconds, midnight included: the form PDF metadata and XMP use.
    package static func dateTime(_ seconds: Double) -> String {
        let (date, millis) = split(seconds)
        return "\(date)T\(time(millis))Z"
    }

    /// The `YYYY-MM-DD` day of `seconds` and the milliseconds since its midnight.
    private static func split(_ seconds: Double) -> (date: String, millis: Int) {
        let days = (seconds / 86_400).rounded(.down)
        let (y, m, d) = civil(fromDays: days.clampedInt())
        return ("\(String(format4: y))-\(two(m))-\(two(d))", ((seconds - days * 86_400) * 1000).clampedInt())
    }

    /// `HH:MM:SS` of a time of day in milliseconds.
    private static func time(_ millis: Int) -> String {
        "\(two(millis / 3_600_000)):\(two(millis / 60_000 % 60)):\(two(millis / 1000 % 60))"
    }

    private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// Days in a month of a year (Gregorian leap years).
    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    package static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The year, month and day of a number of days since 1970-01-01 (Howard Hinnant's algorithm).
    package static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp + (mp < 10 ? 3 : -9)
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        var atEnd: Bool { index == bytes.count }
        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        mutating func digit() -> Int? {
            guard index < bytes.count, (48...57).contains(bytes[index]) else { return nil }
            index += 1
            return Int(bytes[index - 1] - 48)
        }
        mutating func digits(_ count: Int) -> Int? {
            var value = 0
            for _ in 0..<count {
                guard let d = digit() else { return nil }
                value = value * 10 + d
            }
            return value
        }
    }
}

extension String {
    fileprivate init(format4 n: Int) {
        let digits = String(abs(n))
        self = (n < 0 ? "-" : "") + String(repeating: "0", count: Swift.max(0, 4 - digits.count)) + digits
    }
}
