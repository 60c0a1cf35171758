import FolioData
import FolioGraphics
import FolioModel
import Foundation

/// Makes a table of records into the table a reader sees: records filtered (`where`), sorted
/// (`sortBy`, numbers and dates as such), cut (`limit`), grouped (`groupBy`, a header row per
/// group), totalled (`subtotals` under each group, `total` at the end) and flagged (`highlight`,
/// a word and a colour), every value written by its column's `format` in the document's language.
/// Data is escaped into the cells: a record's `**` or `[link](…)` is text.
struct ReportTable {
    /// The table block, with its report.
    let table: Table
    let report: TableReport
    /// The block's field path (`elements[3]`), for errors.
    let path: String
    let strings: BuiltInStrings
    let format: NumberFormat
    /// The document's zone (`metadata.timeZone`): dates are written and grouped by its clocks.
    let zone: TimeZone?

    /// The columns' `format` filters, parsed once.
    private let columnFormats: [TemplateExpression?]
    private let groupFormats: [TemplateExpression?]

    init(table: Table, report: TableReport, path: String, strings: BuiltInStrings, zone: TimeZone? = nil) throws {
        self.table = table
        self.report = report
        self.path = path
        self.strings = strings
        self.zone = zone
        format = NumberFormat(strings)
        func parse(_ format: String?, field: String, at place: String) throws -> TemplateExpression? {
            guard let format, !format.allSatisfy(\.isWhitespace) else { return nil }
            let name = field.isEmpty || field.contains(" ") || field.contains("|") ? "value" : field
            return try TemplateExpression(parsing: "\(name) | \(format)", templatePath: place)
        }
        columnFormats = try report.columns.enumerated().map { index, column in
            try parse(column.format, field: column.field, at: "\(path).columns[\(index)].format")
        }
        groupFormats = try report.groupBy.enumerated().map { index, level in
            try parse(level.format, field: level.field, at: "\(path).groupBy[\(index)].format")
        }
    }

