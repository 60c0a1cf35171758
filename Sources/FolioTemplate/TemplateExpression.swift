import FolioData
import FolioGraphics
import FolioModel
import Foundation

/// A placeholder's content: a dotted path into the record and optional filters,
/// `pain | mean | fixed: 1` or `medicationAdherence | scale: 10`.
package struct TemplateExpression: Sendable, Hashable {
    struct Filter: Sendable, Hashable {
        let name: String
        let argument: String?
    }

    package let path: String
    let filters: [Filter]

    static let filterNames = [
        "mean", "sum", "min", "max", "count", "round", "fixed", "percent", "scale", "thousands",
        "entries", "keys", "values", "default", "join", "upper", "lower", "number", "unit", "date", "zone", "age", "duration",
    ]

    /// Parses `path | filter: argument | …`; unknown filters are an error naming the template field.
    init(parsing text: String, templatePath: String) throws {
        let parts = text.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let first = parts.first, !first.isEmpty, !first.contains(" ") else {
            throw FolioError(path: templatePath, "placeholder {{\(text)}} needs a field path such as patient.name")
        }
        path = first
        filters = try parts.dropFirst().map { part in
            let pieces = part.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let name = pieces.first ?? ""
            guard TemplateExpression.filterNames.contains(name) else {
                throw FolioError(
                    path: templatePath,
                    "unknown filter \"\(name)\" in {{\(text)}}; filters: \(TemplateExpression.filterNames.joined(separator: ", "))")
            }
            var argument = pieces.count > 1 ? pieces[1] : nil
            if let quoted = argument, quoted.count >= 2,
                (quoted.hasPrefix("\"") && quoted.hasSuffix("\"")) || (quoted.hasPrefix("'") && quoted.hasSuffix("'"))
            {
                argument = String(quoted.dropFirst().dropLast())
            }
            return Filter(name: name, argument: argument)
        }
    }

    /// The value in `scope`, filtered; a missing field is an error unless a `default` filter follows.
    func evaluate(in scope: TemplateScope, templatePath: String) throws -> TreeValue {
        let value = scope.lookup(path)
        if value == nil || value == .null, let fallback = filters.first(where: { $0.name == "default" }) {
            // The fallback is shown as written: `{{series.glucose.mean | fixed: 0 | default: –}}` gives "–".
            return .string(fallback.argument ?? "")
        }
        guard let value else {
            throw FolioError(path: templatePath, "the record has no field \"\(path)\"")
        }
        return try filtered(value, format: scope.format, zone: scope.zone, templatePath: templatePath)
    }

    /// `value` through the filters in turn (all but `default`), numbers and dates written as `format` writes
    /// them; a time reaching `date` is first moved to `zone` (the document's `metadata.timeZone`) unless a
    /// `zone` filter moved it already.
    func filtered(_ value: TreeValue, format: NumberFormat, zone: TimeZone? = nil, templatePath: String) throws -> TreeValue {
        var current = value
        var zoned = false
        for filter in filters where filter.name != "default" {
            if filter.name == "zone" { zoned = true }
            if filter.name == "date", !zoned, let zone, case .string(let text) = current, TemplateFormatting.moment(text) != nil {
                current = try TemplateFormatting.zone(current, to: zone.identifier, field: path, templatePath: templatePath)
            }
            current = try apply(filter, to: current, format: format, templatePath: templatePath)
        }
        return current
    }

    private func numbers(_ value: TreeValue, _ filter: Filter, _ templatePath: String) throws -> [Double] {
        let items: [TreeValue]
        if case .array(let array) = value { items = array } else { items = [value] }
        return try items.enumerated().map { index, item in
            guard case .number(let n) = item else {
                let place = items.count == 1 && value == item ? path : "\(path)[\(index)]"
                throw FolioError(path: templatePath, "\(filter.name) needs numbers, but \(place) is \(item.kindName)")
            }
            return n
        }
    }

    private func number(_ value: TreeValue, _ filter: Filter, _ templatePath: String) throws -> Double {
        if case .string(let text) = value, let n = Double(text), n.isFinite { return n }
        guard case .number(let n) = value, n.isFinite else {
            if case .number(let n) = value {
                throw FolioError(path: templatePath, "\(filter.name) needs a finite number, but \(path) is \(n)")
            }
            throw FolioError(path: templatePath, "\(filter.name) needs a number, but \(path) gives \(value.kindName)")
        }
        return n
    }

    private func integerArgument(_ filter: Filter, default fallback: Int, _ templatePath: String) throws -> Int {
        guard let argument = filter.argument else { return fallback }
        guard let n = Int(argument), (0...10).contains(n) else {
            throw FolioError(path: templatePath, "\(filter.name) takes a whole number of decimals from 0 to 10")
        }
        return n
    }

    private func apply(_ filter: Filter, to value: TreeValue, format: NumberFormat, templatePath: String) throws -> TreeValue {
        switch filter.name {
        case "number":
            let number = try number(value, filter, templatePath)
            guard abs(number) < InputLimits.magnitude else {
                throw FolioError(path: templatePath, "number needs a number between -1e15 and 1e15, but \(path) is \(number)")
            }
            return TemplateFormatting.number(number, decimals: try integerArgument(filter, default: 0, templatePath), format: format)
        case "unit": return try TemplateFormatting.unit(value, unit: filter.argument, format: format, templatePath: templatePath)
        case "date":
            return try TemplateFormatting.date(value, style: filter.argument, format: format, field: path, templatePath: templatePath)
        case "zone": return try TemplateFormatting.zone(value, to: filter.argument, field: path, templatePath: templatePath)
        case "age": return try TemplateFormatting.age(value, on: filter.argument, field: path, templatePath: templatePath)
        case "duration":
            return try TemplateFormatting.duration(
                try number(value, filter, templatePath), unit: filter.argument, format: format, templatePath: templatePath)
        case "mean":
            let values = try numbers(value, filter, templatePath)
            return values.isEmpty ? .null : .number(values.reduce(0, +) / Double(values.count))
        case "sum": return .number(try numbers(value, filter, templatePath).reduce(0, +))
        case "min": return try numbers(value, filter, templatePath).min().map(TreeValue.number) ?? .null
        case "max": return try numbers(value, filter, templatePath).max().map(TreeValue.number) ?? .null
        case "count":
            switch value {
            case .array(let items): return .number(Double(items.count))
            case .object(let members): return .number(Double(members.count))
            default: return .number(1)
            }
        case "round":
            let scale = pow(10, Double(try integerArgument(filter, default: 0, templatePath)))
            return .number((try number(value, filter, templatePath) * scale).rounded() / scale)
        case "fixed":
            return .string(
                DecimalText.fixed(try number(value, filter, templatePath), decimals: try integerArgument(filter, default: 1, templatePath)))
        case "percent":
            let decimals = try integerArgument(filter, default: 0, templatePath)
            return .string(DecimalText.fixed(try number(value, filter, templatePath) * 100, decimals: decimals) + "%")
        case "scale":
            guard let factor = filter.argument.flatMap(Double.init) else {
                throw FolioError(path: templatePath, "scale needs a number, as in scale: 10")
            }
            if case .array(let items) = value {
                return .array(
                    try items.map { item in
                        if item == .null { return .null }
                        return .number(try number(item, filter, templatePath) * factor)
                    })
            }
            return .number(try number(value, filter, templatePath) * factor)
        case "thousands":
            let number = try number(value, filter, templatePath)
            guard abs(number) < InputLimits.magnitude else {
                throw FolioError(path: templatePath, "thousands needs a number between -1e15 and 1e15, but \(path) is \(number)")
            }
            return .string(NumberFormat.groupingThousands(number.clampedInt(), separator: filter.argument ?? ","))
        case "entries", "keys", "values":
            guard case .object(let members) = value else {
                throw FolioError(path: templatePath, "\(filter.name) needs an object, but \(path) holds \(value.kindName)")
            }
            switch filter.name {
            case "keys": return .array(members.map { .string($0.key) })
            case "values": return .array(members.map(\.value))
            default: return .array(members.map { .object([("title", .string($0.key)), ("value", $0.value)]) })
            }
        case "join":
            guard case .array(let items) = value else { return .string(value.text) }
            return .string(items.map(\.text).joined(separator: filter.argument ?? ", "))
        case "upper": return .string(value.text.uppercased())
        case "lower": return .string(value.text.lowercased())
        default: return value
        }
    }
}

/// The record and the names bound by `$each`, searched innermost first.
package struct TemplateScope {
    let record: TreeValue
    var locals: [(name: String, value: TreeValue)] = []
    /// How `number`, `unit` and `date` write values: the document's language.
    var format = NumberFormat.english
    /// The zone `date` shows times in (the document's `metadata.timeZone`), nil for each time's own offset.
    var zone: TimeZone?

    /// The scope of record number `number` (from 1), which `{{$number}}` shows.
    package init(record: TreeValue, number: Int) {
        self.record = record
        locals = [("$number", .number(Double(number)))]
    }

    func lookup(_ path: String) -> TreeValue? {
        let dot = path.utf8.firstIndex(of: UInt8(ascii: "."))
        let head = path[..<(dot ?? path.endIndex)]
        if let local = locals.last(where: { $0.name == head }) {
            guard let dot else { return local.value }
            return local.value.value(at: String(path[path.utf8.index(after: dot)...]))
        }
        return record.value(at: path)
    }
}
