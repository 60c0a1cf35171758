import FolioCharts
import FolioModel

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
        guard let value = record.value(at: field), value != .null else { return }
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
