import FolioModel
import Foundation
import Synchronization

/// Formats chart numbers for one language: fixed decimals with its decimal separator,
/// percentages, dates with its month names, durations. Values are written without grouping
/// separators (a value reads the same in every table and label); an axis whose ticks reach
/// 10,000 groups their digits (`grouped`).
package struct NumberFormat: Sendable {
    /// The character between whole and fractional digits.
    package let decimalSeparator: String
    /// The locale dates are written in.
    package let localeIdentifier: String
    /// The mark between groups of three digits.
    package let groupingSeparator: String

    /// Numbers as `strings`' language writes them.
    package init(_ strings: BuiltInStrings) {
        decimalSeparator = strings.decimalSeparator
        localeIdentifier = strings.localeIdentifier
        groupingSeparator = strings.groupingSeparator
    }

    /// English: a decimal point, English month names.
    package static let english = NumberFormat(.english)

    /// `value`'s digits with `separator` between every three from the right ("55,037"), as a
    /// template's `thousands` filter writes them; no locale data is read.
    package static func groupingThousands(_ value: Int, separator: String) -> String {
        let digits = String(value.magnitude)
        var grouped = value < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped += separator }
            grouped.append(digit)
        }
        return grouped
    }

    /// `text` (a number this format wrote) with the digits of its whole part grouped by three:
    /// `1000000` → `1,000,000`, `2000` → `2,000`, `-12345,5` → `-12.345,5` in German.
    package func grouped(_ text: String) -> String {
        let whole = text.split(separator: decimalSeparator.first ?? ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let integer = whole.first, integer.count > 3 || (integer.first == "-" && integer.count > 4),
            integer.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-") })
        else { return text }
        let negative = integer.first == "-"
        let digits = negative ? integer.dropFirst() : integer[...]
        var result = negative ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result += groupingSeparator }
            result.append(digit)
        }
        return whole.count > 1 ? result + decimalSeparator + whole[1] : result
    }

    /// `value` with `decimals` digits after the separator; `-0` prints as `0`.
    package func string(_ value: Double, decimals: Int) -> String {
        var text = DecimalText.fixed(value, decimals: min(decimals, 6))
        if text.hasPrefix("-"), Double(text) == 0 { text.removeFirst() }
        return decimalSeparator == "." ? text : text.replacingOccurrences(of: ".", with: decimalSeparator)
    }

    /// 0 when every value is whole, else 1.
    package static func decimals(for values: [Double]) -> Int {
        values.allSatisfy { $0 == $0.rounded() } ? 0 : 1
    }

    /// `value` printed as `format` says; plain numbers use `fallbackDecimals` when the format names none.
    package func string(_ value: Double, format: ValueFormat?, fallbackDecimals: Int) -> String {
        switch format {
        case nil, .number(nil)?: return string(value, decimals: fallbackDecimals)
        case .number(let decimals?)?: return string(value, decimals: decimals)
        case .percent(let decimals)?: return string(value * 100, decimals: decimals) + "%"
        case .date(let pattern)?: return dateString(value, pattern: pattern)
        case .duration?: return NumberFormat.duration(value)
        }
    }

    /// `m:ss`, or `h:mm:ss` from an hour.
    package static func duration(_ seconds: Double) -> String {
        let total = seconds.clampedInt()
        let sign = total < 0 ? "-" : ""
        let s = abs(total)
        let pad = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
        return s >= 3600 ? "\(sign)\(s / 3600):\(pad(s / 60 % 60)):\(pad(s % 60))" : "\(sign)\(s / 60):\(pad(s % 60))"
    }

    /// The decimals a number needs to be shown as written, up to 6 (`5.25` → 2).
    package static func decimalsShown(_ value: Double) -> Int {
        for decimals in 0...6 {
            let scale = pow(10, Double(decimals))
            if (value * scale).rounded() == value * scale { return decimals }
        }
        return 6
    }

    /// Date patterns by locale and skeleton, used under the lock.
    private static let patterns = Mutex<[String: String]>([:])

    /// The language's pattern for a skeleton of fields (`yMMMd`: "MMM d, y" in English, "d MMM y"
    /// in French), as its locale orders and punctuates them.
    package func datePattern(skeleton: String) -> String {
        let key = localeIdentifier + "\u{0}" + skeleton
        if let known = NumberFormat.patterns.withLock({ $0[key] }) { return known }
        let pattern = DateFormatter.dateFormat(fromTemplate: skeleton, options: 0, locale: Locale(identifier: localeIdentifier)) ?? skeleton
        NumberFormat.patterns.withLock { patterns in
            if patterns.count >= 64 { patterns.removeAll() }
            patterns[key] = pattern
        }
        return pattern
    }

    /// Formatters by locale and pattern (at most 64), used under the lock.
    private static let formatters = Mutex<[String: DateFormatter]>([:])

    /// Seconds since 1970 printed in UTC with a `DateFormatter` pattern, in this format's locale, in
    /// the proleptic Gregorian calendar whatever the year (ISO 8601's, which dates are read in).
    ///
    /// Foundation's Gregorian calendar turns Julian before 1582-10-15 (0001-01-01 would print as
    /// "January 3, 1"): an earlier instant is printed as the same day 400 years on, or a multiple of
    /// 400 — the Gregorian calendar repeats every 400 years, weekdays included — with its own year
    /// written into the pattern.
    package func dateString(_ seconds: Double, pattern: String) -> String {
        guard seconds.isFinite, seconds < NumberFormat.firstModernSecond else { return formattedDate(seconds, pattern: pattern) }
        let cycles = ((NumberFormat.firstModernSecond - seconds) / NumberFormat.cycleSeconds).rounded(.up)
        let days = (seconds / 86_400).rounded(.down)
        guard let day = Int(exactly: days) else { return formattedDate(seconds, pattern: pattern) }
        let year = ISODate.civil(fromDays: day).0
        return formattedDate(seconds + cycles * NumberFormat.cycleSeconds, pattern: NumberFormat.pattern(pattern, year: year))
    }

    /// 1600-01-01T00:00:00Z: from here on Foundation's calendar is the proleptic Gregorian one.
    private static let firstModernSecond = -11_676_096_000.0
    /// 400 Gregorian years: 146,097 days.
    private static let cycleSeconds = 146_097.0 * 86_400

    /// `pattern` with its year fields (`y`, `yy`, `yyyy`, `u`, `Y`: the week's year is the date's
    /// but for a few days around new year) written as `year`, quoted as literal text.
    static func pattern(_ pattern: String, year: Int) -> String {
        var result = ""
        var quoted = false
        var characters = Array(pattern)[...]
        while let character = characters.first {
            if character == "'" {
                quoted.toggle()
                result.append(character)
                characters = characters.dropFirst()
                continue
            }
            guard !quoted, character == "y" || character == "u" || character == "Y" else {
                result.append(character)
                characters = characters.dropFirst()
                continue
            }
            let width = characters.prefix { $0 == character }.count
            characters = characters.dropFirst(width)
            let digits = width == 2 ? String(year % 100) : String(year)
            let padded = String(repeating: "0", count: max(0, (width == 2 ? 2 : width) - digits.count)) + digits
            result += "'\(padded)'"
        }
        return result
    }

    /// Seconds since 1970 printed in UTC with a `DateFormatter` pattern, in this format's locale.
    private func formattedDate(_ seconds: Double, pattern: String) -> String {
        let key = localeIdentifier + "\u{0}" + pattern
        return NumberFormat.formatters.withLock { formatters in
            let formatter: DateFormatter
            if let cached = formatters[key] {
                formatter = cached
            } else {
                formatter = DateFormatter()
                formatter.locale = Locale(identifier: localeIdentifier)
                formatter.timeZone = TimeZone(identifier: "UTC")
                formatter.dateFormat = pattern
                // Patterns come from documents: keep the cache bounded.
                if formatters.count >= 64 { formatters.removeAll() }
                formatters[key] = formatter
            }
            let text = formatter.string(from: Date(timeIntervalSince1970: seconds))
            // A pattern's stop after a name the language abbreviates with one ("EEE." in French:
            // "dim.") is not doubled. (Bytes compared: Foundation's search costs a table of dates dearly.)
            func doubledStop(_ string: String) -> Bool {
                var previous: UInt8 = 0
                for byte in string.utf8 {
                    if byte == UInt8(ascii: "."), previous == byte { return true }
                    previous = byte
                }
                return false
            }
            return doubledStop(text) && !doubledStop(pattern) ? text.replacingOccurrences(of: "..", with: ".") : text
        }
    }
}
