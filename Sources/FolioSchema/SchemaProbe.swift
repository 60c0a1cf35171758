import FolioModel
import Foundation

/// Finds what a model type reads from a document by decoding it from a probe: a decoder that
/// answers every question the type's `init(from:)` asks and writes down each one — which keys
/// (required or optional), of which types, which forms (a word, a number, a mapping, a list), and
/// which words a `NamedOption` accepts. The schema is then the model's own decoding, not a second
/// description of it that could drift.
///
/// A type that accepts several forms (a length as `12` or `"2cm"`) is probed again with the forms
/// it asked for refused, until it asks for none new. Required values are answered with a value of
/// their type; when the type's checks refuse it (a colour must be `#RRGGBB`), other likely words
/// are tried.
final class SchemaProbe {
    /// What one type (or one block kind) was found to read.
    final class Frame {
        /// The forms asked for, in order.
        var forms: [Form] = []
        /// The members of its mapping form, in the order asked, and which were required.
        var properties: [(name: String, schema: SchemaNode)] = []
        var required: [String] = []
        /// Members read through a nested container, whose own members are known only once read.
        var nested: [(name: String, frame: Frame)] = []
        /// Members whose presence the type asks about first (`contains`): never required.
        var checked: Set<String> = []
        /// The schema of members whose names are the writer's own (a mapping read by `allKeys`).
        var additional: SchemaNode?
        /// The items of its list form.
        var items: SchemaNode?

        func add(_ form: Form) {
            if !forms.contains(form) { forms.append(form) }
        }

        func member(_ name: String, _ schema: SchemaNode, required isRequired: Bool) {
            if let index = properties.firstIndex(where: { $0.name == name }) {
                // A member read as one type and then, failing that, as another accepts both.
                properties[index].schema = SchemaProbe.union(properties[index].schema, schema)
            } else {
                properties.append((name, schema))
            }
            if isRequired, !checked.contains(name), !required.contains(name) { required.append(name) }
        }

        /// The schema of everything the type accepts.
        var schema: SchemaNode {
            let nodes: [SchemaNode] = forms.map { form in
                switch form {
                case .string: return .string
                case .number: return .number
                case .integer: return .integer
                case .boolean: return .boolean
                case .null: return .null
                case .object:
                    var members = properties
                    // A nested container read only to look inside (`contains`) adds no form of its own.
                    for (name, frame) in nested where !frame.properties.allSatisfy({ frame.checked.contains($0.name) }) {
                        if let index = members.firstIndex(where: { $0.name == name }) {
                            members[index].schema = SchemaProbe.union(members[index].schema, frame.schema)
                        } else {
                            members.append((name, frame.schema))
                        }
                    }
                    return .object(properties: members, required: required, additional: additional)
                case .array: return .array(items ?? .any)
                case .value(let node), .item(let node), .member(_, let node): return node
                }
            }
            var unique: [SchemaNode] = []
            for node in nodes where !unique.contains(node) { unique.append(node) }
            if unique.contains(.number) { unique.removeAll { $0 == .integer } }
            return unique.count == 1 ? unique[0] : unique.isEmpty ? .any : .anyOf(unique)
        }
    }

    /// A schema accepting what `first` or `second` accepts (`.any` adds nothing).
    static func union(_ first: SchemaNode, _ second: SchemaNode) -> SchemaNode {
        if first == .any || first == second { return second }
        if second == .any { return first }
        var forms: [SchemaNode] = []
        for node in [first, second] {
            if case .anyOf(let inner) = node { forms += inner } else { forms.append(node) }
        }
        var unique: [SchemaNode] = []
        for form in forms where !unique.contains(form) { unique.append(form) }
        return .anyOf(unique)
    }

    /// A form of value a type asked for.
    enum Form: Equatable {
        case string, number, integer, boolean, null, object, array
        /// The forms of another type, read in place (`singleValueContainer().decode(Other.self)`).
        case value(SchemaNode)
        /// A list's item read as a type (only refused, to find the next item type a list accepts).
        case item(SchemaNode)
        /// A required member read as a type (only refused, to find what else the member may be).
        case member(String, SchemaNode)

