import FolioData
import FolioGraphics
import FolioModel
import Foundation

/// The template filters that write a value in the reader's words: `number` (digits grouped and
/// the decimal separator of the document's language), `unit` (kept to its number by a no-break
/// space), `zone` (a time moved to an IANA zone) and `date` (a date or time in the language's
/// words, at the offset the time carries).
///
/// `{{glucose.value | number: 1 | unit: mmol/L}}` gives "5,4 mmol/L" in French;
/// `{{taken | zone: America/New_York | date: weekdaytime}}` gives "Sat, Nov 14, 7:30 AM".
package enum TemplateFormatting {
    /// `date`'s named styles and the skeletons they stand for (the language orders the fields).
    static let dateStyles: [String: String] = [
        "short": "yMd", "medium": "yMMMd", "long": "yMMMMd", "weekday": "EEEMMMd", "time": "jm",
        "datetime": "yMMMdjm", "weekdaytime": "EEEMMMdjm",
    ]

    /// A date or time as written in a record: its wall-clock seconds (as if UTC), its offset from UTC
    /// in seconds (nil when the text gives none), and whether it has a time of day.
    package struct Moment: Equatable {
        package let wallClock: Int64
        package let offset: Int?
        package let hasTime: Bool

        /// The instant, in seconds since 1970 (a time without an offset is read as UTC).
        package var instant: Int64 { wallClock - Int64(offset ?? 0) }

        /// The time as `zone`'s clocks showed it, with the zone's offset then (a date alone stays its day).
        package func moved(to zone: TimeZone) -> Moment {
            guard hasTime else { return self }
            let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant)))
            return Moment(wallClock: instant + Int64(offset), offset: offset, hasTime: true)
        }
    }

    /// Parses `2026-11-14`, `2026-11-14T07:30`, `2026-11-14T07:30:00.250-05:00`, `…Z`; nil for
    /// anything else (only a year or a month, an impossible day or hour, an offset past ±14 h).
    package static func moment(_ text: String) -> Moment? {
        let bytes = Array(text.utf8)
        guard bytes.count <= 40 else { return nil }
        var index = 0
        func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += count
            return value
        }
        func skip(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), skip(0x2D), let month = digits(2), skip(0x2D), let day = digits(2), (1...12).contains(month),
            (1...CivilDate.daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        let midnight = CivilDate.days(year: year, month: month, day: day) * 86_400
        guard index < bytes.count else { return Moment(wallClock: midnight, offset: nil, hasTime: false) }
        guard skip(0x54) || skip(0x20), let hour = digits(2), hour < 24, skip(0x3A), let minute = digits(2), minute < 60 else { return nil }
        var second = 0
        if skip(0x3A) {
            guard let value = digits(2), value < 60 else { return nil }
            second = value
            if skip(0x2E) {
                let start = index
                while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
                guard index > start else { return nil }
            }
        }
        let wallClock = midnight + Int64(hour * 3600 + minute * 60 + second)
        if index == bytes.count { return Moment(wallClock: wallClock, offset: nil, hasTime: true) }
        if skip(0x5A), index == bytes.count { return Moment(wallClock: wallClock, offset: 0, hasTime: true) }
        let sign = skip(0x2B) ? 1 : skip(0x2D) ? -1 : 0
        guard sign != 0, let offsetHours = digits(2), skip(0x3A), let offsetMinutes = digits(2), index == bytes.count,
            offsetHours * 60 + offsetMinutes <= 14 * 60, offsetMinutes < 60
        else { return nil }
        return Moment(wallClock: wallClock, offset: sign * (offsetHours * 3600 + offsetMinutes * 60), hasTime: true)
    }

    /// `moment` as ISO 8601 with its offset: `2026-11-14T07:30:00-05:00`.
    static func isoText(_ moment: Moment) -> String {
        let day = moment.wallClock >= 0 ? moment.wallClock / 86_400 : (moment.wallClock - 86_399) / 86_400
        let inDay = Int(moment.wallClock - day * 86_400)
        let pad = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        var text = CivilDate.text(day)
        guard moment.hasTime else { return text }
        text += "T\(pad(inDay / 3600)):\(pad(inDay / 60 % 60)):\(pad(inDay % 60))"
        guard let offset = moment.offset else { return text }
        if offset == 0 { return text + "Z" }
        return text + (offset < 0 ? "-" : "+") + "\(pad(abs(offset) / 3600)):\(pad(abs(offset) / 60 % 60))"
    }

    /// `zone: Europe/Paris`: the time as the zone's clocks showed it, with the zone's offset then.
    static func zone(_ value: TreeValue, to identifier: String?, field: String, templatePath: String) throws -> TreeValue {
        guard let identifier, !identifier.isEmpty, identifier.count <= 64, identifier.allSatisfy(\.isASCII),
            let zone = TimeZone(identifier: identifier)
        else {
            throw FolioError(path: templatePath, "zone needs an IANA time zone, such as zone: Europe/Paris")
        }
        guard case .string(let text) = value, let moment = moment(text) else {
            throw FolioError(
                path: templatePath, "zone needs a date and time such as 2026-11-14T07:30:00Z, but \(field) is \(describe(value))")
        }
        // A date alone is a day, not an instant: it stays the day it is.
        guard moment.hasTime else { return value }
        return .string(isoText(moment.moved(to: zone)))
    }

    /// `date: medium` (or another style, or a pattern such as `"EEE d MMM, HH:mm"`): the day (and time)
    /// in `format`'s language, at the offset the text carries.
    static func date(_ value: TreeValue, style: String?, format: NumberFormat, field: String, templatePath: String) throws -> TreeValue {
        guard case .string(let text) = value, let moment = moment(text) else {
            throw FolioError(
                path: templatePath, "date needs a date such as 2026-11-14 or 2026-11-14T07:30:00Z, but \(field) is \(describe(value))")
        }
        let style = style ?? "medium"
        let pattern: String
        if let skeleton = dateStyles[style] {
            if !moment.hasTime, skeleton.contains("j") {
                throw FolioError(
                    path: templatePath, "date: \(style) shows a time of day, and \(field) (\(text.prefix(40))) is a date alone")
            }
            pattern = format.datePattern(skeleton: skeleton)
        } else {
            // A pattern of the author's own: letters are fields, quoted text is kept.
            guard style.count <= 64, style.unicodeScalars.allSatisfy({ $0.isASCII && $0.value >= 0x20 }) else {
                throw FolioError(
                    path: templatePath,
                    "date takes a style (\(dateStyles.keys.sorted().joined(separator: ", "))) or a pattern such as \"EEE d MMM\"")
            }
            pattern = style
        }
        return .string(format.dateString(Double(moment.wallClock), pattern: pattern))
    }

    /// `number: 1`: grouped digits and the language's decimal separator, with that many decimals
    /// (none by default).
    static func number(_ value: Double, decimals: Int, format: NumberFormat) -> TreeValue {
        .string(format.grouped(format.string(value, decimals: decimals)))
    }

    /// `unit: mmol/L`: the value and the unit with a no-break space between, so a line never ends
    /// between them; a number is written in the language's digits first.
    static func unit(_ value: TreeValue, unit: String?, format: NumberFormat, templatePath: String) throws -> TreeValue {
        guard let unit, !unit.isEmpty else { throw FolioError(path: templatePath, "unit needs the unit's symbol, as in unit: mmol/L") }
        let text: String
        if case .number(let number) = value {
            text = format.grouped(format.string(number, decimals: number == number.rounded() ? 0 : NumberFormat.decimalsShown(number)))
        } else {
            text = value.text
        }
        return .string(text + "\u{00A0}" + unit)
    }

    /// `age` (or `age: 2026-11-15`): whole years from a birth date to the given day, else to today
    /// (UTC); a birthday not yet reached that year is not yet a year.
    static func age(_ value: TreeValue, on day: String?, field: String, templatePath: String) throws -> TreeValue {
        guard case .string(let text) = value, let born = moment(text) else {
            throw FolioError(path: templatePath, "age needs a birth date such as 1979-04-02, but \(field) is \(describe(value))")
        }
        let reference: Moment
        if let day {
            guard let given = moment(day) else {
                throw FolioError(path: templatePath, "age: takes the day to count to, such as age: 2026-11-15")
            }
            reference = given
        } else {
            let now = Int64(Date().timeIntervalSince1970)
            reference = Moment(wallClock: now, offset: 0, hasTime: true)
        }
        func civil(_ moment: Moment) -> (year: Int, month: Int, day: Int) {
            let wall = moment.wallClock
            return CivilDate.date(wall >= 0 ? wall / 86_400 : (wall - 86_399) / 86_400)
        }
        let birth = civil(born)
        let then = civil(reference)
        var years = then.year - birth.year
        if (then.month, then.day) < (birth.month, birth.day) { years -= 1 }
        guard years >= 0 else { throw FolioError(path: templatePath, "age: \(field) (\(text.prefix(40))) is after the day counted to") }
        return .number(Double(years))
    }

    /// `duration` (seconds) or `duration: minutes` / `hours`: the time in whole units from the largest
    /// that applies, as clinicians write it: "2 d 3 h", "1 h 30 min", "45 min", "30 s" (symbols, the
    /// language's digits).
    static func duration(_ value: Double, unit: String?, format: NumberFormat, templatePath: String) throws -> TreeValue {
        let scale: Double
        switch unit ?? "seconds" {
        case "seconds", "s": scale = 1
        case "minutes", "min": scale = 60
        case "hours", "h": scale = 3600
        default: throw FolioError(path: templatePath, "duration takes the unit of its number: seconds, minutes or hours")
        }
        let seconds = value * scale
        guard seconds.isFinite, abs(seconds) < 1e12 else {
            throw FolioError(path: templatePath, "duration needs a number of \(unit ?? "seconds") up to a few thousand years")
        }
        var left = Int64(abs(seconds).rounded())
        var parts: [String] = []
        for (size, symbol) in [(Int64(86_400), "d"), (3600, "h"), (60, "min"), (1, "s")] where left >= size || (size == 1 && parts.isEmpty)
        {
            let count = left / size
            left -= count * size
            if count > 0 || parts.isEmpty { parts.append(format.grouped(String(count)) + "\u{00A0}" + symbol) }
            // Two units say enough: "1 h 30 min", not "1 h 30 min 12 s".
            if parts.count == 2 { break }
        }
        return .string((seconds < 0 ? "−" : "") + parts.joined(separator: " "))
    }

    private static func describe(_ value: TreeValue) -> String {
        if case .string(let text) = value { return "\"\(text.prefix(40))\"" }
        return value.kindName
    }
}