    /// The table with its header, rows, row kinds and highlights made from the records.
    func expanded() throws -> Table {
        if let index = report.records.firstIndex(where: { if case .object = $0 { false } else { true } }) {
            throw FolioError(
                path: "\(path).records[\(index)]", "expected an object of fields, found \(ReportValue.describe(report.records[index]))")
        }
        for (index, condition) in report.filters.enumerated() where condition.op != .absent {
            try checkField(condition.field, at: "where[\(index)].field")
        }
        try checkBounds()
        if let crosstab = report.crosstab { return try crosstabTable(crosstab) }
        try checkFields()
        let records = report.records
        // Each field read out of the records once: the rules below index arrays, not objects.
        let fields = FieldValues(records)
        // Each record's group at each level, made once: it orders the records and starts the groups.
        let groupKeys = try report.groupBy.enumerated().map { number, level in
            try fields.column(level.field).enumerated().map { index, value in
                try GroupKey(level, value, place: "\(path).records[\(index)].\(level.field)", rule: "groupBy[\(number)]", zone: zone)
            }
        }
        let shown = shownRecords(fields, groupKeys: groupKeys)

        var result = table
        result.report = nil
        result.header = report.columns.map { $0.title ?? $0.field }
        let columnValues = report.columns.map { fields.column($0.field) }
        result.align = report.columns.enumerated().map { index, column in
            column.align ?? (columnValues[index].contains { if case .number? = $0 { true } else { false } } ? .right : .left)
        }
        var builder = RowBuilder(columns: report.columns.count)
        let highlightValues = report.highlight.map { fields.column($0.when.field) }
        var open: [GroupKey?] = Array(repeating: nil, count: report.groupBy.count)
        // Each open group's value as its header shows it, which its subtotal names.
        var openValues = Array(repeating: "", count: report.groupBy.count)
        var sums = Array(repeating: Accumulators(report.subtotals, columns: report.columns, fields: fields), count: report.groupBy.count)
        var totals = Accumulators(report.total, columns: report.columns, fields: fields)
        for (position, recordIndex) in shown.enumerated() {
            if position & 1023 == 1023 { try RenderDeadline.check() }
            let record = records[recordIndex]
            // The outermost level whose value changed closes every group inside it and opens new ones.
            if let changed = open.indices.first(where: { open[$0] != groupKeys[$0][recordIndex] }) {
                for level in (changed..<open.count).reversed() where open[level] != nil {
                    try closeGroup(level, &sums[level], value: openValues[level], into: &builder)
                }
                for level in changed..<open.count {
                    let key = groupKeys[level][recordIndex]
                    open[level] = key
                    let title = try groupTitle(level, key, record: record)
                    openValues[level] = title.value
                    builder.addGroupHeader(title.header, level: level)
                }
            }
            var cells = try report.columns.indices.map {
                try cellText(column: $0, value: columnValues[$0][recordIndex], recordIndex: recordIndex)
            }
            let flags = try flag(&cells, recordIndex: recordIndex, highlightValues: highlightValues)
            builder.addData(cells, values: columnValues.map { $0[recordIndex] ?? .null }, flags: flags)
            for level in sums.indices { sums[level].add(recordIndex) }
            totals.add(recordIndex)
        }
        for level in open.indices.reversed() where open[level] != nil {
            try closeGroup(level, &sums[level], value: openValues[level], into: &builder)
        }
        if !report.total.isEmpty, !shown.isEmpty {
            builder.addAggregates(try aggregateCells(totals, label: RichText.escaped(strings[.total])), kind: Table.RowKind(.total))
        }
        result.rows = builder.rows
        result.values = Table.Values(rows: builder.values, formats: report.columns.map(\.format))
        result.rowKinds = builder.kinds.allSatisfy { $0 == .data } ? [] : builder.kinds
        result.highlights = builder.highlights
        result.spans = builder.spans
        result.cellLanguages = []
        return result
    }

    /// The records shown, in order: those every `where` condition holds for, sorted by their
    /// groups (`groupKeys`) and `sortBy` (a record without the value last, ties in the records'
    /// order), at most `limit` of them.
    private func shownRecords(_ fields: FieldValues, groupKeys: [[GroupKey]]) -> [Int] {
        let filterValues = report.filters.map { fields.column($0.field) }
        var shown = report.records.indices.filter { index in
            report.filters.indices.allSatisfy { report.filters[$0].holds(filterValues[$0][index]) }
        }
        let sortKeys = orderingKeys()
        if !sortKeys.isEmpty {
            let columns = sortKeys.enumerated().map { index, key in
                index < groupKeys.count ? groupKeys[index].map(\.sortValue) : fields.column(key.field).map(key.value)
            }
            shown.sort { left, right in
                for (level, key) in sortKeys.enumerated() {
                    let (a, b) = (columns[level][left], columns[level][right])
                    // A record without the value comes last whichever the direction.
                    if (a == .missing) != (b == .missing) { return b == .missing }
                    let order = ReportValue.order(a, b)
                    if order != 0 { return key.descending ? order > 0 : order < 0 }
                }
                return left < right
            }
        }
        if let limit = report.limit, shown.count > limit { shown.removeLast(shown.count - limit) }
        return shown
    }

    /// The highlight rules that hold for record `recordIndex` (`highlightValues` is each rule's
    /// field, by record): each one's label added in bold to its cell (the first for a row's), and
    /// its flag, in the rules' order.
    private func flag(
        _ cells: inout [String], recordIndex: Int, highlightValues: [[RecordValue?]]
    ) throws -> [(cell: Int?, style: TableReport.HighlightStyle)] {
        var flags: [(cell: Int?, style: TableReport.HighlightStyle)] = []
        for (ruleIndex, rule) in report.highlight.enumerated() where rule.when.holds(highlightValues[ruleIndex][recordIndex]) {
            let label = RichText.escaped(try highlightLabel(rule, index: ruleIndex))
            let cell: Int? = rule.target == .row ? nil : highlightColumn(rule)
            let place = cell ?? 0
            cells[place] += cells[place].isEmpty ? "**\(label)**" : " **\(label)**"
            flags.append((cell, rule.style))
        }
        return flags
    }