        /// Forms refused to find the next one a type accepts.
        var refusalKey: String {
            switch self {
            case .value(let node): return "\(node.tree.json)"
            case .item(let node): return "item \(node.tree.json)"
            case .member(let name, let node): return "member \(name) \(node.tree.json)"
            default: return "\(self)"
            }
        }
    }

    /// Words tried, in turn, for a required string the type's checks refuse.
    static let likelyWords = ["x", "#336699", "12pt", "2026-11-15", "2026-11-15T08:00:00Z", "en", "1", "https://example.org"]

    /// Definitions found so far, by name, in the order first met.
    private(set) var definitions: [(name: String, schema: SchemaNode)] = []
    private var definitionNames: Set<String> = []
    /// A decoded value of each type probed, to answer required members of that type.
    private var instances: [ObjectIdentifier: Any] = [:]
    /// Types whose definition is being found (a list nests lists).
    private var inProgress: Set<ObjectIdentifier> = []
    /// Types referred to from inside themselves: defined even when written in place otherwise.
    private var selfReferring: Set<String> = []
    /// Types to define specially (`Block`, by kind), given their definition name.
    private let special: [ObjectIdentifier: (SchemaProbe) -> (SchemaNode, Any?)]

    init(special: [ObjectIdentifier: (SchemaProbe) -> (SchemaNode, Any?)] = [:]) {
        self.special = special
    }

    /// The schema of `type`: inline for a value (a word, a number, a list of something), a
    /// reference to its definition for a mapping.
    func schema<T: Decodable>(of type: T.Type) -> SchemaNode {
        if let primitive = SchemaProbe.primitive(type) { return primitive.schema }
        let name = SchemaProbe.definitionName(type)
        let key = ObjectIdentifier(type)
        if definitionNames.contains(name) { return .reference(name) }
        if inProgress.contains(key) {
            // A type inside itself (a list of blocks in a block): it gets a definition to refer to.
            selfReferring.insert(name)
            return .reference(name)
        }
        if let make = special[key] {
            inProgress.insert(key)
            let (schema, instance) = make(self)
            inProgress.remove(key)
            if let instance { instances[key] = instance }
            return defineNamed(name, schema)
        }
        if let options = type as? any NamedOption.Type {
            let words = options.optionNames
            instances[key] = words.first.flatMap { try? answer(type, word: $0) }
            return .words(words)
        }
        inProgress.insert(key)
        let (frame, instance) = probe(type, presets: [:])
        inProgress.remove(key)
        if let instance { instances[key] = instance }
        let schema = frame.schema
        // A list, an optional or a word is written in place; a mapping gets a definition.
        guard frame.forms.contains(.object) || selfReferring.contains(name) else { return schema }
        return defineNamed(name, schema)
    }

