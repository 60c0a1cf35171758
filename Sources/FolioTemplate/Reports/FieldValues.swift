import FolioModel

/// The values of fields read out of every record once, as arrays by record: the report's rules
/// (filters, sort keys, groups, cells, highlights, aggregates) each read a field many times, and an
/// array costs an index where an object costs a search of its members.
final class FieldValues {
    private let records: [RecordValue]
    private var columns: [String: [RecordValue?]] = [:]

    init(_ records: [RecordValue]) { self.records = records }

    /// Field `field` (a dotted path) of each record, nil where a record has none; read on first use.
    func column(_ field: String) -> [RecordValue?] {
        if let known = columns[field] { return known }
        let values = records.map { $0.value(at: field) }
        columns[field] = values
        return values
    }
}