    // MARK: Fields

    /// Every field a rule names is in some record: a misspelt field is one line naming the rule.
    /// Some record has `field`, or there are no records: else one line naming the rule at `place`.
    func checkField(_ field: String, at place: String) throws {
        guard !report.records.isEmpty, !report.records.contains(where: { $0.value(at: field) != nil }) else { return }
        throw FolioError(path: "\(path).\(place)", "no record has the field \"\(field)\"")
    }

    private func checkFields() throws {
        guard !report.columns.isEmpty else {
            throw FolioError(path: "\(path).columns", "the table shows no column: name the fields to show, as columns: [medication, dose]")
        }
        guard !report.records.isEmpty else { return }
        var known: [String: Bool] = [:]
        func check(_ field: String, _ place: @autoclosure () -> String) throws {
            if known[field] == nil { known[field] = report.records.contains { $0.value(at: field) != nil } }
            guard known[field] == true else {
                throw FolioError(path: "\(path).\(place())", "no record has the field \"\(field)\"")
            }
        }
        for (index, column) in report.columns.enumerated() { try check(column.field, "columns[\(index)].field") }
        for (index, key) in report.sortBy.enumerated() { try check(key.field, "sortBy[\(index)].field") }
        for (index, level) in report.groupBy.enumerated() { try check(level.field, "groupBy[\(index)].field") }
        for (name, list) in [("subtotals", report.subtotals), ("total", report.total)] {
            for aggregate in list where !report.columns.contains(where: { $0.field == aggregate.field }) {
                throw FolioError(path: "\(path).\(name).\(aggregate.field)", "no column shows the field \"\(aggregate.field)\"")
            }
        }
        for (index, rule) in report.highlight.enumerated() {
            if rule.when.op != .absent { try check(rule.when.field, "highlight[\(index)].when.field") }
            if rule.target == .cell, highlightColumn(rule) == nil {
                throw FolioError(
                    path: "\(path).highlight[\(index)]",
                    "no column shows \"\(rule.column ?? rule.when.field)\"; name a shown field with column, or use target: row")
            }
            _ = try highlightLabel(rule, index: index)
        }
    }

    private func highlightColumn(_ rule: TableReport.HighlightRule) -> Int? {
        let field = rule.column ?? rule.when.field
        return report.columns.firstIndex { $0.field == field }
    }

    /// The rule's word: its own, else its style's (`muted` has none: colour is never the only sign).
    private func highlightLabel(_ rule: TableReport.HighlightRule, index: Int) throws -> String {
        if let label = rule.label, !label.allSatisfy(\.isWhitespace) { return label }
        switch rule.style {
        case .alert: return strings[.alert]
        case .warning: return strings[.warning]
        case .good: return strings[.good]
        case .muted:
            throw FolioError(
                path: "\(path).highlight[\(index)].label",
                "a muted highlight needs a label: colour alone does not tell a reader why (WCAG 1.4.1)")
        }
    }

    // MARK: Order

    /// What records are sorted by: each group level (in the order `sortBy` gives its field, else
    /// ascending), then the sort keys.
    private func orderingKeys() -> [OrderingKey] {
        var keys = report.groupBy.map { level in
            OrderingKey(field: level.field, descending: report.sortBy.first { $0.field == level.field }?.order == .descending)
        }
        // A field grouped by its value is sorted already; one grouped by a period still orders its records within it.
        for key in report.sortBy where !report.groupBy.contains(where: { $0.field == key.field && $0.by == .value }) {
            keys.append(OrderingKey(field: key.field, descending: key.order == .descending))
        }
        return keys
    }

