/// A table of text cells with an optional header row, repeated on every page it spans.
public struct Table: Sendable, Hashable, Codable {
    /// Horizontal alignment of a column's cells.
    public enum Alignment: String, Sendable, Hashable, Codable, CaseIterable, NamedOption {
        case left, center, right
    }

    /// Column titles, or nil for a table without a header row.
    public var header: [String]?
    /// Data rows; short rows are padded with empty cells.
    public var rows: [[String]]
    /// Alignment per column; missing entries are `left`.
    public var align: [Alignment]
    /// Shade every other row.
    public var zebra: Bool
    /// Text under the table.
    public var caption: String?
    /// Caption over the parts after a page break, such as "Medications (continued)"; by default the
    /// caption's first five words and the document language's "(continued)".
    public var continuedCaption: String?
    /// Column widths: points or lengths, percentages of the width (`"25%"`), or nil for "from the content".
    public var widths: [ColumnWidth]?
    /// Cells that cover more than one column.
    public var spans: [CellSpan]
    /// True moves the table whole to the next page rather than split its rows over two (a short
    /// table of doses read together); a table longer than a page still splits.
    public var keepTogether: Bool?
    /// The cells' language when it is not the document's (a BCP 47 tag); a cell's own (`{text, language}`)
    /// comes first, and a cell whose script leaves no doubt (Arabic in an English table) is found without one.
    public var language: String?
    /// Cells in a language of their own, written `{text, language}`.
    public var cellLanguages: [CellLanguage] = []
    /// Cells holding a sparkline, written `{sparkline: [5.1, 6.2, null, 7.0]}` (with `text`, the words
    /// beside it; by default its last value and range).
    public var sparklines: [CellSparkline] = []

    /// A small line of a row's values in cell `cell` of row `row`.
    public struct CellSparkline: Sendable, Hashable, Codable {
        /// The row.
        public var row: Int
        /// The cell's index in its row.
        public var cell: Int
        /// The values in order; nil is a gap.
        public var values: [Double?]

        /// A sparkline of `values` in cell `cell` of `row`.
        public init(row: Int, cell: Int, values: [Double?]) {
            self.row = row
            self.cell = cell
            self.values = values
        }
    }
    /// The records the rows are made from, and how (`records`, `columns`, `groupBy`, `total`, …); nil for a
    /// table of written rows. Folio's `DocumentDecoder` makes the rows from it (`ReportTable`).
    public var report: TableReport?
    /// What each row is (a record, a group's header, a subtotal, the total); empty when every row is data.
    public var rowKinds: [RowKind] = []
    /// Cells and rows flagged by a highlight rule, in row order.
    public var highlights: [CellHighlight] = []
    /// The values behind a table of records' cells, for spreadsheets (numbers and dates kept as such);
    /// nil for a table of written rows, whose cells are read from their text.
    public var values: Values?

    /// The values behind each cell of a table made from records, and each column's template filters.
    public struct Values: Sendable, Hashable {
        /// One list per row (as many as `rows`), a value per column; a group header's row holds its text.
        public var rows: [[RecordValue]]
        /// Each column's `format` filters, nil where it has none.
        public var formats: [String?]

        /// `rows` of values, written by `formats`.
        public init(rows: [[RecordValue]], formats: [String?]) {
            self.rows = rows
            self.formats = formats
        }
    }

    /// What a row of a table is, and at which group level (0 outermost) for group headers and subtotals.
    public struct RowKind: Sendable, Hashable, Codable {
        /// The row's role.
        public enum Role: String, Sendable, Hashable, Codable, CaseIterable, NamedOption {
            /// A record.
            case data
            /// The header row of a group: one cell across the table.
            case group
            /// The aggregates of the group that ends here.
            case subtotal
            /// The aggregates of the whole table (its foot).
            case total
        }

        /// The role.
        public var role: Role
        /// The group level of a group header or subtotal (0 outermost); 0 otherwise.
        public var level: Int

