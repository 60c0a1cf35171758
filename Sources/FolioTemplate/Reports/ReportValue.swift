import FolioData
import FolioGraphics
import FolioModel

/// A record's value as report rules compare it: a number, a date (its instant, compared with other
/// dates and numbers as a number), text, true or false, or missing. Numbers written as text ("12.5"
/// from a CSV file) compare as numbers.
package enum ReportValue: Hashable {
    case number(Double)
    case text(String)
    case flag(Bool)
    case missing

    init(_ value: RecordValue?) {
        switch value {
        case .number(let number)?: self = number.isFinite ? .number(number) : .missing
        case .text(let text)?:
            if let number = ReportValue.numeric(text) {
                self = .number(number)
            } else if let instant = ISODate.parse(text) {
                self = .number(instant)
            } else {
                self = .text(text)
            }
        case .bool(let flag)?: self = .flag(flag)
        case .list(let items)?: self = .text(items.map { ReportValue.describe($0) }.joined(separator: ", "))
        case .null?, .object?, nil: self = .missing
        }
    }

    /// A plain decimal number written as text (`12`, `-3.25`), nil for anything else (`1e3`, `0x1F`, `12 mg`).
    package static func numeric(_ text: String) -> Double? {
        let bytes = text.utf8
        guard let first = bytes.first, bytes.count <= 32, first == UInt8(ascii: "-") || (0x30...0x39).contains(first),
            bytes.allSatisfy({ (0x30...0x39).contains($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") })
        else { return nil }
        return Double(text).flatMap { $0.isFinite ? $0 : nil }
    }

    /// -1, 0 or 1: numbers (and dates) before true/false before text, missing values last; text by
    /// its characters.
    static func order(_ left: ReportValue, _ right: ReportValue) -> Int {
        switch (left, right) {
        case (.number(let a), .number(let b)): return a < b ? -1 : a > b ? 1 : 0
        case (.text(let a), .text(let b)): return a < b ? -1 : a > b ? 1 : 0
        case (.flag(let a), .flag(let b)): return a == b ? 0 : (a ? 1 : -1)
        case (.missing, .missing): return 0
        default: return left.rank < right.rank ? -1 : 1
        }
    }

    private var rank: Int {
        switch self {
        case .number: return 0
        case .flag: return 1
        case .text: return 2
        case .missing: return 3
        }
    }

    /// A value for an error message: text quoted and cut, or its kind.
    static func describe(_ value: RecordValue) -> String {
        switch value {
        case .text(let text): return "\"\(text.prefix(40))\""
        case .number(let number): return NumberFormat.english.string(number, decimals: NumberFormat.decimalsShown(number))
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .list: return "a list"
        case .object: return "an object"
        }
    }
}

extension TableReport.Condition {
    /// Whether `record` meets the condition; a record without the field meets only `absent`.
    func holds(for record: RecordValue) -> Bool { holds(record.value(at: field)) }

    /// Whether a record whose value of the field is `raw` (nil: it has none) meets the condition.
    func holds(_ raw: RecordValue?) -> Bool {
        let present = raw != nil && raw != .null
        switch op {
        case .present: return present
        case .absent: return !present
        default: break
        }
        guard present, let raw else { return false }
        let value = ReportValue(raw)
        switch op {
        case .equal: return ReportValue.order(value, ReportValue(self.value)) == 0 && self.value != nil
        case .notEqual: return self.value == nil || ReportValue.order(value, ReportValue(self.value)) != 0
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            let other = ReportValue(self.value)
            // Ordered comparisons hold between numbers (dates) or between texts, never across kinds.
            switch (value, other) {
            case (.number, .number), (.text, .text): break
            default: return false
            }
            let order = ReportValue.order(value, other)
            switch op {
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            default: return order >= 0
            }
        case .contains:
            guard let needle = self.value else { return false }
            if case .list(let items) = raw { return items.contains { ReportValue.order(ReportValue($0), ReportValue(needle)) == 0 } }
            guard case .text(let text) = raw, case .text(let part) = needle else { return false }
            return text.localizedLowercase.contains(part.localizedLowercase)
        case .oneOf:
            guard case .list(let options)? = self.value else { return false }
            return options.contains { ReportValue.order(value, ReportValue($0)) == 0 }
        case .present, .absent: return present
        }
    }
}
