import FolioModel

extension ReportTable {
    /// Refuses, before any row is made, a table of records that would be too large (more records than
    /// a table has rows, more cells than `InputLimits.tableCells`) or whose fields hold a number past
    /// ±`InputLimits.magnitude` (a total of such numbers could not be written): each error names the
    /// record and field.
    func checkBounds() throws {
        let records = report.records
        guard records.count <= InputLimits.tableRows else {
            throw FolioError(
                path: "\(path).records", "has \(records.count) records; a table holds at most \(InputLimits.tableRows) rows")
        }
        let columns = report.crosstab == nil ? report.columns.count : 2
        guard records.count * max(columns, 1) <= InputLimits.tableCells else {
            throw FolioError(
                path: "\(path).records",
                "\(records.count) records of \(columns) columns make \(records.count * columns) cells; a table holds at most \(InputLimits.tableCells)"
            )
        }
        var fields = report.columns.map(\.field) + report.filters.map(\.field) + report.sortBy.map(\.field)
        fields += report.groupBy.map(\.field) + report.highlight.map(\.when.field)
        if let crosstab = report.crosstab { fields += [crosstab.rows.field, crosstab.columns.field] + [crosstab.value].compactMap { $0 } }
        var checked: Set<String> = []
        for field in fields where checked.insert(field).inserted {
            for (index, record) in records.enumerated() {
                guard let number = ReportTable.number(in: record.value(at: field)),
                    !(number.isFinite && abs(number) <= InputLimits.magnitude)
                else { continue }
                throw FolioError(
                    path: "\(path).records[\(index)].\(field)",
                    "must be a number between -1e15 and 1e15 (found \(number)); a value past that cannot be totalled or written")
            }
        }
    }

    /// The number a record's value holds as the report's rules read it: a number, or a number written
    /// as text ("12.5" from a CSV file).
    private static func number(in value: RecordValue?) -> Double? {
        switch value {
        case .number(let number)?: return number
        case .text(let text)?: return ReportValue.numeric(text)
        default: return nil
        }
    }
}
