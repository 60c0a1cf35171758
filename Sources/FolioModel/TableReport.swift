/// A table made from records: which fields are its columns, how rows are filtered, sorted,
/// grouped and totalled, and which cells are flagged. Written on a table block beside `records`
/// (`columns`, `where`, `sortBy`, `groupBy`, `limit`, `subtotals`, `total`, `highlight`); Folio
/// turns it into header, rows, group and total rows before layout, so the PDF, the HTML and the
/// spreadsheet show one table.
public struct TableReport: Sendable, Hashable {
    /// The records, one object per row before filtering.
    public var records: [RecordValue]
    /// The columns, in order.
    public var columns: [Column]
    /// Conditions every shown record meets (all of them).
    public var filters: [Condition]
    /// Sort keys, the first deciding first; records keep their order where all keys tie.
    public var sortBy: [SortKey]
    /// Group levels, outermost first.
    public var groupBy: [GroupLevel]
    /// At most this many records are shown (after filtering and sorting).
    public var limit: Int?
    /// Aggregates under each group, by column field.
    public var subtotals: [Aggregate]
    /// Aggregates at the end of the table, by column field.
    public var total: [Aggregate]
    /// Rules that flag cells or rows by their values.
    public var highlight: [HighlightRule]
    /// A cross-tabulation instead of a row per record: one row per value of a field, one column per
    /// value of another, each cell an aggregate of the records with both.
    public var crosstab: Crosstab?

    /// A report over `records` showing `columns`.
    public init(
        records: [RecordValue], columns: [Column], filters: [Condition] = [], sortBy: [SortKey] = [], groupBy: [GroupLevel] = [],
        limit: Int? = nil, subtotals: [Aggregate] = [], total: [Aggregate] = [], highlight: [HighlightRule] = [],
        crosstab: Crosstab? = nil
    ) {
        self.records = records
        self.columns = columns
        self.filters = filters
        self.sortBy = sortBy
        self.groupBy = groupBy
        self.limit = limit
        self.subtotals = subtotals
        self.total = total
        self.highlight = highlight
        self.crosstab = crosstab
    }

    /// Rows × columns from records: `{rows: medication, columns: {field: given, by: week}, value: dose,
    /// aggregate: sum}`; a total for each row and each column.
    public struct Crosstab: Sendable, Hashable, Codable {
        /// The field whose values are the rows (a date's day, week, month or year with `by`).
        public var rows: GroupLevel
        /// The field whose values are the columns.
        public var columns: GroupLevel
        /// The field aggregated in each cell; the records are counted without one.
        public var value: String?
        /// What each cell computes (`count` without a value, `sum` with one, when absent).
        public var aggregate: Aggregate.Function?
        /// Template filters that write each cell's number (`number: 1 | unit: mg`).
        public var format: String?

        /// A cross-tabulation of `rows` × `columns`.
        public init(
            rows: GroupLevel, columns: GroupLevel, value: String? = nil, aggregate: Aggregate.Function? = nil, format: String? = nil
        ) {
            self.rows = rows
            self.columns = columns
            self.value = value
            self.aggregate = aggregate
            self.format = format
        }

        /// The computation: the one written, else `sum` of a value or `count` of records.
        public var function: Aggregate.Function { aggregate ?? (value == nil ? .count : .sum) }
    }

    /// One column: the record field it shows, its title and how its values are written.
    public struct Column: Sendable, Hashable, Codable {
        /// A dotted path into the record (`dose.value`).
        public var field: String
        /// The header text; the field's name when absent.
        public var title: String?
        /// Template filters that write the value, as in a placeholder: `number: 1 | unit: mg`,
        /// `date: weekdaytime`, `zone: Europe/Paris | date: short`.
        public var format: String?
        /// The column's alignment; numbers are right-aligned when absent.
        public var align: Table.Alignment?

        /// A column showing `field` under `title`, written with `format`.
        public init(field: String, title: String? = nil, format: String? = nil, align: Table.Alignment? = nil) {
            self.field = field
            self.title = title
            self.format = format
            self.align = align
        }

        /// Decodes `{field, title, format, align}` or a field's name alone.
        public init(from decoder: Decoder) throws {
            if let field = try? decoder.singleValueContainer().decode(String.self) {
                self.init(field: field)
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                field: try container.decode(String.self, forKey: .field), title: try container.decodeIfPresent(.title),
                format: try container.decodeIfPresent(.format), align: try container.decodeIfPresent(.align))
        }
    }

    /// A comparison: `{field, op, value}`. A record without the field never meets it.
    public struct Condition: Sendable, Hashable, Codable {
        /// How the field is compared.
        public enum Operator: String, Sendable, Hashable, Codable, CaseIterable, NamedOption {
            /// The field equals the value.
            case equal = "=="
            /// The field differs from the value.
            case notEqual = "!="
            /// The field is less than the value.
            case less = "<"
            /// The field is at most the value.
            case lessOrEqual = "<="
            /// The field is greater than the value.
            case greater = ">"
            /// The field is at least the value.
            case greaterOrEqual = ">="
            /// The field's text holds the value's (ignoring case), or its list holds the value.
            case contains
            /// The record has the field (not null).
            case present
            /// The record lacks the field (or it is null).
            case absent
            /// One of a list of values (`value: [a, b]`).
            case oneOf = "in"
        }

        /// The dotted path of the field compared.
        public var field: String
        /// The comparison.
        public var op: Operator
        /// What the field is compared with (a list for `in`; nothing for `present` and `absent`).
        public var value: RecordValue?

