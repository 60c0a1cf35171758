/// Text that may be written as a string, a number or a boolean in JSON and YAML
/// (a table cell `12`, a widget value `4.2`); it is kept as text.
struct LenientText: Decodable {
    let value: String

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
            throw DecodingError.typeMismatch(String.self, DecodingError.Context(
                codingPath: decoder.codingPath, debugDescription: "expected a string"))
        }
    }
}

/// A list of cells, with a message that says so when it is something else.
struct LenientRow: Decodable {
    let cells: [String]

    init(from decoder: Decoder) throws {
        guard var container = try? decoder.unkeyedContainer() else {
            throw DecodingError.typeMismatch([String].self, DecodingError.Context(
                codingPath: decoder.codingPath, debugDescription: "expected an array of strings"))
        }
        var cells: [String] = []
        while !container.isAtEnd { cells.append(try container.decode(LenientText.self).value) }
        self.cells = cells
    }
}
