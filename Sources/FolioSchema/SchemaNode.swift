import FolioData
import Foundation

/// A JSON Schema (2020-12) as Folio writes it: the few forms the document model needs.
indirect enum SchemaNode: Equatable {
    /// Any value.
    case any
    case string
    /// One of these words (a `NamedOption`).
    case words([String])
    /// Exactly this word (a block's `type`).
    case constant(String)
    case number
    case integer
    case boolean
    case null
    /// A list of `items`.
    case array(SchemaNode)
    /// A mapping with these members (`required` ones must be there); others are allowed only with
    /// `additional`'s schema.
    case object(properties: [(name: String, schema: SchemaNode)], required: [String], additional: SchemaNode?)
    /// A definition of `$defs`, by name.
    case reference(String)
    /// Any one of these forms.
    case anyOf([SchemaNode])
    /// Several schemas at once (a block's kinds, by `if`/`then`).
    case allOf([SchemaNode])
    /// `then` applies to a value that `if` accepts.
    case conditional(if: SchemaNode, then: SchemaNode)
    /// A mapping that has `name` with the constant `value` (nil: that lacks `name`), for `if`.
    case has(name: String, value: String?)
    /// A string matching a regular expression.
    case pattern(String)

    static func == (lhs: SchemaNode, rhs: SchemaNode) -> Bool { lhs.tree == rhs.tree }

    /// The schema as a JSON value.
    var tree: TreeValue {
        switch self {
        case .any: return .object([])
        case .string: return .object([("type", .string("string"))])
        case .words(let words): return .object([("enum", .array(words.map(TreeValue.string)))])
        case .constant(let word): return .object([("const", .string(word))])
        case .number: return .object([("type", .string("number"))])
        case .integer: return .object([("type", .string("integer"))])
        case .boolean: return .object([("type", .string("boolean"))])
        case .null: return .object([("type", .string("null"))])
        case .array(let items): return .object([("type", .string("array")), ("items", items.tree)])
        case .object(let properties, let required, let additional):
            var members: [(key: String, value: TreeValue)] = [("type", .string("object"))]
            if !properties.isEmpty { members.append(("properties", .object(properties.map { ($0.name, $0.schema.tree) }))) }
            if !required.isEmpty { members.append(("required", .array(required.map(TreeValue.string)))) }
            members.append(("additionalProperties", additional?.tree ?? .bool(false)))
            return .object(members)
        case .reference(let name): return .object([("$ref", .string("#/$defs/\(name)"))])
        case .anyOf(let forms): return .object([("anyOf", .array(forms.map(\.tree)))])
        case .allOf(let parts): return .object([("allOf", .array(parts.map(\.tree)))])
        case .conditional(let condition, let then): return .object([("if", condition.tree), ("then", then.tree)])
        case .has(let name, let value?):
            return .object([
                ("required", .array([.string(name)])), ("properties", .object([(name, .object([("const", .string(value))]))])),
            ])
        case .has(let name, nil): return .object([("not", .object([("required", .array([.string(name)]))]))])
        case .pattern(let expression): return .object([("type", .string("string")), ("pattern", .string(expression))])
        }
    }

    /// The schema with `transform` applied to every value a document writes (members' values,
    /// list items, and the value a definition or an alternative stands for), innermost first.
    func mapValues(_ transform: (SchemaNode, _ isListItem: Bool) -> SchemaNode) -> SchemaNode {
        switch self {
        case .array(let items): return .array(transform(items.mapValues(transform), true))
        case .object(let properties, let required, let additional):
            return .object(
                properties: properties.map { ($0.name, transform($0.schema.mapValues(transform), false)) }, required: required,
                additional: additional.map { transform($0.mapValues(transform), false) })
        case .anyOf(let forms): return .anyOf(forms.map { $0.mapValues(transform) })
        case .allOf(let parts): return .allOf(parts.map { $0.mapValues(transform) })
        case .conditional(let condition, let then): return .conditional(if: condition, then: then.mapValues(transform))
        default: return self
        }
    }
}