        /// A row of `role` at `level`.
        public init(_ role: Role, level: Int = 0) {
            self.role = role
            self.level = level
        }

        /// A record's row.
        public static let data = RowKind(.data)
    }

    /// A flagged cell (or row, `cell` nil): the theme's named style colours it, and its text already
    /// holds the rule's word.
    public struct CellHighlight: Sendable, Hashable, Codable {
        /// The row.
        public var row: Int
        /// The cell's index in its row, or nil for the whole row.
        public var cell: Int?
        /// The named style.
        public var style: TableReport.HighlightStyle

        /// Flags `cell` of `row` (the row when nil) in `style`.
        public init(row: Int, cell: Int?, style: TableReport.HighlightStyle) {
            self.row = row
            self.cell = cell
            self.style = style
        }
    }

    /// The kind of row `index`.
    package func kind(ofRow index: Int) -> RowKind { index < rowKinds.count ? rowKinds[index] : .data }

    /// A cell in another language: cell `cell` (counted in the row's list) of row `row`, -1 for the header.
    public struct CellLanguage: Sendable, Hashable, Codable {
        /// The row (-1 for the header).
        public var row: Int
        /// The cell's index in its row.
        public var cell: Int
        /// Its BCP 47 language tag.
        public var language: String

        /// Cell `cell` of `row` in `language`.
        public init(row: Int, cell: Int, language: String) {
            self.row = row
            self.cell = cell
            self.language = language
        }
    }

    /// What places a row's cells: the spans and languages by row, then by cell index, and the table's language.
    package struct CellLookup: Sendable {
        /// Columns covered by cells wider than one.
        package var spans: [Int: [Int: Int]]
        /// Languages of cells that name one.
        package var languages: [Int: [Int: String]]
        /// The table's language, for cells that name none.
        package var language: String?
        /// Sparklines by row, then by cell index.
        package var sparklines: [Int: [Int: [Double?]]] = [:]
    }

    /// A cell across `span` columns: cell `cell` (counted in the row's list) of row `row`, -1 for the header.
    public struct CellSpan: Sendable, Hashable, Codable {
        /// The row (-1 for the header).
        public var row: Int
        /// The cell's index in its row.
        public var cell: Int
        /// How many columns the cell covers.
        public var span: Int

        /// A span of `span` columns from `cell` in `row`.
        public init(row: Int, cell: Int, span: Int) {
            self.row = row
            self.cell = cell
            self.span = span
        }
    }

    /// A cell as laid out: its text, first column and number of columns.
    package struct Slot: Sendable, Hashable {
        /// The cell's text.
        package var text: String
        /// The first column it covers.
        package var column: Int
        /// How many columns it covers.
        package var span: Int
        /// The language its author gave it (its own, else the table's).
        package var language: String?
        /// The values of the sparkline drawn before its text, if it has one.
        package var sparkline: [Double?]?

        /// A cell at `column` covering `span` columns, in `language` when the author named one.
        package init(text: String, column: Int, span: Int, language: String? = nil, sparkline: [Double?]? = nil) {
            self.text = text
            self.column = column
            self.span = span
            self.language = language
            self.sparkline = sparkline
        }
    }

    /// One column's width.
    public enum ColumnWidth: Sendable, Hashable, Codable {
        case fixed(Length)
        case percent(Double)
        case auto