    /// A decoded value of `type`, to answer a required member of that type.
    func instance<T: Decodable>(of type: T.Type) throws -> T {
        if let primitive = SchemaProbe.primitive(type), let value = primitive.value as? T { return value }
        _ = schema(of: type)
        guard let value = instances[ObjectIdentifier(type)] as? T else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no value of \(type) could be made"))
        }
        return value
    }

    /// Probes `type` with `presets` answering those members' words: its forms one after another,
    /// and a value of it, trying likely words until its checks accept one.
    func probe<T: Decodable>(_ type: T.Type, presets: [String: String]) -> (Frame, T?) {
        let frame = Frame()
        var instance: T?
        // Each run refuses some forms the type asked for in an earlier one, so it asks for the
        // next it accepts (a cell that is not text may be {text, span}); breadth first, bounded.
        var pending: [Set<String>] = [[]]
        var tried: Set<Set<String>> = []
        while let refused = pending.first, tried.count < 48 {
            pending.removeFirst()
            guard tried.insert(refused).inserted else { continue }
            // Optional members answered absent, then given (members read only when `contains` says so).
            for optionalsGiven in [false, true] {
                let decoder = ProbeDecoder(
                    probe: self, frame: frame, refused: refused, presets: presets, word: 0, optionalsGiven: optionalsGiven)
                if let value = try? T(from: decoder), instance == nil, !optionalsGiven { instance = value }
                for form in decoder.state.asked where !refused.contains(form.refusalKey) {
                    pending.append(refused.union([form.refusalKey]))
                }
            }
        }
        // No value passed the type's checks: optional members given too (an image needs a path or
        // data), and likely words for its strings; what these runs read is written down as well.
        var word = 0
        while instance == nil, word < SchemaProbe.likelyWords.count {
            for optionalsGiven in [true, false] where instance == nil {
                instance = try? T(
                    from: ProbeDecoder(probe: self, frame: frame, refused: [], presets: presets, word: word, optionalsGiven: optionalsGiven)
                )
            }
            word += 1
        }
        return (frame, instance)
    }

    func defineNamed(_ name: String, _ schema: SchemaNode) -> SchemaNode {
        if definitionNames.insert(name).inserted { definitions.append((name, schema)) }
        return .reference(name)
    }

    /// A value of a `NamedOption` type for `word`.
    private func answer<T: Decodable>(_ type: T.Type, word: String) throws -> T {
        try T(from: ProbeDecoder(probe: self, frame: Frame(), refused: [], presets: [:], word: 0, fixedWord: word))
    }

    /// The schema and a value of a type read as one JSON value. A length and a colour carry the
    /// patterns `Length(parsing:)` and `Color(parsing:)` accept, so an editor flags "3cn" and "#3E63D"
    /// as `folio render` does; a table column's width is a length, a percentage or `auto`.
    static func primitive(_ type: Any.Type) -> (schema: SchemaNode, value: Any)? {
        switch type {
        case is String.Type: return (.string, "x")
        case is Double.Type: return (.number, 1.0)
        case is Float.Type: return (.number, Float(1))
        case is Int.Type: return (.integer, 1)
        case is Bool.Type: return (.boolean, false)
        case is Length.Type: return (.anyOf([.number, .pattern(lengthPattern)]), Length(points: 1))
        case is Color.Type: return (.pattern(colorPattern), Color.black)
        case is Table.ColumnWidth.Type:
            let forms: [SchemaNode] = [.number, .pattern(lengthPattern), .pattern(percentPattern), .pattern(#"^\s*auto\s*$"#)]
            return (.anyOf(forms), Table.ColumnWidth.auto)
        default: return nil
        }
    }

    /// A length written as text: a number of points, or of mm, cm, in or pt (any case), spaces around.
    static let lengthPattern = #"^[ \t]*[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?[ \t]*([mMcC][mM]|[iI][nN]|[pP][tT])?[ \t]*$"#
    /// A share of a table's width: a number and `%`.
    static let percentPattern = #"^\s*[+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?%\s*$"#
    /// A colour: 3, 6 or 8 hexadecimal digits (RGB, RRGGBB, RRGGBBAA), after an optional #.
    static let colorPattern = #"^#?([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$"#

    /// `ChartAxis` for `FolioModel.ChartAxis`; a nested type is named with its parent (`Table.Cell`).
    static func definitionName(_ type: Any.Type) -> String {
        var name = String(reflecting: type).replacing(/\(unknown context at [^)]*\)\./, with: "")
        for module in ["FolioModel.", "FolioGraphics.", "Folio.", "Swift."] { name = name.replacingOccurrences(of: module, with: "") }
        // `Array<Block>` is `BlockList`.
        while let match = name.firstMatch(of: /Array<([^<>]*)>/) { name.replaceSubrange(match.range, with: match.1 + "List") }
        while let match = name.firstMatch(of: /Optional<([^<>]*)>/) { name.replaceSubrange(match.range, with: match.1) }
        return name.replacingOccurrences(of: "<", with: "_").replacingOccurrences(of: ">", with: "").replacingOccurrences(
            of: ", ", with: "_"
        )
        .replacingOccurrences(of: " ", with: "")
    }
}

/// The probe's decoder: every question is written down in its frame and answered.
struct ProbeDecoder: Decoder {
    /// What the decoder was asked, shared by its containers.
    final class State {
        var asked: [SchemaProbe.Form] = []
    }

