import FolioData
import FolioGraphics
import FolioModel
import Foundation

/// A document whose strings may hold `{{placeholders}}` filled from a data record.
///
/// Binding is structural: the template is parsed once, and values go into the
/// parsed tree, never into its text, so no record value can change the
/// document's structure.
///
/// - A string that is exactly one placeholder, `"{{pain}}"`, takes the field's value
///   whatever its type: a number, a list (a chart series) or an object.
/// - Placeholders inside longer text are replaced by the value's text:
///   `"{{patient.week}} update for {{patient.name}}"`.
/// - In a list, `{$each: medications, $as: m, $item: …}` repeats `$item` (or every
///   entry of `$items`) once per element, and `{$if: field, $item: …}` (or `$unless`)
///   keeps it only when the field is present and not null, false or empty (`$unless`: when it
///   is not; both in one entry: when the one field is and the other is not).
/// - Filters: `mean`, `sum`, `min`, `max`, `count`, `round: n`, `fixed: n`, `percent: n`,
///   `scale: k`, `thousands`, `entries`, `keys`, `values`, `default: text`, `join: sep`,
///   `upper`, `lower`; in the document's language: `number: n`, `unit: symbol`, `date: style`
///   (or a pattern), `zone: Area/City` and `age`. `$number` is the record's number.
public struct DocumentTemplate: Sendable {
    /// The parsed template.
    package let tree: TreeValue
    /// Every string of the template that holds placeholders, parsed once for all records.
    private let texts: [String: TemplateText]

    /// A template from an already parsed tree.
    package init(tree: TreeValue) {
        self.tree = tree
        texts = DocumentTemplate.placeholderTexts(in: tree)
    }

    /// Reads a template from JSON or YAML bytes.
    public init(data: Data, format: DocumentDecoder.Format) throws {
        do {
            self.init(tree: try DocumentDecoder.tree(data, format: format))
        } catch let error as FolioError {
            throw DocumentTemplate.templateError(error)
        }
    }

    /// Reads the template file at `path` with the files it includes; errors name `field`.
    package static func read(_ path: String, field: String = "", regularOnly: Bool = true) throws -> (
        template: DocumentTemplate, origins: SourceOrigins
    ) {
        do {
            let source = try SourceDocument.read(path, what: "template", field: field, regularOnly: regularOnly)
            return (DocumentTemplate(tree: source.tree), source.origins)
        } catch let error as FolioError {
            throw DocumentTemplate.templateError(error)
        }
    }

    /// `error` from reading the template, which the parser calls "the input".
    private static func templateError(_ error: FolioError) -> FolioError {
        error.rephrased(
            error.message.replacingOccurrences(of: "the input", with: "the template")
                .replacingOccurrences(of: "the document must", with: "the template must"))
    }

    /// The strings of `tree` that hold placeholders, parsed; one that does not parse is left out
    /// (binding parses it again and throws its error with the field's path).
    private static func placeholderTexts(in tree: TreeValue) -> [String: TemplateText] {
        var texts: [String: TemplateText] = [:]
        var pending = [tree]
        while let value = pending.popLast() {
            switch value {
            case .string(let text):
                if texts[text] == nil, TemplateText.hasPlaceholder(text), let parsed = try? TemplateText(text, path: "") {
                    texts[text] = parsed
                }
            case .object(let members): pending.append(contentsOf: members.map(\.value))
            case .array(let items): pending.append(contentsOf: items)
            default: break
            }
        }
        return texts
    }

    /// The template's tree with `record`'s values bound in.
    package func bind(_ record: TreeValue, number: Int = 1) throws -> TreeValue {
        try bind(record, number: number, maximumValues: DocumentTemplate.maximumValues)
    }

    /// The template's tree with `record`'s values bound in, producing at most `maximumValues` values.
    func bind(_ record: TreeValue, number: Int, maximumValues: Int) throws -> TreeValue {
        DocumentTemplate.attaching(
            record, to: try bind(tree, scope: scope(record, number: number), path: "", budget: BindBudget(maximumValues)))
    }

