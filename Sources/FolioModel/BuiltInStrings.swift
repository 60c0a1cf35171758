/// Every word Folio writes by itself, in the document's language: message labels, "No data",
/// the page footer, "continued", the generated chart descriptions; with the language's decimal
/// separator and writing direction. Chosen by `metadata.language` (its primary subtag; English when
/// there is no table for it), then the document's `strings` override single entries.
public struct BuiltInStrings: Sendable, Hashable {
    /// One built-in text. Sentence patterns name their parts in braces, such as `{count}`.
    public enum Key: String, Sendable, Hashable, CaseIterable, CodingKey {
        /// Label before a tip message's title.
        case tip
        /// Label before an alert message's title.
        case alert
        /// What an empty chart says.
        case noData
        /// Added to a split table's caption on later pages: "Medications (continued)".
        case continued
        /// The default page footer; `{page}` and `{pages}` are replaced.
        case pageFooter
        /// The summary of a chart's data table (HTML).
        case data
        /// The name of a scrollable table region without a caption (HTML).
        case table
        /// The name of a chart without a title.
        case chart
        /// The document's name when it has no title (the HTML `<title>`, the PDF's title).
        case report
        /// Column headings of a chart's data table.
        case category, segment, value, share, ring, progress
        /// Chart kinds, at the start of a chart description.
        case barChart, stackedBarChart, lineChart, scatterChart, pieChart, donutChart, ringChart, rangeChart
        /// "{count} categories, from {first} to {last}".
        case categories
        /// "1 category {name}".
        case oneCategory
        /// "{count} points".
        case points
        /// "1 point".
        case onePoint
        /// "{name} from {low} to {high}": the span of a line chart's x values.
        case fromTo
        /// "{name}: lowest value {low}, highest value {high}": a series in a chart's description.
        case lowHigh
        /// "{count} other segments with {percent}% together": the rest of a pie of many segments.
        case otherSegments
        /// "at {x}", after a value in a line chart's description.
        case at
        /// "{count} missing".
        case missing
        /// "{threshold}: {count} values": the values beyond a threshold, in a chart's description.
        case valuesBeyond
        /// "{threshold}: 1 value".
        case oneValueBeyond
        /// "above {value}": a threshold without a label, in `valuesBeyond`.
        case aboveValue
        /// "below {value}".
        case belowValue
        /// "outside {low}–{high}": a target range.
        case outsideRange
        /// What a signed PDF's invisible signature field is, for a screen reader: "Digital signature".
        case digitalSignature
        /// The heading of a printed table of contents (a `contents` block without a title).
        case contents
        /// The heading of the HTML's notes (its footnotes, listed at the end).
        case footnotes
        /// The label of a table's total row.
        case total
        /// The label of a group's subtotal row.
        case subtotal
        /// "Week of {date}": a group of a week's records, `{date}` its Monday.
        case weekOf
        /// The word a `warning` highlight adds to its cell.
        case warning
        /// The word a `good` highlight adds to its cell.
        case good
        /// Measure chart kinds, at the start of a chart description.
        case bulletChart, gaugeChart
        /// "{name} {value} against a target of {target}": a measure in a bullet or gauge description.
        case againstTarget
        /// "above the target", "below the target", "on the target": after `againstTarget`.
        case aboveTarget, belowTarget, onTarget
        /// "in the range {range}": the qualitative range a measure falls in.
        case inRange
        /// Column headings of a measure chart's data table: "Measure", "Target", "Ranges".
        case measure, target, ranges
        /// Distribution chart kinds, at the start of a chart description.
        case boxPlot, histogram
        /// "{name}: median {median}, quartiles {lower} and {upper}, whiskers {low} to {high}": a box plot's group.
        case boxSummary
        /// "{count} outliers: {values}" and "1 outlier: {value}".
        case outliers, oneOutlier
        /// "{count} values": how many a group or histogram holds.
        case valueCount
        /// "{count} values in {bins} bins of {width} from {low} to {high}".
        case histogramBins
        /// "bins by Sturges' rule": the binning rule when none was given.
        case sturgesRule
        /// "most in {range} ({count})": a histogram's tallest bin.
        case mostIn
        /// Column headings of a box plot's and a histogram's data tables.
        case count, minimum, lowerQuartile, median, upperQuartile, maximum, bin, outlierValues
        /// A calendar heatmap, at the start of its description.
        case heatmap
        /// "{count} days from {first} to {last}".
        case daySpan
        /// "{count} missed: {days}", "1 missed: {day}", "none missed".
        case missedDays, oneMissedDay, noneMissed
        /// "{count} without data: {days}", "1 without data: {day}".
        case daysWithoutData, oneDayWithoutData
        /// "mean {value}".
        case meanValue
        /// The key's word for a missed day; a data table's "Date" heading.
        case missed, date
        /// "Notes: {notes}": a chart's annotations, after its description.
        case notes
    }