    let probe: SchemaProbe
    let frame: SchemaProbe.Frame
    let refused: Set<String>
    let presets: [String: String]
    /// Which of `SchemaProbe.likelyWords` answers a string.
    let word: Int
    /// The word every string is answered with, when set.
    var fixedWord: String?
    /// Whether optional members are answered as given (with a value) rather than absent.
    var optionalsGiven = false
    let state = State()
    var codingPath: [CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(
        probe: SchemaProbe, frame: SchemaProbe.Frame, refused: Set<String>, presets: [String: String], word: Int,
        fixedWord: String? = nil, optionalsGiven: Bool = false
    ) {
        self.optionalsGiven = optionalsGiven
        self.probe = probe
        self.frame = frame
        self.refused = refused
        self.presets = presets
        self.word = word
        self.fixedWord = fixedWord
    }

    var wordAnswer: String { fixedWord ?? SchemaProbe.likelyWords[min(word, SchemaProbe.likelyWords.count - 1)] }

    /// Notes `form`; refused forms are a type mismatch, so the type tries its next one.
    func ask(_ form: SchemaProbe.Form) throws {
        state.asked.append(form)
        guard !refused.contains(form.refusalKey) else {
            throw DecodingError.typeMismatch(Any.self, .init(codingPath: codingPath, debugDescription: "refused by the probe"))
        }
        frame.add(form)
    }

    /// Notes that a required member was read as `schema`; a refused one is a type mismatch.
    func askMember(_ name: String, _ schema: SchemaNode) throws {
        let form = SchemaProbe.Form.member(name, schema)
        state.asked.append(form)
        guard !refused.contains(form.refusalKey) else {
            throw DecodingError.typeMismatch(Any.self, .init(codingPath: codingPath, debugDescription: "refused by the probe"))
        }
    }

    /// Notes that a list's item was read as `schema`; a refused one is a type mismatch.
    func askItem(_ schema: SchemaNode) throws {
        let form = SchemaProbe.Form.item(schema)
        state.asked.append(form)
        guard !refused.contains(form.refusalKey) else {
            throw DecodingError.typeMismatch(Any.self, .init(codingPath: codingPath, debugDescription: "refused by the probe"))
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try ask(.object)
        return KeyedDecodingContainer(ProbeKeyedContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> UnkeyedDecodingContainer {
        try ask(.array)
        return ProbeUnkeyedContainer(decoder: self)
    }

    func singleValueContainer() throws -> SingleValueDecodingContainer { ProbeSingleValueContainer(decoder: self) }
}

private struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ProbeDecoder
    var codingPath: [CodingKey] { decoder.codingPath }
    var frame: SchemaProbe.Frame { decoder.frame }

    /// A mapping read by its keys (a dictionary): one key of the writer's own is offered.
    var allKeys: [Key] {
        frame.additional = frame.additional ?? .any
        return Key(stringValue: "\u{0}member").map { [$0] } ?? []
    }

    private func isOpenMember(_ key: Key) -> Bool { key.stringValue == "\u{0}member" }

    private func note<T: Decodable>(_ type: T.Type, _ key: Key, required: Bool) -> SchemaNode {
        var schema = decoder.probe.schema(of: type)
        if let preset = decoder.presets[key.stringValue] { schema = .constant(preset) }
        if isOpenMember(key) {
            frame.additional = schema
        } else {
            frame.member(key.stringValue, schema, required: required)
        }
        return schema
    }

    func contains(_ key: Key) -> Bool {
        if !isOpenMember(key) {
            frame.checked.insert(key.stringValue)
            frame.required.removeAll { $0 == key.stringValue }
            frame.member(key.stringValue, .any, required: false)
        }
        return decoder.optionalsGiven || decoder.presets[key.stringValue] != nil
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        if !isOpenMember(key) {
            frame.checked.insert(key.stringValue)
            frame.required.removeAll { $0 == key.stringValue }
            frame.member(key.stringValue, .any, required: false)
        }
        return !decoder.optionalsGiven && decoder.presets[key.stringValue] == nil
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try answer(type, key) }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try answerIfPresent(type, key) }

    /// A required member: written down, and answered with a value of its type.
    private func answer<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        let schema = note(type, key, required: true)
        if decoder.presets[key.stringValue] == nil { try decoder.askMember(key.stringValue, schema) }
        if let preset = decoder.presets[key.stringValue], let word = preset as? T { return word }
        if type == String.self, let word = decoder.wordAnswer as? T { return word }
        return try decoder.probe.instance(of: type)
    }

    /// An optional member: written down, and answered as absent.
    private func answerIfPresent<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        _ = note(type, key, required: false)
        if let preset = decoder.presets[key.stringValue], let word = preset as? T { return word }
        guard decoder.optionalsGiven else { return nil }
        if type == String.self, let word = decoder.wordAnswer as? T { return word }
        return try? decoder.probe.instance(of: type)
    }

