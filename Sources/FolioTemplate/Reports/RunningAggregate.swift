import FolioGraphics
import FolioModel
import Foundation

/// An aggregate of one field over records added one at a time: how many have it, the sum of its
/// numbers (and the most decimals among them), its least and greatest values (numbers and dates as
/// such). A subtotal, a total and a crosstab's cell each keep one.
struct RunningAggregate {
    let function: TableReport.Aggregate.Function
    /// The dotted path of the field, or nil to count records.
    let field: String?
    private(set) var count = 0
    private(set) var numbers = 0
    private(set) var sum = 0.0
    private(set) var decimals = 0
    private(set) var least: (order: ReportValue, value: RecordValue)?
    private(set) var most: (order: ReportValue, value: RecordValue)?

    /// The aggregate as a value: a count, a sum or mean (rounded as `ReportTable` shows it), the least
    /// or greatest value; null when there is nothing to compute.
    var value: RecordValue {
        switch function {
        case .count: return .number(Double(count))
        case .sum, .mean:
            guard numbers > 0 else { return .null }
            let scale = pow(10, Double(shownDecimals))
            return .number(((function == .sum ? sum : sum / Double(numbers)) * scale).rounded() / scale)
        case .min: return least?.value ?? .null
        case .max: return most?.value ?? .null
        }
    }

    /// The decimals a sum shows (as many as its values have) or a mean (one more), at most 6.
    var shownDecimals: Int { min(function == .mean ? decimals + 1 : decimals, 6) }

    init(function: TableReport.Aggregate.Function, field: String?) {
        self.function = function
        self.field = field
    }

    /// Adds `record`'s value of the field (a record without it is not counted), or the record itself
    /// when no field is named.
    mutating func add(_ record: RecordValue) {
        guard let field else {
            count += 1
            return
        }
        add(value: record.value(at: field))
    }

    /// Adds the field's value of one record (nil or null: the record has none, and is not counted).
    mutating func add(value: RecordValue?) {
        guard let value, value != .null else { return }
        count += 1
        let order = ReportValue(value)
        // Numbers, and numbers written as text (a CSV file's); a date is no number to add.
        let number: Double?
        switch value {
        case .number(let written): number = written.isFinite ? written : nil
        case .text(let text): number = ReportValue.numeric(text)
        default: number = nil
        }
        if let number {
            numbers += 1
            sum += number
            if number != number.rounded() { decimals = max(decimals, NumberFormat.decimalsShown(number)) }
        }
        if least == nil || ReportValue.order(order, least?.order ?? .missing) < 0 { least = (order, value) }
        if most == nil || ReportValue.order(order, most?.order ?? .missing) > 0 { most = (order, value) }
    }
}
