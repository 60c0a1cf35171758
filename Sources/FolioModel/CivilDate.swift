import Foundation

/// Proleptic Gregorian dates as day numbers (days since 1970-01-01), with `ISODate`'s calendar arithmetic.
package enum CivilDate {
    /// The day number of a date.
    package static func days(year: Int, month: Int, day: Int) -> Int64 {
        Int64(ISODate.daysFromCivil(year: year, month: month, day: day))
    }

    /// The year, month and day of a day number.
    package static func date(_ days: Int64) -> (year: Int, month: Int, day: Int) {
        let (year, month, day) = ISODate.civil(fromDays: Int(clamping: days))
        return (year, month, day)
    }

    /// Days in a month of a year.
    package static func daysInMonth(year: Int, month: Int) -> Int { ISODate.daysIn(month: month, year: year) }

    /// `YYYY-MM-DD` for a day number.
    package static func text(_ days: Int64) -> String { ISODate.format(Double(days) * 86_400) }

    /// A short English label for a chart axis: the weekday and the day of the month, `Mon 9`.
    package static func shortLabel(_ days: Int64) -> String {
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        // 1970-01-01 was a Thursday.
        let weekday = Int(((days % 7) + 7 + 4) % 7)
        return "\(weekdays[weekday]) \(date(days).day)"
    }

    /// The day number of `YYYY-MM-DD`, or nil.
    package static func parse(_ text: String) -> Int64? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), (1...daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        return days(year: year, month: month, day: day)
    }

    package static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