    // The protocol's own versions for these types ask `contains` first, which says nothing of the type.
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try answer(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try answer(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try answer(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try answer(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try answer(type, key) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try answerIfPresent(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try answerIfPresent(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try answerIfPresent(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try answerIfPresent(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try answerIfPresent(type, key) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        let nested = SchemaProbe.Frame()
        nested.add(.object)
        // Not required: it may be read only to look inside a member (whether a page gives a size).
        frame.nested.append((key.stringValue, nested))
        var child = ProbeDecoder(probe: decoder.probe, frame: nested, refused: [], presets: [:], word: decoder.word)
        child.codingPath = codingPath + [key]
        return KeyedDecodingContainer(ProbeKeyedContainer<NestedKey>(decoder: child))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer {
        let nested = SchemaProbe.Frame()
        nested.add(.array)
        var child = ProbeDecoder(probe: decoder.probe, frame: nested, refused: [], presets: [:], word: decoder.word)
        child.codingPath = codingPath + [key]
        frame.member(key.stringValue, .array(.any), required: false)
        return ProbeUnkeyedContainer(decoder: child)
    }

    func superDecoder() throws -> Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> Decoder { decoder }
}

private struct ProbeUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: ProbeDecoder
    var codingPath: [CodingKey] { decoder.codingPath }
    var currentIndex = 0
    /// One item is offered: enough to learn its type.
    var count: Int? { 1 }
    var isAtEnd: Bool { currentIndex >= 1 }

    init(decoder: ProbeDecoder) { self.decoder = decoder }

    mutating func decodeNil() throws -> Bool {
        decoder.frame.items = decoder.frame.items.map { .anyOf([$0, .null]) } ?? .null
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let schema = decoder.probe.schema(of: type)
        // An item type refused, so the type tries the next it accepts.
        try decoder.askItem(schema)
        if let items = decoder.frame.items, items != schema, items != .null {
            decoder.frame.items = .anyOf([items, schema])
        } else if decoder.frame.items == .null {
            decoder.frame.items = .anyOf([schema, .null])
        } else {
            decoder.frame.items = schema
        }
        currentIndex += 1
        if type == String.self, let word = decoder.wordAnswer as? T { return word }
        return try decoder.probe.instance(of: type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        currentIndex += 1
        let nested = SchemaProbe.Frame()
        nested.add(.object)
        decoder.frame.items = nested.schema
        return KeyedDecodingContainer(
            ProbeKeyedContainer<NestedKey>(
                decoder: ProbeDecoder(probe: decoder.probe, frame: nested, refused: [], presets: [:], word: decoder.word)))
    }

    mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer {
        currentIndex += 1
        decoder.frame.items = .array(.any)
        return ProbeUnkeyedContainer(
            decoder: ProbeDecoder(probe: decoder.probe, frame: SchemaProbe.Frame(), refused: [], presets: [:], word: decoder.word))
    }

    mutating func superDecoder() throws -> Decoder { decoder }
}

private struct ProbeSingleValueContainer: SingleValueDecodingContainer {
    let decoder: ProbeDecoder
    var codingPath: [CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool {
        decoder.frame.add(.null)
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        try decoder.ask(.boolean)
        return false
    }

    func decode(_ type: String.Type) throws -> String {
        try decoder.ask(.string)
        return decoder.wordAnswer
    }

    func decode(_ type: Double.Type) throws -> Double {
        try decoder.ask(.number)
        return 1
    }

    func decode(_ type: Int.Type) throws -> Int {
        try decoder.ask(.integer)
        return 1
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let primitive = SchemaProbe.primitive(type) {
            switch primitive.schema {
            case .string: try decoder.ask(.string)
            case .boolean: try decoder.ask(.boolean)
            case .integer: try decoder.ask(.integer)
            case .number: try decoder.ask(.number)
            // A length or a colour: its own schema, patterns included.
            default: try decoder.ask(.value(primitive.schema))
            }
            if type == String.self, let word = decoder.wordAnswer as? T { return word }
            guard let value = primitive.value as? T else {
                throw DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: ""))
            }
            return value
        }
        try decoder.ask(.value(decoder.probe.schema(of: type)))
        return try decoder.probe.instance(of: type)
    }
}