        /// Decodes the value from a document, as written in JSON or YAML.
        public init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                let trimmed = text.trimmingWhitespace()
                if trimmed == "auto" {
                    self = .auto
                    return
                }
                if trimmed.hasSuffix("%"), let value = Double(trimmed.dropLast()), value > 0, value <= 100 {
                    self = .percent(value)
                    return
                }
            }
            self = .fixed(try container.decode(Length.self))
        }

        /// Encodes the value as a document writes it.
        public func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .fixed(let length): try container.encode(length)
            case .percent(let value): try container.encode("\(value)%")
            case .auto: try container.encode("auto")
            }
        }
    }

    /// A table with a header row and rows, as CareKit's `OCKDocumentElementTable(headers:rows:)` named them.
    public init(headers: [String], rows: [[String]]) {
        self.init(header: headers, rows: rows)
    }

    /// A table with an optional header row, rows of strings, alignment, zebra stripes, spans and caption.
    public init(
        header: [String]? = nil, rows: [[String]], align: [Alignment] = [], zebra: Bool = true,
        caption: String? = nil, continuedCaption: String? = nil, widths: [ColumnWidth]? = nil, spans: [CellSpan] = []
    ) {
        self.header = header
        self.rows = rows
        self.align = align
        self.zebra = zebra
        self.caption = caption
        self.continuedCaption = continuedCaption
        self.widths = widths
        self.spans = spans
    }

    /// Number of columns: the widest of the header and the rows, spans counted.
    package var columnCount: Int {
        guard !spans.isEmpty else { return rows.reduce(header?.count ?? 0) { max($0, $1.count) } }
        let lookup = spanLookup
        var widest = header.map { width(of: $0, row: -1, lookup) } ?? 0
        for (index, row) in rows.enumerated() { widest = max(widest, width(of: row, row: index, lookup)) }
        return widest
    }

    /// Spans by row, then by cell index.
    package var spanLookup: [Int: [Int: Int]] {
        var lookup: [Int: [Int: Int]] = [:]
        for span in spans { lookup[span.row, default: [:]][span.cell] = span.span }
        return lookup
    }

    private func width(of cells: [String], row: Int, _ lookup: [Int: [Int: Int]]) -> Int {
        guard let spans = lookup[row] else { return cells.count }
        return cells.indices.reduce(0) { $0 + (spans[$1] ?? 1) }
    }

    /// Spans and languages by row and cell, and the table's language.
    package var cellLookup: CellLookup {
        var languages: [Int: [Int: String]] = [:]
        for entry in cellLanguages { languages[entry.row, default: [:]][entry.cell] = entry.language }
        var lines: [Int: [Int: [Double?]]] = [:]
        for entry in sparklines { lines[entry.row, default: [:]][entry.cell] = entry.values }
        return CellLookup(spans: spanLookup, languages: languages, language: language, sparklines: lines)
    }

    /// The cells of `cells` (row `row`, -1 for the header) placed in `columns` columns;
    /// a short row ends with empty cells, a too-long span is cut at the last column.
    package static func slots(_ cells: [String], row: Int, columns: Int, lookup: CellLookup) -> [Slot] {
        var slots: [Slot] = []
        var column = 0
        let spans = lookup.spans[row]
        let languages = lookup.languages[row]
        let lines = lookup.sparklines[row]
        for (index, text) in cells.enumerated() where column < columns {
            let span = min(spans?[index] ?? 1, columns - column)
            slots.append(
                Slot(text: text, column: column, span: span, language: languages?[index] ?? lookup.language, sparkline: lines?[index]))
            column += span
        }
        while column < columns {
            slots.append(Slot(text: "", column: column, span: 1))
            column += 1
        }
        return slots
    }

    /// The alignment of column `index`.
    package func alignment(ofColumn index: Int) -> Alignment {
        index < align.count ? align[index] : .left
    }

    fileprivate enum CodingKeys: String, CodingKey {
        case header, rows, align, zebra, caption, continuedCaption, widths, spans, keepTogether, language, cellLanguages, sparklines
        case rowKinds, highlights
        case records, columns
        case filters = "where"
        case sortBy, groupBy, limit, subtotals, total, highlight, crosstab
    }

    /// Decodes the value from a document, as written in JSON or YAML.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let headerRow = try container.decodeIfPresent(LenientRow.self, forKey: .header)
        header = headerRow?.cells
        if container.contains(.records) {
            report = try TableReport(from: container)
        }
        let bodyRows = report != nil && !container.contains(.rows) ? [] : try container.decode([LenientRow].self, forKey: .rows)
        rows = bodyRows.map(\.cells)
        var spans = try container.decodeIfPresent([CellSpan].self, forKey: .spans) ?? []
        for (cell, span) in headerRow?.spans ?? [:] { spans.append(CellSpan(row: -1, cell: cell, span: span)) }
        for (index, row) in bodyRows.enumerated() {
            for (cell, span) in row.spans { spans.append(CellSpan(row: index, cell: cell, span: span)) }
        }
        self.spans = spans.sorted { ($0.row, $0.cell) < ($1.row, $1.cell) }
        var cellLanguages = try container.decodeIfPresent([CellLanguage].self, forKey: .cellLanguages) ?? []
        for (cell, language) in headerRow?.languages ?? [:] { cellLanguages.append(CellLanguage(row: -1, cell: cell, language: language)) }
        for (index, row) in bodyRows.enumerated() {
            for (cell, language) in row.languages { cellLanguages.append(CellLanguage(row: index, cell: cell, language: language)) }
        }
        self.cellLanguages = cellLanguages.sorted { ($0.row, $0.cell) < ($1.row, $1.cell) }
        var sparklines = try container.decodeIfPresent([CellSparkline].self, forKey: .sparklines) ?? []
        for (index, row) in bodyRows.enumerated() {
            for (cell, values) in row.sparklines { sparklines.append(CellSparkline(row: index, cell: cell, values: values)) }
        }
        self.sparklines = sparklines.sorted { ($0.row, $0.cell) < ($1.row, $1.cell) }
        language = try container.decodeIfPresent(.language)
        align = try container.decode(.align, default: [])
        zebra = try container.decode(.zebra, default: true)
        // An empty caption (a template's value that was not there) is no caption.
        caption = try container.decodeIfPresent(String.self, forKey: .caption).flatMap {
            $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0
        }
        if (try? container.decodeIfPresent(Bool.self, forKey: .continuedCaption)) != nil {
            // true (or false): the default, the caption's first words and the document language's "continued".
            continuedCaption = nil
        } else {
            continuedCaption = try container.decodeIfPresent(.continuedCaption)
        }
        widths = try container.decodeIfPresent(.widths)
        keepTogether = try container.decodeIfPresent(.keepTogether)
        rowKinds = try container.decode(.rowKinds, default: [])
        highlights = try container.decode(.highlights, default: [])
    }

    /// Encodes the table as a document writes it.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(header, forKey: .header)
        try container.encode(rows, forKey: .rows)
        try container.encode(align, forKey: .align)
        try container.encode(zebra, forKey: .zebra)
        try container.encodeIfPresent(caption, forKey: .caption)
        try container.encodeIfPresent(continuedCaption, forKey: .continuedCaption)
        try container.encodeIfPresent(widths, forKey: .widths)
        try container.encode(spans, forKey: .spans)
        try container.encodeIfPresent(keepTogether, forKey: .keepTogether)
        try container.encodeIfPresent(language, forKey: .language)
        try container.encode(cellLanguages, forKey: .cellLanguages)
        if !sparklines.isEmpty { try container.encode(sparklines, forKey: .sparklines) }
        if !rowKinds.isEmpty { try container.encode(rowKinds, forKey: .rowKinds) }
        if !highlights.isEmpty { try container.encode(highlights, forKey: .highlights) }
        guard let report else { return }
        try container.encode(report.records, forKey: .records)
        try container.encode(report.columns, forKey: .columns)
        if !report.filters.isEmpty { try container.encode(report.filters, forKey: .filters) }
        if !report.sortBy.isEmpty { try container.encode(report.sortBy, forKey: .sortBy) }
        if !report.groupBy.isEmpty { try container.encode(report.groupBy, forKey: .groupBy) }
        try container.encodeIfPresent(report.limit, forKey: .limit)
        func aggregates(_ list: [TableReport.Aggregate], _ key: CodingKeys) throws {
            guard !list.isEmpty else { return }
            var mapping = container.nestedContainer(keyedBy: AnyKey.self, forKey: key)
            for aggregate in list { try mapping.encode(aggregate.function, forKey: AnyKey(stringValue: aggregate.field)) }
        }
        try aggregates(report.subtotals, .subtotals)
        try aggregates(report.total, .total)
        if !report.highlight.isEmpty { try container.encode(report.highlight, forKey: .highlight) }
        try container.encodeIfPresent(report.crosstab, forKey: .crosstab)
    }
}

