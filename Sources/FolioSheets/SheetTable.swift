import FolioModel

/// One table as a spreadsheet holds it: its name (a sheet's tab), header, typed cells, which rows
/// are group headers, subtotals and totals (bold), and the flagged cells' colours.
package struct SheetTable: Sendable {
    /// The sheet's name, as the table's caption gives it (`SheetNames` makes it a valid, unique tab name).
    package var name: String
    /// The column titles.
    package var header: [String]
    /// The rows, each as wide as the header or narrower.
    package var rows: [[SheetCell]]
    /// The kind of each row (empty: all data).
    package var kinds: [Table.RowKind]
    /// Flagged cells (`cell` nil for the whole row) and their colours as `RRGGBB`.
    package var highlights: [Highlight]

    /// A flagged cell or row and the colours it is shown in.
    package struct Highlight: Sendable {
        package var row: Int
        package var cell: Int?
        package var text: UInt32
        package var background: UInt32?

        package init(row: Int, cell: Int?, text: UInt32, background: UInt32?) {
            self.row = row
            self.cell = cell
            self.text = text
            self.background = background
        }
    }

    package init(name: String, header: [String], rows: [[SheetCell]], kinds: [Table.RowKind] = [], highlights: [Highlight] = []) {
        self.name = name
        self.header = header
        self.rows = rows
        self.kinds = kinds
        self.highlights = highlights
    }

    /// The kind of row `index`.
    package func kind(ofRow index: Int) -> Table.RowKind { index < kinds.count ? kinds[index] : .data }
}
