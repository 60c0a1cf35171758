import FolioGraphics
import FolioModel

extension ReportTable {
    /// A cross-tabulation: one row per value of `rows` (or per day, week, month, year), one column
    /// per value of `columns`, each cell the aggregate of the records with both; a total column and
    /// a total row (the table's foot). Rows and columns are in their values' order (numbers and dates
    /// as such); records are filtered by `where` first.
    func crosstabTable(_ crosstab: TableReport.Crosstab) throws -> Table {
        let records = report.records
        let place = "\(path).crosstab"
        try checkField(crosstab.rows.field, at: "crosstab.rows")
        try checkField(crosstab.columns.field, at: "crosstab.columns")
        if let value = crosstab.value { try checkField(value, at: "crosstab.value") }
        let filters: TemplateExpression? =
            try crosstab.format.flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }.map {
                try TemplateExpression(parsing: "value | \($0)", templatePath: "\(place).format")
            }
        let shown = records.indices.filter { index in report.filters.allSatisfy { $0.holds(for: records[index]) } }

        // Each shown record's row and column, made once; the distinct ones in order, each with the
        // first record that has it (for its words).
        func keys(_ level: TableReport.GroupLevel, _ name: String) throws -> (
            ofRecord: [GroupKey], distinct: [(key: GroupKey, record: RecordValue)]
        ) {
            var ofRecord: [GroupKey] = []
            var seen: [(key: GroupKey, record: RecordValue)] = []
            var known: Set<GroupKey> = []
            for index in shown {
                let key = try GroupKey(
                    level, records[index].value(at: level.field), place: "\(path).records[\(index)].\(level.field)",
                    rule: "crosstab.\(name)", zone: zone)
                ofRecord.append(key)
                if known.insert(key).inserted { seen.append((key, records[index])) }
            }
            return (ofRecord, seen.sorted { GroupKey.order($0.key, $1.key) < 0 })
        }
        let (recordRows, rowKeys) = try keys(crosstab.rows, "rows")
        let (recordColumns, columnKeys) = try keys(crosstab.columns, "columns")
        guard columnKeys.count + 2 <= InputLimits.tableColumns else {
            throw FolioError(
                path: "\(place).columns",
                "\"\(crosstab.columns.field)\" has \(columnKeys.count) values: at most \(InputLimits.tableColumns - 2) columns; group it by a period (by: week)"
            )
        }
        let cellCount = (rowKeys.count + 1) * (columnKeys.count + 2)
        guard cellCount <= InputLimits.crosstabCells else {
            throw FolioError(
                path: "\(place).rows",
                "\(rowKeys.count) rows by \(columnKeys.count) columns make \(cellCount) cells with the totals; a cross-tabulation holds at most \(InputLimits.crosstabCells): group the rows or columns by a period (by: week) or filter the records (where)"
            )
        }
        let rowIndex = Dictionary(uniqueKeysWithValues: rowKeys.enumerated().map { ($1.key, $0) })
        let columnIndex = Dictionary(uniqueKeysWithValues: columnKeys.enumerated().map { ($1.key, $0) })
        let empty = RunningAggregate(function: crosstab.function, field: crosstab.value)
        var cells = Array(repeating: Array(repeating: empty, count: columnKeys.count + 1), count: rowKeys.count + 1)
        for (position, index) in shown.enumerated() {
            if position & 1023 == 1023 { try RenderDeadline.check() }
            guard let row = rowIndex[recordRows[position]], let column = columnIndex[recordColumns[position]] else { continue }
            for (r, c) in [(row, column), (row, columnKeys.count), (rowKeys.count, column), (rowKeys.count, columnKeys.count)] {
                cells[r][c].add(records[index])
            }
        }

        let levels = TableReport(records: [], columns: [], groupBy: [crosstab.rows, crosstab.columns])
        let words = try ReportTable(table: table, report: levels, path: path, strings: strings, zone: zone)
        let title = crosstab.rows.title ?? crosstab.rows.field
        var result = table
        result.report = nil
        result.header =
            [RichText.escaped(title)] + (try columnKeys.map { try words.groupTitle(1, $0.key, record: $0.record).value }) + [
                RichText.escaped(strings[.total])
            ]
        result.align = [.left] + Array(repeating: .right, count: columnKeys.count + 1)
        var rows: [[String]] = []
        var values: [[RecordValue]] = []
        for (r, entry) in rowKeys.enumerated() {
            let label = try words.groupTitle(0, entry.key, record: entry.record).value
            rows.append([label] + (try cells[r].map { try aggregateText($0, filters: filters, place: "\(place).format") }))
            values.append([.text(RichText(label).plainText)] + cells[r].map(\.value))
        }
        let totals = try cells[rowKeys.count].map { try aggregateText($0, filters: filters, place: "\(place).format") }
        rows.append([RichText.escaped(strings[.total])] + totals)
        values.append([.text(strings[.total])] + cells[rowKeys.count].map(\.value))
        result.rows = rows
        result.values = Table.Values(rows: values, formats: [nil] + Array(repeating: crosstab.format, count: columnKeys.count + 1))
        result.rowKinds = Array(repeating: .data, count: rowKeys.count) + [Table.RowKind(.total)]
        result.highlights = []
        result.spans = []
        result.cellLanguages = []
        return result
    }
}