    /// A document's replacements for single built-in strings, written as `strings: {tip: "Hint"}`;
    /// an unknown key is an error like any other.
    public struct Overrides: Sendable, Hashable, Codable {
        /// The replacement text by key.
        public var entries: [Key: String]

        /// Replacements `entries` (none by default).
        public init(_ entries: [Key: String] = [:]) { self.entries = entries }

        /// Decodes `{key: text}` with the keys of `Key`.
        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            var entries: [Key: String] = [:]
            for key in Key.allCases {
                if let text = try container.decodeIfPresent(String.self, forKey: key) { entries[key] = text }
            }
            self.entries = entries
        }

        /// Encodes `{key: text}`, keys in declaration order.
        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for key in Key.allCases { try container.encodeIfPresent(entries[key], forKey: key) }
        }
    }

    /// The language these strings are in (primary subtag, such as `fr`).
    package let language: String
    /// The character between whole and fractional digits: "." or ",".
    package let decimalSeparator: String
    /// The mark between groups of three digits in a long number (`10,000`, `10 000`, `10.000`).
    package var groupingSeparator: String {
        switch language {
        case "fr", "pt": return "\u{202F}"
        case "de", "es": return "."
        default: return ","
        }
    }
    /// What follows a label such as a message's "Tip": ": ", and in French " : " (a narrow no-break space before the colon).
    package var labelSeparator: String { language == "fr" ? "\u{202F}: " : ": " }
    /// Whether the language is written right to left.
    package let isRightToLeft: Bool
    /// The locale month and day names are written in.
    package let localeIdentifier: String
    private var table: [Key: String]

    /// The text for `key`, as written in its table (every text is a pattern: `{{` stands for `{`).
    package func pattern(_ key: Key) -> String { table[key] ?? BuiltInStrings.english.table[key] ?? key.rawValue }

    /// The text for `key` (`{{` in a pattern shown as `{`).
    package subscript(key: Key) -> String { pattern(key).fillingPlaceholders([:]) }

    /// `key`'s pattern with each `{name}` replaced by its value.
    package func format(_ key: Key, _ values: [String: String]) -> String {
        pattern(key).fillingPlaceholders(values)
    }

    /// These strings with `overrides` replacing single entries.
    package func overridden(by overrides: [Key: String]) -> BuiltInStrings {
        var copy = self
        copy.table.merge(overrides) { _, new in new }
        return copy
    }

    init(language: String, decimalSeparator: String, isRightToLeft: Bool = false, localeIdentifier: String, table: [Key: String]) {
        self.language = language
        self.decimalSeparator = decimalSeparator
        self.isRightToLeft = isRightToLeft
        self.localeIdentifier = localeIdentifier
        self.table = table
    }

    /// The languages with a built-in table.
    package static let languages = ["en", "fr", "de", "es", "pt", "ar", "zh"]

    /// The strings for a BCP 47 tag such as `fr-CA`: by its primary subtag, English when unknown.
    /// Hebrew, Persian, Urdu and the other right-to-left languages have no table yet but are still
    /// laid out right to left.
    package static func forLanguage(_ tag: String) -> BuiltInStrings {
        let primary = Metadata.primaryLanguage(of: tag)
        switch primary {
        case "fr": return french
        case "de": return german
        case "es": return spanish
        case "pt": return portuguese
        case "ar": return arabic
        case "zh": return chinese
        case _ where TextDirection.rightToLeftLanguages.contains(primary):
            return BuiltInStrings(
                language: primary, decimalSeparator: ".", isRightToLeft: true, localeIdentifier: "en_US_POSIX", table: english.table)
        default: return english
        }
    }
}
