import FolioModel

/// A spreadsheet cell: text, a number with the way it is shown, a date (and time), or nothing.
/// Numbers and dates stay numbers and dates, so a reader's spreadsheet can add and sort them.
package enum SheetCell: Sendable, Hashable {
    case empty
    case text(String)
    case number(Double, SheetNumberStyle)
    case date(SheetDate)
}

/// How a number cell is shown: its decimals (nil: as many as it has), thousands grouped, as a
/// percentage, and a unit after it (`12.5 mg`), so the spreadsheet shows what the PDF shows.
package struct SheetNumberStyle: Sendable, Hashable {
    package var decimals: Int?
    package var grouped: Bool
    package var percent: Bool
    package var unit: String?

    package init(decimals: Int? = nil, grouped: Bool = false, percent: Bool = false, unit: String? = nil) {
        self.decimals = decimals
        self.grouped = grouped
        self.percent = percent
        self.unit = unit
    }

    /// A plain number.
    package static let plain = SheetNumberStyle()

    /// The spreadsheet's number format: `#,##0.0" mg"`, `0%`, `General`.
    package var excelFormat: String {
        var format: String
        if let decimals {
            format = (grouped ? "#,##0" : "0") + (decimals > 0 ? "." + String(repeating: "0", count: min(decimals, 10)) : "")
        } else {
            format = grouped ? "#,##0.##########" : "General"
        }
        if percent { format = (format == "General" ? "0" : format) + "%" }
        if let unit, !unit.isEmpty {
            // The unit quoted as text (a quote in it doubled: Excel's escape within quotes is none, so it is dropped).
            let quoted = unit.replacingOccurrences(of: "\"", with: "")
            format += "\" \(quoted)\""
        }
        return format
    }
}

/// A calendar date with an optional time of day, as its record wrote it (the wall clock at the
/// time's own offset), and the text it was read from.
package struct SheetDate: Sendable, Hashable {
    package var year: Int
    package var month: Int
    package var day: Int
    /// Seconds into the day, or nil for a date alone.
    package var secondOfDay: Int?
    /// The text as the record wrote it (ISO 8601), for CSV.
    package var text: String

    package init(year: Int, month: Int, day: Int, secondOfDay: Int?, text: String) {
        self.year = year
        self.month = month
        self.day = day
        self.secondOfDay = secondOfDay
        self.text = text
    }
}
