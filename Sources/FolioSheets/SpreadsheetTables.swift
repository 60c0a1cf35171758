import FolioData
import FolioGraphics
import FolioModel
import FolioTemplate
import Foundation

/// A document's tables as spreadsheet tables: typed cells (numbers with the decimals and unit the
/// document shows, percentages, dates and times as dates), group headers, subtotals and totals,
/// flagged cells in the theme's colours. A table made from records keeps its records' values; a
/// table of written rows has each cell read from its text (`128`, `5.4`, `51%`, `2026-11-14`).
enum SpreadsheetTables {
    /// Every table of `document` (validated), in order; an error naming nothing when it has none.
    static func tables(of document: Document) throws -> [SheetTable] {
        try document.validate()
        let tables = document.elements.compactMap { block -> Table? in
            if case .table(let table) = block { return table }
            return nil
        }
        guard !tables.isEmpty else {
            throw FolioError(path: "elements", "the document has no table to write as a spreadsheet (xlsx and csv hold tables)")
        }
        let colors = Theme.standard.applying(document.theme, logo: nil).highlights
        let zone = document.metadata.timeZone.flatMap(Metadata.zone)
        return tables.enumerated().map { index, table in sheet(table, number: index + 1, colors: colors, zone: zone) }
    }

    /// One table as a sheet named by its caption (else "Table N").
    static func sheet(
        _ table: Table, number: Int, colors: [TableReport.HighlightStyle: Theme.HighlightColors], zone: TimeZone? = nil
    ) -> SheetTable {
        let plain = { (cell: String) in RichText.mayHoldMarkup(cell) ? RichText(cell).plainText : cell }
        let columns = table.columnCount
        let header = (table.header ?? []).map(plain)
        var rows: [[SheetCell]] = []
        rows.reserveCapacity(table.rows.count)
        if let values = table.values {
            let styles = values.formats.map { CellFormat($0, zone: zone) }
            for row in values.rows {
                rows.append(
                    row.enumerated().map { column, value in
                        cell(value, format: column < styles.count ? styles[column] : CellFormat(nil, zone: zone))
                    })
            }
        } else {
            for row in table.rows {
                rows.append(Array(row.prefix(columns)).map { inferred(plain($0)) })
            }
        }
        // A cell spanning columns (a group's header, a subtotal's label) keeps the cells after it
        // under their own columns: the columns it covers are empty cells in the sheet.
        if !table.spans.isEmpty {
            var spans: [Int: [Int: Int]] = [:]
            for span in table.spans { spans[span.row, default: [:]][span.cell] = span.span }
            for (index, row) in rows.enumerated() {
                guard let rowSpans = spans[index] else { continue }
                var placed: [SheetCell] = []
                for (cell, value) in row.enumerated() {
                    placed.append(value)
                    let span = min(max(rowSpans[cell] ?? 1, 1), 64)
                    if span > 1 { placed += Array(repeating: .empty, count: span - 1) }
                }
                rows[index] = Array(placed.prefix(max(columns, row.count)))
            }
        }
        let highlights = table.highlights.map { flag in
            SheetTable.Highlight(
                row: flag.row, cell: flag.cell, text: rgb(colors[flag.style]?.text),
                background: colors[flag.style]?.background.map { rgb($0) })
        }
        return SheetTable(
            name: table.caption.map(plain) ?? "Table \(number)", header: header, rows: rows, kinds: table.rowKinds, highlights: highlights)
    }

    private static func rgb(_ color: Color?) -> UInt32 {
        guard let color else { return 0 }
        func channel(_ value: Double) -> UInt32 { UInt32((min(max(value, 0), 1) * 255).rounded()) }
        return channel(color.red) << 16 | channel(color.green) << 8 | channel(color.blue)
    }