extension TableReport {
    /// The members of the first hundred records, in the order first met.
    static func fields(of records: [RecordValue]) -> [String] {
        var fields: [String] = []
        var seen: Set<String> = []
        for record in records.prefix(100) {
            guard case .object(let members) = record else { continue }
            for member in members where seen.insert(member.key).inserted { fields.append(member.key) }
        }
        return fields
    }

    /// The report's keys of a table block, read beside its `records`.
    fileprivate init(from container: KeyedDecodingContainer<Table.CodingKeys>) throws {
        let records = try container.decode([RecordValue].self, forKey: .records)
        guard records.count <= InputLimits.tableRows else {
            throw DecodingError.dataCorruptedError(
                forKey: .records, in: container, debugDescription: "has \(records.count) records; at most \(InputLimits.tableRows)")
        }
        // Without columns, every field of the records (of the first hundred, in the order first met).
        let columns =
            try container.decodeIfPresent([Column].self, forKey: .columns) ?? TableReport.fields(of: records).map { Column(field: $0) }
        let limit: Int? = try container.decodeIfPresent(.limit)
        if let limit, limit < 0 {
            throw DecodingError.dataCorruptedError(forKey: .limit, in: container, debugDescription: "expected 0 or more records")
        }
        // By column field; their order is the columns'.
        func aggregates(_ key: Table.CodingKeys) throws -> [Aggregate] {
            let mapping: [String: Aggregate.Function] = try container.decode(key, default: [:])
            return mapping.sorted { $0.key < $1.key }.map { Aggregate(field: $0.key, function: $0.value) }
        }
        self.init(
            records: records, columns: columns, filters: try container.decode(.filters, default: []),
            sortBy: try container.decode(.sortBy, default: []), groupBy: try container.decode(.groupBy, default: []), limit: limit,
            subtotals: try aggregates(.subtotals), total: try aggregates(.total), highlight: try container.decode(.highlight, default: []),
            crosstab: try container.decodeIfPresent(.crosstab))
    }
}

