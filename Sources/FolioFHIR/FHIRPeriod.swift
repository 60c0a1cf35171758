import FolioModel
import Foundation

/// The report's period: whole local days from `start` to `end`, both included.
public struct FHIRPeriod: Sendable, Hashable {
    /// The most days a period may span: 150 years, more than a lifetime of records.
    public static let maximumDays = 54_787

    /// Day numbers (days since 1970-01-01) of the first and last day.
    let first: Int64, last: Int64

    /// Parses `START/END` (`2026-11-09/2026-11-15`) or `START/PnD` and `START/PnW` (ISO 8601 durations);
    /// errors name `field`.
    public init(parsing text: String, field: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let example = "give START/END as dates, such as 2026-11-09/2026-11-15, or START/P7D"
        guard parts.count == 2, let first = CivilDate.parse(parts[0]) else {
            throw FolioError(path: field, "\"\(text.prefix(40))\" is not a period: \(example)")
        }
        let last: Int64
        if let end = CivilDate.parse(parts[1]) {
            last = end
        } else if parts[1].hasPrefix("P"), parts[1].count >= 3, let count = Int64(parts[1].dropFirst().dropLast()), count >= 1,
            count <= FHIRPeriod.maximumDays, parts[1].hasSuffix("D") || parts[1].hasSuffix("W")
        {
            last = first + count * (parts[1].hasSuffix("W") ? 7 : 1) - 1
        } else {
            throw FolioError(path: field, "\"\(text.prefix(40))\" is not a period: \(example)")
        }
        guard last >= first else { throw FolioError(path: field, "the period ends before it starts") }
        guard last - first < Int64(FHIRPeriod.maximumDays) else {
            throw FolioError(path: field, "the period is longer than \(FHIRPeriod.maximumDays) days")
        }
        self.first = first
        self.last = last
    }

    /// What `--period` takes for the whole week before the current one, Monday to Sunday.
    public static let lastWeekName = "last-week"

    /// The Monday-to-Sunday week before the one holding local day `today` (days since 1970-01-01).
    public static func week(before today: Int64) -> FHIRPeriod {
        // 1970-01-01 was a Thursday: (day + 3) mod 7 counts days since the last Monday.
        let sinceMonday = ((today + 3) % 7 + 7) % 7
        let monday = today - sinceMonday - 7
        return FHIRPeriod(first: monday, last: monday + 6)
    }

    /// `START/END`, as `--period` takes it.
    public var text: String { "\(CivilDate.text(first))/\(CivilDate.text(last))" }

    /// The days `first` to `last` (day numbers since 1970-01-01).
    init(first: Int64, last: Int64) {
        self.first = first
        self.last = max(first, last)
    }

    /// The number of days.
    var dayCount: Int { Int(last - first + 1) }
    /// `YYYY-MM-DD` of every day, in order.
    var dayTexts: [String] { (first...last).map(CivilDate.text) }

    /// The position of local day `day` in the period, or nil outside it.
    func index(of day: Int64) -> Int? { day >= first && day <= last ? Int(day - first) : nil }
}