    /// A record's value as its column shows it: a number with the column's decimals, grouping,
    /// percent and unit; a date or time (moved to the column's zone, if it names one) as a date.
    static func cell(_ value: RecordValue, format: CellFormat) -> SheetCell {
        switch value {
        case .null, .object: return .empty
        case .bool(let flag): return .text(flag ? "true" : "false")
        case .list(let items): return .text(items.map { TreeValue($0).text }.joined(separator: ", "))
        case .number(let number): return number.isFinite ? .number(number, format.numberStyle) : .empty
        case .text(let text):
            if let date = date(text, zone: format.zone) { return .date(date) }
            if let number = ReportValue.numeric(text) { return .number(number, format.numberStyle) }
            return .text(text)
        }
    }

    /// A written cell read for what it is: a number, a percentage, a date, else its text.
    static func inferred(_ text: String) -> SheetCell {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return .empty }
        if let number = ReportValue.numeric(trimmed) {
            let decimals = trimmed.split(separator: ".").dropFirst().first?.count ?? 0
            return .number(number, SheetNumberStyle(decimals: decimals))
        }
        if trimmed.hasSuffix("%"), let number = ReportValue.numeric(String(trimmed.dropLast()).trimmingCharacters(in: .whitespaces)) {
            let decimals = trimmed.dropLast().split(separator: ".").dropFirst().first?.count ?? 0
            return .number(number / 100, SheetNumberStyle(decimals: decimals, percent: true))
        }
        if let date = date(trimmed, zone: nil) { return .date(date) }
        return .text(text)
    }

    /// An ISO 8601 date or time as the wall clock of its own offset (or of `zone`).
    private static func date(_ text: String, zone: TimeZone?) -> SheetDate? {
        guard let moment = TemplateFormatting.moment(text) else { return nil }
        let wall = zone.map { moment.moved(to: $0) }?.wallClock ?? moment.wallClock
        let day = wall >= 0 ? wall / 86_400 : (wall - 86_399) / 86_400
        let civil = CivilDate.date(day)
        return SheetDate(
            year: civil.year, month: civil.month, day: civil.day, secondOfDay: moment.hasTime ? Int(wall - day * 86_400) : nil, text: text)
    }
}

/// What a column's template filters say about its numbers and dates: decimals (`number: 1`,
/// `fixed: 2`, `round: 0`), grouping (`number`, `thousands`), a percentage (`percent`), a unit
/// (`unit: mg`) and a zone (`zone: Europe/Paris`).
struct CellFormat {
    var numberStyle = SheetNumberStyle.plain
    var zone: TimeZone?

    /// The format `filters` give, times shown in `zone` (the document's) unless a filter names another.
    init(_ filters: String?, zone: TimeZone? = nil) {
        self.zone = zone
        guard let filters else { return }
        for part in filters.split(separator: "|") {
            let pieces = part.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let argument = pieces.count > 1 ? pieces[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"'")) : nil
            switch pieces.first ?? "" {
            case "number":
                numberStyle.grouped = true
                numberStyle.decimals = argument.flatMap { Int($0) } ?? 0
            case "fixed", "round": numberStyle.decimals = argument.flatMap { Int($0) } ?? (pieces.first == "fixed" ? 1 : 0)
            case "thousands":
                numberStyle.grouped = true
                numberStyle.decimals = 0
            case "percent":
                numberStyle.percent = true
                numberStyle.decimals = argument.flatMap { Int($0) } ?? 0
            case "unit": numberStyle.unit = argument
            case "zone": self.zone = argument.flatMap(Metadata.zone) ?? self.zone
            default: continue
            }
        }
        if let decimals = numberStyle.decimals { numberStyle.decimals = min(max(decimals, 0), 10) }
    }
}

extension Document {
    /// The document's tables as an XLSX workbook (a sheet per table, written by libxlsxwriter): typed
    /// cells, the header row bold and frozen, group headers and totals bold, flagged cells coloured.
    public func xlsx() throws -> Data {
        try XLSXWorkbook.data(
            SpreadsheetTables.tables(of: self), title: displayTitle(strings: builtInStrings), author: metadata.author,
            created: try DocumentDate.resolve(metadata))
    }

    /// The document's tables as CSV files (RFC 4180, UTF-8), one per table, in order.
    public func csvTables() throws -> [Data] {
        try SpreadsheetTables.tables(of: self).map(CSVTable.data)
    }
}
