import CXLSXWriter
import FolioModel
import Foundation

/// Tables as an XLSX workbook, written by libxlsxwriter: a sheet per table, its header row bold and
/// frozen, numbers as numbers (with the decimals and unit the document shows), dates as dates,
/// group headers, subtotals and totals bold, flagged cells in their colours. Rows are written in
/// order with libxlsxwriter's constant-memory mode, so a long table costs a row's memory, not the
/// sheet's.
package struct XLSXWorkbook {
    /// libxlsxwriter's entry points.
    private let api: folio_xlsx_api

    /// The workbook's bytes; `title`, `author` and `created` go to its document properties.
    package static func data(_ tables: [SheetTable], title: String, author: String?, created: Date) throws -> Data {
        guard let api = folio_xlsx()?.pointee else {
            throw FolioError(path: "", "a spreadsheet needs libxlsxwriter (Debian's libxlsxwriter4), which is not installed")
        }
        return try XLSXWorkbook(api: api).data(tables, title: title, author: author, created: created)
    }

    private func data(_ tables: [SheetTable], title: String, author: String?, created: Date) throws -> Data {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-xlsx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("workbook.xlsx").path
        try write(tables, to: path, folder: folder.path, title: title, author: author, created: created)
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    private func write(_ tables: [SheetTable], to path: String, folder: String, title: String, author: String?, created: Date) throws {
        var options = lxw_workbook_options()
        options.constant_memory = 1
        let workbook: UnsafeMutablePointer<lxw_workbook>? = folder.withCString { directory in
            options.tmpdir = UnsafeMutablePointer(mutating: directory)
            return api.workbook_new_opt(path, &options)
        }
        guard let workbook else { throw FolioError(path: "", "the spreadsheet could not be started (libxlsxwriter)") }
        var closed = false
        defer { if !closed { _ = api.workbook_close(workbook) } }

        try title.withCString { titleText in
            try (author ?? "").withCString { authorText in
                var properties = lxw_doc_properties()
                properties.title = UnsafeMutablePointer(mutating: titleText)
                if author != nil { properties.author = UnsafeMutablePointer(mutating: authorText) }
                // The document's date, not the clock's: the same document gives the same bytes.
                properties.created = time_t(created.timeIntervalSince1970.rounded(.down).clamped(to: 0...4e9))
                try check(api.workbook_set_properties(workbook, &properties), "the workbook's properties")
            }
        }
        var formats = FormatCache(api: api, workbook: workbook)
        for (table, name) in zip(tables, SheetNames.unique(tables.map(\.name))) {
            guard let sheet = api.workbook_add_worksheet(workbook, name) else {
                throw FolioError(path: "", "the sheet \"\(name)\" could not be added (libxlsxwriter)")
            }
            try write(table, to: sheet, formats: &formats)
        }
        closed = true
        try check(api.workbook_close(workbook), "the workbook")
    }

    private func write(_ table: SheetTable, to sheet: UnsafeMutablePointer<lxw_worksheet>, formats: inout FormatCache) throws {
        let columns = max(table.header.count, table.rows.prefix(1000).map(\.count).max() ?? 0)
        guard columns > 0 else { return }
        // Widths from the header and the first rows (characters, as the spreadsheet counts them).
        for column in 0..<min(columns, Int(LXW_COL_MAX)) {
            var widest = column < table.header.count ? table.header[column].count : 0
            for row in table.rows.prefix(200) where column < row.count { widest = max(widest, SheetNames.width(of: row[column])) }
            _ = api.worksheet_set_column(sheet, lxw_col_t(column), lxw_col_t(column), Double(min(max(widest + 2, 8), 60)), nil)
        }
        api.worksheet_freeze_panes(sheet, 1, 0)
        let header = formats.format(SheetFormat(bold: true, background: 0xE8E8EC))
        for (column, title) in table.header.enumerated() where column < Int(LXW_COL_MAX) {
            try check(api.worksheet_write_string(sheet, 0, lxw_col_t(column), title, header), "the header")
        }
        let highlights = Dictionary(grouping: table.highlights, by: \.row)
        for (index, row) in table.rows.enumerated() {
            let sheetRow = index + 1
            guard sheetRow < Int(LXW_ROW_MAX) else {
                throw FolioError(path: "", "a sheet holds at most \(LXW_ROW_MAX - 1) rows; \(table.name) has \(table.rows.count)")
            }
            let kind = table.kind(ofRow: index)
            let flags = highlights[index] ?? []
            for (column, cell) in row.enumerated() where column < Int(LXW_COL_MAX) {
                var style = SheetFormat(bold: kind.role != .data)
                if let flag = flags.last(where: { $0.cell == column }) ?? flags.last(where: { $0.cell == nil }) {
                    style.color = flag.text
                    style.background = flag.background
                }
                let r = lxw_row_t(sheetRow)
                let c = lxw_col_t(column)
                switch cell {
                case .empty:
                    if style != SheetFormat() { try check(api.worksheet_write_blank(sheet, r, c, formats.format(style)), "a blank cell") }
                case .text(let text):
                    try check(api.worksheet_write_string(sheet, r, c, text, formats.format(style)), "a text cell")
                case .number(let value, let numberStyle):
                    guard value.isFinite else { continue }
                    style.numberFormat = numberStyle.excelFormat
                    try check(api.worksheet_write_number(sheet, r, c, value, formats.format(style)), "a number cell")
                case .date(let date):
                    guard (1900...9999).contains(date.year) else {
                        try check(api.worksheet_write_string(sheet, r, c, date.text, formats.format(style)), "a date cell")
                        continue
                    }
                    let seconds = date.secondOfDay ?? 0
                    var value = lxw_datetime(
                        year: Int32(date.year), month: Int32(date.month), day: Int32(date.day), hour: Int32(seconds / 3600),
                        min: Int32(seconds / 60 % 60), sec: Double(seconds % 60))
                    style.numberFormat = date.secondOfDay == nil ? "yyyy-mm-dd" : "yyyy-mm-dd hh:mm"
                    try check(api.worksheet_write_datetime(sheet, r, c, &value, formats.format(style)), "a date cell")
                }
            }
        }
    }

    private func check(_ error: lxw_error, _ what: String) throws {
        guard error != LXW_NO_ERROR else { return }
        let reason = api.strerror(error).map { String(cString: $0) } ?? "error \(error.rawValue)"
        throw FolioError(path: "", "\(what) could not be written to the spreadsheet: \(reason)")
    }
}

/// What a cell's format sets: bold, a number format, text and background colours.
private struct SheetFormat: Hashable {
    var bold = false
    var numberFormat: String?
    var color: UInt32?
    var background: UInt32?
}

/// Each distinct format made once (the workbook owns them).
private struct FormatCache {
    let api: folio_xlsx_api
    let workbook: UnsafeMutablePointer<lxw_workbook>
    var made: [SheetFormat: UnsafeMutablePointer<lxw_format>] = [:]

    init(api: folio_xlsx_api, workbook: UnsafeMutablePointer<lxw_workbook>) {
        self.api = api
        self.workbook = workbook
    }

    mutating func format(_ style: SheetFormat) -> UnsafeMutablePointer<lxw_format>? {
        if style == SheetFormat() { return nil }
        if let known = made[style] { return known }
        guard let format = api.workbook_add_format(workbook) else { return nil }
        if style.bold { api.format_set_bold(format) }
        if let numberFormat = style.numberFormat { api.format_set_num_format(format, numberFormat) }
        if let color = style.color { api.format_set_font_color(format, color) }
        if let background = style.background {
            api.format_set_pattern(format, UInt8(LXW_PATTERN_SOLID.rawValue))
            api.format_set_bg_color(format, background)
        }
        made[style] = format
        return format
    }
}

extension Double {
    fileprivate func clamped(to range: ClosedRange<Double>) -> Double { Swift.min(Swift.max(self, range.lowerBound), range.upperBound) }
}