    /// A sort key: a group level's (its records' groups in order) or one of `sortBy`'s.
    private struct OrderingKey {
        let field: String
        let descending: Bool

        func value(_ raw: RecordValue?) -> ReportValue { ReportValue(raw) }
    }

    // MARK: Cells

    private func cellText(column: Int, value: RecordValue?, recordIndex: Int) throws -> String {
        let field = report.columns[column].field
        guard let value else { return "" }
        return try written(value, with: columnFormats[column], place: "\(path).records[\(recordIndex)].\(field)")
    }

    /// `value` as its column writes it: through the column's filters, else numbers in the
    /// language's digits and text as it is; escaped, so data is never markup.
    func written(_ value: RecordValue, with filters: TemplateExpression?, place: String) throws -> String {
        var tree = TreeValue(value)
        if let filters {
            do {
                tree = try filters.filtered(tree, format: format, zone: zone, templatePath: place)
            } catch let error as FolioError {
                throw FolioError(path: place, error.message)
            }
        }
        switch tree {
        case .null: return ""
        case .string(let text): return RichText.escapedKeepingAddresses(text)
        case .number(let number):
            return format.string(number, decimals: number == number.rounded() ? 0 : min(NumberFormat.decimalsShown(number), 6))
        case .bool(let flag): return flag ? "true" : "false"
        case .array(let items): return RichText.escapedKeepingAddresses(items.map(\.text).joined(separator: ", "))
        case .object: return ""
        }
    }

    // MARK: Groups

    /// A group's header text ("Medication: Metformin", "Week of Nov 9, 2026") and its value alone.
    func groupTitle(_ level: Int, _ key: GroupKey, record: RecordValue) throws -> (header: String, value: String) {
        let group = report.groupBy[level]
        let value: String
        switch (group.by, key) {
        case (.value, _), (_, .other):
            let raw = record.value(at: group.field) ?? .null
            let filters = groupFormats[level] ?? report.columns.firstIndex { $0.field == group.field }.flatMap { columnFormats[$0] }
            value = try written(raw, with: filters, place: "\(path).groupBy[\(level)]")
        case (.day, .period(let day)): value = dateText(day, skeleton: "yMMMEd")
        case (.week, .period(let monday)): value = strings.format(.weekOf, ["date": dateText(monday, skeleton: "yMMMd")])
        case (.month, .period(let first)): value = dateText(first, skeleton: "yMMMM")
        case (.year, .period(let first)): value = dateText(first, skeleton: "y")
        }
        let shown = value.isEmpty ? "–" : value
        let title = group.title ?? (group.by == .value ? report.columns.first { $0.field == group.field }?.title ?? group.field : nil)
        guard let title, !title.isEmpty else { return (shown, shown) }
        return ("\(RichText.escaped(title)): \(shown)", shown)
    }

    private func dateText(_ day: Int64, skeleton: String) -> String {
        RichText.escaped(format.dateString(Double(day * 86_400), pattern: format.datePattern(skeleton: skeleton)))
    }

    private func closeGroup(_ level: Int, _ sums: inout Accumulators, value: String, into builder: inout RowBuilder) throws {
        if !report.subtotals.isEmpty {
            // The subtotal names its group: "Subtotal – Metformin" (the value is escaped already).
            let label = RichText.escaped(strings[.subtotal]) + " – " + value
            builder.addAggregates(try aggregateCells(sums, label: label), kind: Table.RowKind(.subtotal, level: level))
        }
        sums.reset()
    }

    // MARK: Aggregates