extension Table: BlockContent {
    /// `table`.
    package static let kind = Block.Kind.table
    /// The header's and every row's cells, without their markup.
    package var textContent: [String] {
        ((header ?? []) + rows.flatMap { $0 }).map { RichText.mayHoldMarkup($0) ? RichText($0).plainText : $0 }
    }
    /// The cells with markup, whose internal links must name an anchor.
    package var linkedTexts: [(text: RichText, field: String)] { cellTexts(holding: "](#") }
    /// The cells citing footnotes (`[^id]`), header first, row by row.
    package var notedTexts: [(text: RichText, field: String)] { cellTexts(holding: "[^") }

    /// The header's and rows' cells whose text holds `marker`, read as rich text, with their fields.
    private func cellTexts(holding marker: String) -> [(text: RichText, field: String)] {
        var texts: [(text: RichText, field: String)] = []
        for (index, cell) in (header ?? []).enumerated() where cell.contains(marker) {
            texts.append((RichText(cell), "header[\(index)]"))
        }
        for (rowIndex, row) in rows.enumerated() {
            for (index, cell) in row.enumerated() where cell.contains(marker) {
                texts.append((RichText(cell), "rows[\(rowIndex)][\(index)]"))
            }
        }
        return texts
    }
    /// A table splits between pages: it cannot stand in a column.
    package static var standsInColumns: Bool { false }
    /// Whether `keepTogether` is true.
    package var keepsTogether: Bool { keepTogether ?? false }
}
