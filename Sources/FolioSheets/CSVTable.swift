import Foundation

/// A table as CSV (RFC 4180): UTF-8, comma-separated, CRLF line ends, a field quoted when it holds a
/// comma, a quote or a line break (its quotes doubled). Numbers are written plainly with a full stop
/// (machine-readable, whatever the document's language; a percentage as its fraction, 51% as 0.51), dates as their records wrote them (ISO 8601).
/// Text that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, a tab, a carriage return first)
/// is kept text with a leading apostrophe (OWASP's CSV injection advice).
package enum CSVTable {
    /// The table's header and rows as CSV bytes.
    package static func data(_ table: SheetTable) -> Data {
        var out = ""
        out.reserveCapacity(64 * (table.rows.count + 1))
        // Every line has the same fields (RFC 4180): a shorter row (a group's header) is filled out.
        let width = max(table.header.count, table.rows.map(\.count).max() ?? 0)
        func line(_ fields: [String]) {
            out += (fields + Array(repeating: "", count: max(0, width - fields.count))).map(field).joined(separator: ",")
            out += "\r\n"
        }
        line(table.header.map(safeText))
        for row in table.rows {
            line(
                row.map { cell in
                    switch cell {
                    case .empty: return ""
                    case .text(let text): return safeText(text)
                    case .number(let value, _): return number(value)
                    case .date(let date): return date.text
                    }
                })
        }
        return Data(out.utf8)
    }

    /// `text` with an apostrophe before a first character that would start a formula.
    static func safeText(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return text }
        return "'" + text
    }

    /// A number as its shortest exact decimal (`12.5`, `-3`, `1e+20` for the huge).
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    private static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