    /// A subtotal or total row: each aggregated column's value as the column writes it (a count as
    /// a whole number), the label (escaped markup) first, before the first column's value if it has one.
    private func aggregateCells(_ sums: Accumulators, label: String) throws -> [(text: String, value: RecordValue)] {
        var cells: [(text: String, value: RecordValue)] = Array(repeating: ("", .null), count: report.columns.count)
        for (column, accumulator) in sums.columns {
            guard let accumulator else { continue }
            cells[column] = (
                try aggregateText(accumulator, filters: columnFormats[column], place: "\(path).columns[\(column)].format"),
                accumulator.value
            )
        }
        if !cells.isEmpty {
            let plain = RichText(label).plainText
            if cells[0].text.isEmpty {
                cells[0] = (label, .text(plain))
            } else {
                cells[0].text = "\(label): \(cells[0].text)"
                // A spreadsheet keeps the first column's number a number: its label goes to the first empty cell.
                if let free = cells.firstIndex(where: { $0.value == .null }) { cells[free].value = .text(plain) }
            }
        }
        return cells
    }

    /// An aggregate as a cell shows it: a count as a whole number; a sum with as many decimals as its
    /// values, a mean with one more (at most 6), through `filters` when given; the least or greatest
    /// value as its column writes it; empty when there is nothing to compute.
    func aggregateText(_ running: RunningAggregate, filters: TemplateExpression?, place: String) throws -> String {
        switch running.function {
        case .count:
            return format.grouped(format.string(Double(running.count), decimals: 0))
        case .sum, .mean:
            guard case .number(let value) = running.value else { return "" }
            // Never "inf" or "NaN" in a total (values are bounded, so this is the last line of defence).
            guard value.isFinite, abs(value) < 1e300 else {
                throw FolioError(path: place, "the \(running.function.rawValue) cannot be written as a number")
            }
            if let filters { return try written(.number(value), with: filters, place: place) }
            return format.grouped(format.string(value, decimals: running.shownDecimals))
        case .min, .max:
            guard let extreme = running.function == .min ? running.least : running.most else { return "" }
            return try written(extreme.value, with: filters, place: place)
        }
    }
}

/// The rows of a report table as they are made, with what each row is and the values behind its
/// cells (what a spreadsheet of the table holds).
private struct RowBuilder {
    let columns: Int
    var rows: [[String]] = []
    var values: [[RecordValue]] = []
    var kinds: [Table.RowKind] = []
    var highlights: [Table.CellHighlight] = []
    var spans: [Table.CellSpan] = []

    init(columns: Int) { self.columns = columns }

    mutating func addGroupHeader(_ text: String, level: Int) {
        spans.append(Table.CellSpan(row: rows.count, cell: 0, span: max(1, min(columns, 64))))
        rows.append([text])
        values.append([.text(RichText(text).plainText)])
        kinds.append(Table.RowKind(.group, level: level))
    }

    mutating func addData(_ cells: [String], values row: [RecordValue], flags: [(cell: Int?, style: TableReport.HighlightStyle)]) {
        for flag in flags { highlights.append(Table.CellHighlight(row: rows.count, cell: flag.cell, style: flag.style)) }
        rows.append(cells)
        values.append(row)
        kinds.append(.data)
    }

    mutating func addAggregates(_ cells: [(text: String, value: RecordValue)], kind: Table.RowKind) {
        rows.append(cells.map(\.text))
        values.append(cells.map(\.value))
        kinds.append(kind)
    }
}

/// A group's identity: a value (compared as numbers, dates or text), or the first day of a period
/// (days since 1970 in the time's own offset).
enum GroupKey: Hashable {
    case other(ReportValue)
    case period(Int64)

    /// The key as a sort value: a period's first day as a number, a value as it is.
    var sortValue: ReportValue {
        switch self {
        case .period(let day): return .number(Double(day))
        case .other(let value): return value
        }
    }

    /// -1, 0 or 1: periods in time order, values as `ReportValue.order` has them, periods first.
    static func order(_ left: GroupKey, _ right: GroupKey) -> Int {
        switch (left, right) {
        case (.period(let a), .period(let b)): return a < b ? -1 : a > b ? 1 : 0
        case (.other(let a), .other(let b)): return ReportValue.order(a, b)
        case (.period, .other): return -1
        case (.other, .period): return 1
        }
    }

