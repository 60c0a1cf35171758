import FolioData
import FolioModel
import Foundation

/// The JSON Schema (2020-12) of Folio's documents, templates and themes, made from the model's own
/// decoding (`SchemaProbe`) and its one list of block kinds and chart kinds, so it cannot drift
/// from what `folio render` accepts. Editors use it through the `yaml-language-server` modeline
/// (`# yaml-language-server: $schema=…`) to complete and check keys; `folio schema` writes it.
package enum DocumentSchema {
    /// What a schema describes.
    package enum Subject: String, CaseIterable, Sendable {
        /// A document, as `folio render` reads it.
        case document
        /// A template: a document whose values may be `{{placeholders}}` and whose lists may hold
        /// `$each`, `$if` and `$unless` entries.
        case template
        /// A theme file (`--theme`).
        case theme

        /// The file name the repository keeps it under, in `schema/`.
        package var fileName: String { "folio-\(rawValue).schema.json" }
    }

    /// The schema of `subject` as pretty-printed JSON text ending with a newline.
    package static func text(_ subject: Subject) -> String {
        var text = ""
        write(tree(subject), indent: "", into: &text)
        return text + "\n"
    }

    /// The schema of `subject` as a JSON tree.
    package static func tree(_ subject: Subject) -> TreeValue {
        let probe = SchemaProbe(special: [ObjectIdentifier(Block.self): blockDefinition])
        let root = subject == .theme ? probe.schema(of: ThemeSpec.self) : probe.schema(of: Document.self)
        var definitions = probe.definitions
        definitions.append(
            (includeName, .object(properties: [(IncludeResolver.key, .string)], required: [IncludeResolver.key], additional: nil)))
        let items = TemplateItems()
        func adapt(_ node: SchemaNode, isListItem: Bool) -> SchemaNode {
            subject == .template ? templateValue(node, isListItem: isListItem, items: items) : documentValue(node, isListItem: isListItem)
        }
        var members: [(key: String, value: TreeValue)] = [
            ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
            ("$id", .string("https://folio.invalid/schema/\(subject.fileName)")),
            ("title", .string(title(subject))),
            ("description", .string(description(subject))),
        ]
        members += root.tree.objectMembers
        var defined: [(key: String, value: TreeValue)] = definitions.map { definition in
            (definition.name, definition.name == includeName ? definition.schema.tree : definition.schema.mapValues(adapt).tree)
        }
        defined += items.definitions.map { ($0.name, $0.schema.tree) }
        members.append(("$defs", .object(defined)))
        return .object(members)
    }

    private static let includeName = "Include"

    private static func title(_ subject: Subject) -> String {
        switch subject {
        case .document: return "Folio document"
        case .template: return "Folio document template"
        case .theme: return "Folio theme"
        }
    }

    private static func description(_ subject: Subject) -> String {
        switch subject {
        case .document: return "A document for folio render (YAML or JSON). Made by folio schema from Folio's model."
        case .template:
            return
                "A template for folio render --data, folio batch and folio check: a document whose values may be {{placeholders}}. Made by folio schema from Folio's model."
        case .theme: return "A theme for --theme. Made by folio schema from Folio's model."
        }
    }

    /// A value of a document: as the model reads it, or a file included in its place.
    private static func documentValue(_ node: SchemaNode, isListItem: Bool) -> SchemaNode {
        .anyOf([node, .reference(includeName)])
    }

    /// A value of a template: also a placeholder standing for the whole value, and in a list an
    /// entry that repeats or keeps items (`$each`, `$if`, `$unless`), which may nest.
    private static func templateValue(_ node: SchemaNode, isListItem: Bool, items: TemplateItems) -> SchemaNode {
        var forms = [node, .reference(includeName)]
        if node != .string { forms.append(.pattern(#"^\s*\{\{[^{}]*\}\}\s*$"#)) }
        guard isListItem else { return .anyOf(forms) }
        return items.reference(for: forms)
    }

    /// A template list's item schemas, each a definition that refers to itself for nested entries.
    private final class TemplateItems {
        private(set) var definitions: [(name: String, schema: SchemaNode)] = []
        private var names: [TreeValue: String] = [:]

        /// A reference to the definition of an item that is one of `forms` or an entry of such items.
        func reference(for forms: [SchemaNode]) -> SchemaNode {
            let key = TreeValue.array(forms.map(\.tree))
            if let name = names[key] { return .reference(name) }
            let name = "TemplateItem\(definitions.count + 1)"
            names[key] = name
            let itself = SchemaNode.reference(name)
            let entry = SchemaNode.object(
                properties: [
                    ("$each", .string), ("$as", .string), ("$if", .string), ("$unless", .string), ("$item", itself),
                    ("$items", .array(itself)),
                ], required: [], additional: nil)
            definitions.append((name, .anyOf(forms + [entry])))
            return itself
        }
    }

    /// `Block`: one definition per block kind (and per chart kind), chosen by `type` (and `kind`).
    private static func blockDefinition(_ probe: SchemaProbe) -> (SchemaNode, Any?) {
        var parts: [SchemaNode] = []
        var instance: Block?
        let kinds = Block.Kind.allCases.filter { $0 != .custom }
        for kind in kinds {
            let name = "Block.\(kind.rawValue)"
            if kind == .chart {
                parts.append(.conditional(if: .has(name: "type", value: kind.rawValue), then: chartDefinition(probe)))
                continue
            }
            let (frame, value) = probe.probe(Block.self, presets: ["type": kind.rawValue])
            if instance == nil { instance = value }
            parts.append(.conditional(if: .has(name: "type", value: kind.rawValue), then: probe.defined(name, frame.schema)))
        }
        let base = SchemaNode.object(
            properties: [("type", .words(kinds.map(\.rawValue)))], required: ["type"], additional: .any)
        return (.allOf([base] + parts), instance)
    }

    /// A chart block: one definition per chart kind, chosen by `kind` (bar when it is left out).
    private static func chartDefinition(_ probe: SchemaProbe) -> SchemaNode {
        var parts: [SchemaNode] = [
            .object(properties: [("kind", .words(Chart.kinds))], required: [], additional: .any)
        ]
        for kind in Chart.kinds {
            let (frame, _) = probe.probe(Block.self, presets: ["type": "chart", "kind": kind])
            let definition = probe.defined("Block.chart.\(kind)", frame.schema)
            parts.append(.conditional(if: .has(name: "kind", value: kind), then: definition))
            if kind == Chart.kinds.first { parts.append(.conditional(if: .has(name: "kind", value: nil), then: definition)) }
        }
        return .allOf(parts)
    }

    /// JSON text of `tree`, two spaces per level, members in the order made.
    private static func write(_ tree: TreeValue, indent: String, into text: inout String) {
        let inner = indent + "  "
        switch tree {
        case .object(let members) where !members.isEmpty:
            text += "{\n"
            for (index, member) in members.enumerated() {
                text += inner + TreeValue.string(member.key).json + ": "
                write(member.value, indent: inner, into: &text)
                text += index == members.count - 1 ? "\n" : ",\n"
            }
            text += indent + "}"
        case .array(let items)
        where !items.isEmpty && items.contains(where: { if case .object = $0 { return true } else { return false } }):
            text += "[\n"
            for (index, item) in items.enumerated() {
                text += inner
                write(item, indent: inner, into: &text)
                text += index == items.count - 1 ? "\n" : ",\n"
            }
            text += indent + "]"
        default:
            text += tree.json
        }
    }
}

extension SchemaProbe {
    /// Defines `schema` as `name` (a block kind's), returning its reference.
    func defined(_ name: String, _ schema: SchemaNode) -> SchemaNode { defineNamed(name, schema) }
}

extension TreeValue {
    /// An object's members; none for anything else.
    fileprivate var objectMembers: [(key: String, value: TreeValue)] {
        if case .object(let members) = self { return members }
        return []
    }
}