        /// `field op value`.
        public init(field: String, op: Operator, value: RecordValue? = nil) {
            self.field = field
            self.op = op
            self.value = value
        }
    }

    /// One sort key: `{field, order}` or the field's name, `-field` for descending.
    public struct SortKey: Sendable, Hashable, Codable {
        /// Ascending or descending.
        public enum Order: String, Sendable, Hashable, Codable, CaseIterable, NamedOption {
            /// Smallest (earliest, first in order) first.
            case ascending
            /// Largest (latest) first.
            case descending
        }

        /// The dotted path of the field sorted by.
        public var field: String
        /// The direction.
        public var order: Order

        /// Sorts by `field` in `order`.
        public init(field: String, order: Order = .ascending) {
            self.field = field
            self.order = order
        }

        /// Decodes `{field, order}`, `field` or `-field`.
        public init(from decoder: Decoder) throws {
            if let word = try? decoder.singleValueContainer().decode(String.self) {
                self.init(
                    field: word.hasPrefix("-") ? String(word.dropFirst()) : word, order: word.hasPrefix("-") ? .descending : .ascending)
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(field: try container.decode(String.self, forKey: .field), order: try container.decodeIfPresent(.order) ?? .ascending)
        }
    }

    /// One group level: records with one value of `field` (or one day, week, month or year of a
    /// date field) together, under a header row.
    public struct GroupLevel: Sendable, Hashable, Codable {
        /// What part of a date field's value groups records.
        public enum Period: String, Sendable, Hashable, Codable, CaseIterable, NamedOption {
            /// The value itself.
            case value
            /// A date's day (at its own offset, or the document's zone).
            case day
            /// The week from Monday.
            case week
            /// The calendar month.
            case month
            /// The calendar year.
            case year
        }

        /// The dotted path of the field grouped by.
        public var field: String
        /// The value itself, or a date's day, week (from Monday), month or year.
        public var by: Period
        /// The group header's words before the value; the column's title when the field is a column.
        public var title: String?
        /// Template filters that write the group's value (`date: long`); a period has its own.
        public var format: String?

        /// Groups by `field` (a date's `by` period).
        public init(field: String, by: Period = .value, title: String? = nil, format: String? = nil) {
            self.field = field
            self.by = by
            self.title = title
            self.format = format
        }

        /// Decodes `{field, by, title, format}` or a field's name alone.
        public init(from decoder: Decoder) throws {
            if let field = try? decoder.singleValueContainer().decode(String.self) {
                self.init(field: field)
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                field: try container.decode(String.self, forKey: .field), by: try container.decodeIfPresent(.by) ?? .value,
                title: try container.decodeIfPresent(.title), format: try container.decodeIfPresent(.format))
        }
    }

    /// An aggregate of one column: `{field: dose, function: sum}`, written `dose: sum` in a mapping.
    public struct Aggregate: Sendable, Hashable {
        /// What is computed over a group's values.
        public enum Function: String, Sendable, Hashable, Codable, CaseIterable, NamedOption {
            /// The numbers added.
            case sum
            /// Their mean.
            case mean
            /// The least value (numbers and dates as such).
            case min
            /// The greatest value.
            case max
            /// How many records have the field.
            case count
        }

        /// The column's field.
        public var field: String
        /// The computation.
        public var function: Function

        /// `function` of the column showing `field`.
        public init(field: String, function: Function) {
            self.field = field
            self.function = function
        }
    }

    /// The words and colours a highlight rule gives: the theme's named styles.
    public enum HighlightStyle: String, Sendable, Hashable, Codable, CaseIterable, NamedOption {
        /// Needs attention now (the language's "Alert" by default).
        case alert
        /// Worth a look ("Warning").
        case warning
        /// As hoped ("Good").
        case good
        /// Set aside, such as a refused dose (needs its own word).
        case muted
    }

    /// A rule that flags a cell or a whole row when its condition holds: a named style's colour and,
    /// always, a word (WCAG 1.4.1: colour is never the only sign).
    public struct HighlightRule: Sendable, Hashable, Codable {
        /// The cell of the condition's field, or the whole row.
        public enum Target: String, Sendable, Hashable, Codable, CaseIterable, NamedOption {
            /// The cell of the condition's field (or of `column`).
            case cell
            /// The whole row.
            case row
        }

        /// The condition.
        public var when: Condition
        /// The colours.
        public var style: HighlightStyle
        /// The word written after the value ("High"); the style's own word when absent (`muted` has none
        /// and needs one).
        public var label: String?
        /// What is flagged: the condition field's cell (its column), or the row.
        public var target: Target
        /// The column flagged when it is not the condition's field.
        public var column: String?

        /// Flags `target` in `style` with `label` when `when` holds.
        public init(when: Condition, style: HighlightStyle, label: String? = nil, target: Target = .cell, column: String? = nil) {
            self.when = when
            self.style = style
            self.label = label
            self.target = target
            self.column = column
        }

        /// Decodes `{when, style, label, target, column}`.
        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                when: try container.decode(Condition.self, forKey: .when), style: try container.decode(HighlightStyle.self, forKey: .style),
                label: try container.decodeIfPresent(.label), target: try container.decodeIfPresent(.target) ?? .cell,
                column: try container.decodeIfPresent(.column))
        }
    }
}

/// Any member name, for mappings whose keys are data (aggregates by field, record members).
package struct AnyKey: CodingKey {
    package var stringValue: String
    package var intValue: Int? { nil }
    package init(stringValue: String) { self.stringValue = stringValue }
    package init?(intValue: Int) { nil }
}