    /// `document` (a bound tree) with each attachment `from: record` given `record` as its JSON bytes
    /// (base64 `data`), named `record.json` and typed `application/json` unless it says otherwise.
    static func attaching(_ record: TreeValue, to document: TreeValue) -> TreeValue {
        guard case .object(var members) = document, let index = members.firstIndex(where: { $0.key == "attachments" }),
            case .array(let items) = members[index].value
        else { return document }
        var encoded: String?
        let attached = items.map { item -> TreeValue in
            guard case .object(let fields) = item, fields.contains(where: { $0.key == "from" && $0.value == .string("record") }) else {
                return item
            }
            let data = encoded ?? Data(record.json.utf8).base64EncodedString()
            encoded = data
            var result = fields.filter { $0.key != "from" }
            result.append((key: "data", value: .string(data)))
            if !fields.contains(where: { $0.key == "name" }) { result.append((key: "name", value: .string("record.json"))) }
            if !fields.contains(where: { $0.key == "mimeType" }) { result.append((key: "mimeType", value: .string("application/json"))) }
            return .object(result)
        }
        members[index].value = .array(attached)
        return .object(members)
    }

    /// The field of the template that made the field at `path` of the document bound from
    /// `record` (`elements[4].text` from `elements[2].$item.text` when a `$each` made items 2 to
    /// 4); `path` itself where no list was expanded on the way; nil when `path` is not a path.
    package func templatePath(ofBound path: String, record: TreeValue, number: Int = 1) -> String? {
        guard let steps = SourceLocator.steps(of: path) else { return nil }
        let budget = BindBudget(DocumentTemplate.maximumValues)
        let trace = BindTrace()
        budget.trace = trace
        _ = try? bind(tree, scope: scope(record, number: number), path: "", budget: budget)
        for length in stride(from: steps.count, through: 1, by: -1) {
            if let origin = trace.templateSteps[Array(steps.prefix(length))] {
                return SourceLocator.path(of: origin + steps[length...])
            }
        }
        return path
    }

    /// Where each item of a bound document came from: its path in the template.
    private final class BindTrace {
        /// The path being bound, in the bound document.
        var bound: [SourceLocator.Step] = []
        /// Each list item's path in the bound document → the template's path that made it.
        var templateSteps: [[SourceLocator.Step]: [SourceLocator.Step]] = [:]

        /// Item `index` of the list being bound, made from the template's `template`.
        func enterItem(_ index: Int, template: String) {
            bound.append(.index(index))
            if let steps = SourceLocator.steps(of: template) { templateSteps[bound] = steps }
        }
    }

    /// This template with `metadata.timeZone` set to `identifier` where it names no zone of its own:
    /// the reader's clocks given on the command line (`--zone`) for the `date` filter and report tables.
    package func withDefaultZone(_ identifier: String?) -> DocumentTemplate {
        guard let identifier, case .object(var members) = tree, tree["metadata"]?["timeZone"] == nil else { return self }
        if let index = members.firstIndex(where: { $0.key == "metadata" }) {
            guard case .object(var metadata) = members[index].value else { return self }
            metadata.append((key: "timeZone", value: .string(identifier)))
            members[index].value = .object(metadata)
        } else {
            members.append((key: "metadata", value: .object([(key: "timeZone", value: .string(identifier))])))
        }
        return DocumentTemplate(tree: .object(members))
    }

    /// The scope a record is bound in: its values, its number, and the document's language (as
    /// the template writes it, or as the record gives it through `metadata.language: "{{…}}"`).
    private func scope(_ record: TreeValue, number: Int) -> TemplateScope {
        var scope = TemplateScope(record: record, number: number)
        if case .string(let language)? = tree["metadata"]?["language"] {
            if TemplateText.hasPlaceholder(language) {
                if let parsed = texts[language],
                    case .string(let bound)? = try? parsed.evaluate(in: scope, path: "metadata.language", kind: .plain)
                {
                    scope.format = NumberFormat(BuiltInStrings.forLanguage(bound))
                }
            } else {
                scope.format = NumberFormat(BuiltInStrings.forLanguage(language))
            }
        }
        // The reader's clocks: `metadata.timeZone`, written or bound from the record (a bad zone is the
        // bound document's error, named by its field).
        if case .string(let zone)? = tree["metadata"]?["timeZone"] {
            if TemplateText.hasPlaceholder(zone) {
                if let parsed = texts[zone],
                    case .string(let bound)? = try? parsed.evaluate(in: scope, path: "metadata.timeZone", kind: .plain)
                {
                    scope.zone = Metadata.zone(bound)
                }
            } else {
                scope.zone = Metadata.zone(zone)
            }
        }
        return scope
    }

