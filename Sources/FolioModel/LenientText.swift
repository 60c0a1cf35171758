/// Text that may be written as a string, a number or a boolean in JSON and YAML
/// (a table cell `12`, a widget value `4.2`); it is kept as text.
struct LenientText: Decodable {
    let value: String

    init(value: String) { self.value = value }

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let string = try? container.decode(String.self) {
            value = string
        } else if let int = try? container.decode(Int.self) {
            value = String(int)
        } else if let number = try? container.decode(Double.self), number.isFinite {
            value = String(number)
        } else if let flag = try? container.decode(Bool.self) {
            value = String(flag)
        } else {
            throw DecodingError.typeMismatch(
                String.self,
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: "expected a string"))
        }
    }
}

/// A list of cells, with a message that says so when it is something else. A cell
/// may be text or `{text, span}` for a cell across several columns.
struct LenientRow: Decodable {
    let cells: [String]
    /// Cell index → columns it covers, for cells wider than one column.
    let spans: [Int: Int]
    /// Cell index → the language its author gave it.
    let languages: [Int: String]
    /// Cell index → the values of its sparkline.
    let sparklines: [Int: [Double?]]

    private struct SpanningCell: Decodable {
        let text: LenientText?
        let span: Int?
        let language: String?
        let sparkline: [Double?]?
    }

    init(from decoder: Decoder) throws {
        guard var container = try? decoder.unkeyedContainer() else {
            throw DecodingError.typeMismatch(
                [String].self,
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: "expected an array of strings"))
        }
        var cells: [String] = []
        var spans: [Int: Int] = [:]
        var languages: [Int: String] = [:]
        var sparklines: [Int: [Double?]] = [:]
        while !container.isAtEnd {
            if let text = try? container.decode(LenientText.self) {
                cells.append(text.value)
                continue
            }
            let index = container.currentIndex
            guard let cell = try? container.decode(SpanningCell.self) else {
                throw DecodingError.typeMismatch(
                    String.self,
                    DecodingError.Context(
                        codingPath: decoder.codingPath + [IndexKey(index)],
                        debugDescription: "expected a string or {text, span, language, sparkline}")
                )
            }
            if let span = cell.span {
                guard (1...64).contains(span) else {
                    throw DecodingError.dataCorruptedError(in: container, debugDescription: "span must be between 1 and 64")
                }
                if span > 1 { spans[cells.count] = span }
            }
            if let language = cell.language { languages[cells.count] = language }
            if let sparkline = cell.sparkline { sparklines[cells.count] = sparkline }
            guard let text = cell.text ?? (cell.sparkline != nil ? LenientText(value: "") : nil) else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: decoder.codingPath + [IndexKey(index)],
                        debugDescription: "expected a string or {text, span, language, sparkline}"))
            }
            cells.append(text.value)
        }
        self.cells = cells
        self.spans = spans
        self.languages = languages
        self.sparklines = sparklines
    }
}

/// The position of an element in a list, written `[n]` in error paths.
package struct IndexKey: CodingKey, Sendable {
    /// The index.
    package let intValue: Int?
    /// The index as text.
    package let stringValue: String

    /// The key of array element `index`.
    package init(_ index: Int) {
        intValue = index
        stringValue = "Index \(index)"
    }

    /// The key of array element `intValue`.
    package init?(intValue: Int) { self.init(intValue) }
    /// Never: an index key is made from a number.
    package init?(stringValue: String) { return nil }
}

/// A field named in an error path, for checks made after decoding.
package struct FieldKey: CodingKey, Sendable {
    /// The field name.
    package let stringValue: String
    /// Never an index.
    package var intValue: Int? { nil }

    /// The key of field `name`.
    package init(_ name: String) { stringValue = name }
    /// The key of field `stringValue`.
    package init?(stringValue: String) { self.stringValue = stringValue }
    /// Never: a field key is made from a name.
    package init?(intValue: Int) { return nil }
}
