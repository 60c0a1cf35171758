/// One day of a calendar heatmap: its date and its value (nil: no data that day).
public struct HeatmapDay: Sendable, Hashable, Codable {
    /// The day, `2026-11-14`.
    public var date: String
    /// Its value (a day's adherence 0–1, its steps), or nil when nothing was recorded.
    public var value: Double?

    /// `date` with `value`.
    public init(date: String, value: Double?) {
        self.date = date
        self.value = value
    }
}

/// A calendar heatmap of daily values (a month's medication adherence): a column per week, a row per
/// weekday from Monday, each day's square shaded by its value; a day at or below `missedAt` is crossed
/// (missed), a day without data left open, so neither is told by colour alone.
public struct HeatmapChart: Sendable, Hashable, Codable {
    /// The days, in any order; days between the first and the last that are not listed have no data.
    public var days: [HeatmapDay]
    /// The value shaded lightest (by default the lowest value, or 0).
    public var low: Double?
    /// The value shaded darkest (by default the highest value).
    public var high: Double?
    /// Days with a value at or below this are missed (crossed, and listed in the description); nil: none.
    public var missedAt: Double?

    /// A heatmap of `days`, shaded from `low` to `high`, days at or below `missedAt` missed.
    public init(days: [HeatmapDay], low: Double? = nil, high: Double? = nil, missedAt: Double? = nil) {
        self.days = days
        self.low = low
        self.high = high
        self.missedAt = missedAt
    }

    /// The first day's and the last day's numbers (days since 1970), or nil without days.
    package var span: (first: Int, last: Int)? {
        let numbers = days.compactMap { HeatmapChart.dayNumber($0.date) }
        guard let first = numbers.min(), let last = numbers.max() else { return nil }
        return (first, last)
    }

    /// Each day's value by day number (a day listed twice keeps the last).
    package var valuesByDay: [Int: Double?] {
        var values: [Int: Double?] = [:]
        for day in days { if let number = HeatmapChart.dayNumber(day.date) { values[number] = .some(day.value) } }
        return values
    }

    /// The day number (days since 1970-01-01) of `YYYY-MM-DD`, or nil.
    package static func dayNumber(_ text: String) -> Int? {
        guard text.utf8.count == 10, ISODate.looksLikeDate(text), let seconds = ISODate.parse(text) else { return nil }
        return (seconds / 86_400).rounded(.down).clampedInt()
    }

    /// Throws for a date that is not a day, a value that is not finite, a span past ten years.
    package func validate(path: String) throws {
        if days.count > 5000 { throw FolioError(path: "\(path).days", "has \(days.count) days; at most 5,000 are allowed") }
        for (index, day) in days.enumerated() {
            guard HeatmapChart.dayNumber(day.date) != nil else {
                throw FolioError(path: "\(path).days[\(index)].date", "expected a day such as 2026-11-14")
            }
            if let value = day.value, !(value.isFinite && abs(value) <= InputLimits.magnitude) {
                throw FolioError(path: "\(path).days[\(index)].value", "must be a finite number between -1e15 and 1e15")
            }
        }
        if let span, span.last - span.first > 3660 {
            throw FolioError(path: "\(path).days", "spans more than ten years; a heatmap shows at most ten")
        }
        for (name, value) in [("low", low), ("high", high), ("missedAt", missedAt)] {
            if let value, !(value.isFinite && abs(value) <= InputLimits.magnitude) {
                throw FolioError(path: "\(path).\(name)", "must be a finite number between -1e15 and 1e15")
            }
        }
        if let low, let high, high <= low { throw FolioError(path: "\(path).high", "must be greater than low") }
    }
}