    /// Values one binding may produce: nested `$each` over a record's long lists could otherwise
    /// multiply into billions.
    static let maximumValues = 2_000_000

    /// What is left of `maximumValues` while one record is bound, and, when an error is being
    /// placed, where each item of the bound document came from in the template.
    private final class BindBudget {
        let limit: Int
        var remaining: Int
        var trace: BindTrace?

        init(_ limit: Int) {
            self.limit = limit
            remaining = limit
        }

        func spend(_ path: String) throws {
            remaining -= 1
            if remaining < 0 { throw FolioError(path: path, "the bound document would hold more than \(limit) values") }
        }
    }

    /// The bound, decoded and validated document for `record`; with `lenient`, keys no field has are ignored.
    package func document(for record: TreeValue, number: Int = 1, lenient: Bool = false) throws -> Document {
        let document = try documentForRendering(for: record, number: number, lenient: lenient)
        try document.validate()
        return document
    }

    /// The bound and decoded document for `record`, not yet validated: for a caller that renders
    /// it next, since rendering validates (`Document.prepared(options:)`).
    package func documentForRendering(for record: TreeValue, number: Int = 1, lenient: Bool = false) throws -> Document {
        try DocumentDecoder.decode(Document.self, from: try bind(record, number: number), lenient: lenient, warning: nil)
    }

    /// The bound, decoded and validated document for one record given as a JSON object (one line
    /// of a JSON-lines file); `number` is the record's number, as `{{$number}}` shows it.
    public func document(forJSONRecord record: Data, number: Int = 1, lenient: Bool = false) throws -> Document {
        try document(for: try JSONTreeParser.parse(record), number: number, lenient: lenient)
    }

    /// Block types with rich text, and the keys that hold it (a table's cells, a list's items):
    /// values bound into them are escaped to stay literal.
    private static let richTextKeys: [String: Set<String>] = ["paragraph": ["text"], "message": ["text"], "list": ["items"]]
    /// Block types whose keys hold table cells: values bound into them keep their addresses as links.
    private static let cellKeys: [String: Set<String>] = ["table": ["header", "rows"]]
    /// Keys of objects inside rich text (a cell's `{text, span}`, a nested list's `{items}`) that stay rich.
    private static let nestedRichKeys: Set<String> = ["text", "items"]
    /// Document keys whose texts hold `{page}`-style placeholders (page header and footer, sentence
    /// patterns): values bound into them have their braces escaped to stay literal.
    private static let placeholderTextKeys: Set<String> = ["header", "footer", "strings"]

    /// What a bound value is inserted into, and so how it is kept literal.
    package enum TextKind {
        /// Plain text: the value as it is.
        case plain
        /// Rich text (`**bold**`, links): markup characters escaped.
        case rich
        /// A table cell: markup escaped, but an address in the value still a link, as cells always linked them.
        case cell
        /// Text with `{page}`-style placeholders: braces escaped.
        case placeholders

        /// `text` escaped for this kind of text.
        func literal(_ text: String) -> String {
            switch self {
            case .plain: return text
            case .rich: return RichText.escaped(text)
            case .cell: return RichText.escapedKeepingAddresses(text)
            case .placeholders: return text.escapingPlaceholders
            }
        }

        /// `value` with every string in it escaped for this kind of text.
        func literal(_ value: TreeValue) -> TreeValue {
            switch (self, value) {
            case (.plain, _): return value
            case (_, .string(let text)): return .string(literal(text))
            case (.placeholders, .object(let members)): return .object(members.map { ($0.key, literal($0.value)) })
            case (.placeholders, .array(let items)): return .array(items.map { literal($0) })
            default: return value
            }
        }
    }