    /// The group of the value `raw` (nil: the record has none); a time's day is `zone`'s, else its own
    /// offset's. A value that is no date where a period groups is an error at `place` (the record's
    /// field) naming `rule` (the group level).
    init(
        _ level: TableReport.GroupLevel, _ raw: RecordValue?, place: @autoclosure () -> String, rule: @autoclosure () -> String,
        zone: TimeZone? = nil
    ) throws {
        guard level.by != .value else {
            self = .other(ReportValue(raw))
            return
        }
        guard case .text(let text)? = raw, let moment = TemplateFormatting.moment(text) else {
            if raw == nil || raw == .null {
                self = .other(.missing)
                return
            }
            throw FolioError(
                path: place(),
                "\(rule()) groups by \(level.by.rawValue), which needs a date such as 2026-11-14; found \(raw.map(ReportValue.describe) ?? "nothing")"
            )
        }
        let wallClock = zone.map { moment.moved(to: $0) }?.wallClock ?? moment.wallClock
        self = .period(GroupKey.periodStart(wallClock: wallClock, period: level.by))
    }

    /// The first day (days since 1970) of the period (day, week from Monday, month, year) holding the
    /// wall-clock time `wallClock` (seconds, the time's own offset applied).
    static func periodStart(wallClock: Int64, period: TableReport.GroupLevel.Period) -> Int64 {
        let day = wallClock >= 0 ? wallClock / 86_400 : (wallClock - 86_399) / 86_400
        switch period {
        case .value, .day: return day
        case .week:
            // 1970-01-01 was a Thursday: Monday is 3 days before it.
            let weekday = ((day + 3) % 7 + 7) % 7
            return day - weekday
        case .month:
            let date = CivilDate.date(day)
            return CivilDate.days(year: date.year, month: date.month, day: 1)
        case .year:
            return CivilDate.days(year: CivilDate.date(day).year, month: 1, day: 1)
        }
    }
}

/// Running aggregates of a group's (or the table's) columns.
private struct Accumulators {
    /// By column index, nil for a column without an aggregate.
    var columns: [(Int, RunningAggregate?)]
    /// The aggregated columns' values, by record.
    private let values: [[RecordValue?]]

    init(_ aggregates: [TableReport.Aggregate], columns: [TableReport.Column], fields: FieldValues) {
        self.columns = columns.enumerated().map { index, column in
            (index, aggregates.first { $0.field == column.field }.map { RunningAggregate(function: $0.function, field: column.field) })
        }
        values = self.columns.map { $0.1.map { fields.column($0.field ?? "") } ?? [] }
    }

    /// Adds record number `record`'s values.
    mutating func add(_ record: Int) {
        for index in columns.indices where columns[index].1 != nil {
            columns[index].1?.add(value: values[index][record])
        }
    }

    mutating func reset() {
        for index in columns.indices {
            guard let running = columns[index].1 else { continue }
            columns[index].1 = RunningAggregate(function: running.function, field: running.field)
        }
    }
}

extension Document {
    /// This document with every table of records made into its rows (`ReportTable`); the records
    /// are let go of. Folio's `DocumentDecoder` does this when it reads a document.
    public func expandingReports() throws -> Document {
        guard elements.contains(where: { if case .table(let table) = $0 { table.report != nil } else { false } }) else { return self }
        var document = self
        let strings = builtInStrings
        for index in document.elements.indices {
            guard case .table(let table) = document.elements[index], let report = table.report else { continue }
            try RenderDeadline.check(at: "making elements[\(index)]")
            document.elements[index] = .table(
                try ReportTable(
                    table: table, report: report, path: "elements[\(index)]", strings: strings,
                    zone: metadata.timeZone.flatMap(Metadata.zone)
                ).expanded())
        }
        return document
    }
}