    private func bind(
        _ value: TreeValue, scope: TemplateScope, path: String, kind: TextKind = .plain,
        budget: BindBudget
    ) throws -> TreeValue {
        try budget.spend(path)
        switch value {
        case .string(let text):
            guard TemplateText.hasPlaceholder(text) else { return value }
            // Parsed when the template was read; a text that failed to parse is parsed here again
            // to throw its error with this field's path.
            let parsed = try texts[text] ?? TemplateText(text, path: path)
            return try parsed.evaluate(in: scope, path: path, kind: kind)
        case .object(let members):
            var richKeys: Set<String> = kind == .rich || kind == .cell ? DocumentTemplate.nestedRichKeys : []
            var nestedKind = kind
            if case .string(let type)? = value["type"] {
                if let keys = DocumentTemplate.richTextKeys[type] {
                    richKeys = keys
                    nestedKind = .rich
                } else if let keys = DocumentTemplate.cellKeys[type] {
                    richKeys = keys
                    nestedKind = .cell
                }
            }
            return .object(
                try members.map { member in
                    let memberKind: TextKind
                    if path.isEmpty && DocumentTemplate.placeholderTextKeys.contains(member.key) {
                        memberKind = .placeholders
                    } else if richKeys.contains(member.key) {
                        memberKind = nestedKind == .cell ? .cell : .rich
                    } else {
                        memberKind = kind == .placeholders ? .placeholders : .plain
                    }
                    budget.trace?.bound.append(.key(member.key))
                    defer { budget.trace?.bound.removeLast() }
                    return (
                        member.key,
                        try bind(
                            member.value, scope: scope, path: path.isEmpty ? member.key : "\(path).\(member.key)",
                            kind: memberKind, budget: budget)
                    )
                })
        case .array(let items):
            var result: [TreeValue] = []
            result.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                try expand(item, scope: scope, path: "\(path)[\(index)]", into: &result, kind: kind, budget: budget)
            }
            return .array(result)
        default:
            return value
        }
    }

    /// Appends `item` bound, or what its `$each` / `$if` / `$unless` directive produces.
    private func expand(
        _ item: TreeValue, scope: TemplateScope, path: String, into result: inout [TreeValue],
        kind: TextKind = .plain, budget: BindBudget
    ) throws {
        guard case .object = item, item["$each"] != nil || item["$if"] != nil || item["$unless"] != nil else {
            budget.trace?.enterItem(result.count, template: path)
            defer { budget.trace?.bound.removeLast() }
            result.append(try bind(item, scope: scope, path: path, kind: kind, budget: budget))
            return
        }
        let body: [TreeValue]
        if let items = item["$items"] {
            guard case .array(let list) = items else { throw FolioError(path: "\(path).$items", "$items must be a list") }
            body = list
        } else if let single = item["$item"] {
            body = [single]
        } else {
            throw FolioError(path: path, "a $each, $if or $unless entry needs $item or $items")
        }
        func append(_ scope: TemplateScope) throws {
            for (index, entry) in body.enumerated() {
                try expand(
                    entry, scope: scope, path: item["$items"] == nil ? "\(path).$item" : "\(path).$items[\(index)]",
                    into: &result, kind: kind, budget: budget)
            }
        }
        if item["$if"] != nil || item["$unless"] != nil {
            // Both may be given: the entry is kept when the one field is present and the other is not.
            func holds(_ key: String, present: Bool) throws -> Bool {
                guard let condition = item[key] else { return true }
                guard case .string(let field) = condition else {
                    throw FolioError(path: "\(path).\(key)", "\(key) names a field, such as followUp")
                }
                return DocumentTemplate.isPresent(scope.lookup(field.trimmingCharacters(in: CharacterSet(charactersIn: "{} ")))) == present
            }
            if try holds("$if", present: true), try holds("$unless", present: false) { try append(scope) }
            return
        }
        guard case .string(let listPath)? = item["$each"] else {
            throw FolioError(path: "\(path).$each", "$each names a list field, such as medications")
        }
        let field = listPath.trimmingCharacters(in: CharacterSet(charactersIn: "{} "))
        guard let list = scope.lookup(field) else { throw FolioError(path: "\(path).$each", "the record has no field \"\(field)\"") }
        guard case .array(let elements) = list else {
            throw FolioError(path: "\(path).$each", "\(field) is \(list.kindName), not a list")
        }
        let name: String
        if case .string(let alias)? = item["$as"] { name = alias } else { name = "item" }
        for (index, element) in elements.enumerated() {
            var inner = scope
            inner.locals.append((name, element))
            inner.locals.append(("$index", .number(Double(index))))
            try append(inner)
        }
    }

    static func isPresent(_ value: TreeValue?) -> Bool {
        switch value {
        case nil, .null?, .bool(false)?: return false
        case .string(let s)?: return !s.isEmpty
        case .array(let a)?: return !a.isEmpty
        default: return true
        }
    }
}
