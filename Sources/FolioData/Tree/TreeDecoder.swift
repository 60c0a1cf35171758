import FolioModel
import Foundation

/// Decodes `Decodable` values straight from a `TreeValue`, without turning the
/// tree into JSON text first. Type errors say what was expected and what was
/// found, with the coding path, as `DocumentDecoder` reports them.
struct TreeDecoder: Decoder {
    let value: TreeValue
    /// The path of the container that holds the value, and the value's key in it: the coding
    /// path is made from them only when asked for (an error, an object's unknown keys), not for
    /// every value decoded.
    private let parent: CodingPathNode?
    private let key: CodingKey?
    /// Which members of each object were asked for; nil when unknown keys are not checked.
    let usage: KeyUsage?
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ value: TreeValue, usage: KeyUsage? = nil) {
        self.init(value, parent: nil, key: nil, usage: usage)
    }

    private init(_ value: TreeValue, parent: CodingPathNode?, key: CodingKey?, usage: KeyUsage?) {
        self.value = value
        self.parent = parent
        self.key = key
        self.usage = usage
    }

    var codingPath: [CodingKey] { path?.keys ?? [] }

    /// This value's path, for the containers that read its members or items.
    var path: CodingPathNode? { key.map { CodingPathNode(parent: parent, key: $0) } ?? parent }

    /// Decodes `type`; with `unknownKeys`, members no model type asked for are reported there.
    static func decode<T: Decodable>(
        _ type: T.Type, from value: TreeValue,
        unknownKeys: ((FolioError) throws -> Void)? = nil
    ) throws -> T {
        let usage = unknownKeys == nil ? nil : KeyUsage()
        let result = try TreeDecoder(value, usage: usage).decodeValue(type)
        if let usage, let unknownKeys {
            for error in usage.unknownKeys() { try unknownKeys(error) }
        }
        return result
    }

    /// The decoder of `value`, the member or item `key` of the container whose path is `path`.
    func child(_ value: TreeValue, _ key: CodingKey, in path: CodingPathNode?) -> TreeDecoder {
        TreeDecoder(value, parent: path, key: key, usage: usage)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw mismatch([String: Any].self) }
        let path = self.path
        let object = usage?.register(path, members: members)
        return KeyedDecodingContainer(KeyedContainer<Key>(members: members, decoder: self, path: path, object: object))
    }

    func unkeyedContainer() throws -> UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw mismatch([Any].self) }
        return UnkeyedContainer(items: items, decoder: self, path: path)
    }

    func singleValueContainer() throws -> SingleValueDecodingContainer { SingleValueContainer(decoder: self) }

    func mismatch(_ type: Any.Type) -> DecodingError {
        if value == .null {
            return .valueNotFound(type, .init(codingPath: codingPath, debugDescription: "Expected \(type) value but found null instead."))
        }
        return .typeMismatch(
            type, .init(codingPath: codingPath, debugDescription: "Expected to decode \(type) but found \(value.kindName) instead."))
    }

    /// The value as `T`: primitives directly, anything else through its own `init(from:)`.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        let primitive: Any
        switch (type, value) {
        case (is String.Type, .string(let s)):
            guard s.utf8.count <= InputLimits.stringScalars || s.unicodeScalars.count <= InputLimits.stringScalars else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: codingPath,
                        debugDescription:
                            "is longer than \(InputLimits.stringScalars) characters"))
            }
            primitive = s
        case (is Double.Type, .number(let n)): primitive = n
        case (is Float.Type, .number(let n)): primitive = Float(n)
        case (is Bool.Type, .bool(let b)): primitive = b
        case (is Int.Type, .number(let n)):
            guard n == n.rounded(), abs(n) < 9e15 else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "expected a whole number, found \(n)"))
            }
            primitive = n.clampedInt()
        case (is String.Type, _), (is Double.Type, _), (is Float.Type, _), (is Bool.Type, _), (is Int.Type, _):
            throw mismatch(type)
        case (is [Double].Type, .array(let items))
        where items.allSatisfy({
            if case .number = $0 { return true }
            return false
        }):
            // Chart series: hundreds of numbers, decoded without a container per element.
            primitive = items.map {
                if case .number(let n) = $0 { return n }
                return 0
            }
        case (is [Double?].Type, .array(let items))
        where items.allSatisfy({
            switch $0 {
            case .number, .null: return true
            default: return false
            }
        }):
            primitive = items.map { (item: TreeValue) -> Double? in
                if case .number(let n) = item { return n }
                return nil
            }
        case (is [RecordValue].Type, .array(let items)):
            // A table's records: thousands of objects, taken as they are (every key is the data's).
            primitive = items.map(RecordValue.init)
        case (is RecordValue.Type, _):
            primitive = RecordValue(value)
        default:
            return try T(from: self)
        }
        guard let result = primitive as? T else { throw mismatch(type) }
        return result
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [(key: String, value: TreeValue)]
    let decoder: TreeDecoder
    /// The object's path, shared by its members' decoders.
    let path: CodingPathNode?
    /// This object in `decoder.usage`.
    let object: Int?
    var codingPath: [CodingKey] { decoder.codingPath }

    var allKeys: [Key] {
        if let object { decoder.usage?.askAll(object) }
        return members.compactMap { Key(stringValue: $0.key) }
    }

    private func lookup(_ key: Key) -> TreeValue? {
        let name = key.stringValue
        guard let position = members.firstIndex(where: { $0.key == name }) else {
            if let object { decoder.usage?.ask(object, missing: name) }
            return nil
        }
        if let object { decoder.usage?.ask(object, position: position) }
        return members[position].value
    }

    private func child(_ key: Key) throws -> TreeDecoder {
        guard let value = lookup(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "No value for key \(key.stringValue)."))
        }
        return decoder.child(value, key, in: path)
    }

    func contains(_ key: Key) -> Bool { lookup(key) != nil }
    func decodeNil(forKey key: Key) throws -> Bool {
        guard let value = lookup(key) else { return true }
        return value == .null
    }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).decodeValue(type) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try child(key).decodeValue(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try child(key).decodeValue(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try child(key).decodeValue(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try child(key).decodeValue(type) }

    /// The value for `key`, nil when absent or null: one look-up, where the protocol's own
    /// implementation makes three (contains, decodeNil, decode).
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = lookup(key), value != .null else { return nil }
        return try decoder.child(value, key, in: path).decodeValue(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer { try child(key).unkeyedContainer() }
    func superDecoder() throws -> Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> Decoder { try child(key) }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let items: [TreeValue]
    let decoder: TreeDecoder
    /// The list's path, shared by its items' decoders.
    let path: CodingPathNode?
    var codingPath: [CodingKey] { decoder.codingPath }
    var currentIndex = 0

    init(items: [TreeValue], decoder: TreeDecoder, path: CodingPathNode?) {
        self.items = items
        self.decoder = decoder
        self.path = path
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    private mutating func next() throws -> TreeDecoder {
        let key = IndexKey(currentIndex)
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any.self, .init(codingPath: codingPath + [key], debugDescription: "Unkeyed container is at end."))
        }
        defer { currentIndex += 1 }
        return decoder.child(items[currentIndex], key, in: path)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, items[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // A failed element must not be consumed, so a caller may try another type.
        let element = decoder.child(isAtEnd ? .null : items[currentIndex], IndexKey(currentIndex), in: path)
        guard !isAtEnd else {
            _ = try next()
            return try element.decodeValue(type)
        }
        let value = try element.decodeValue(type)
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> Decoder { try next() }
}

private struct SingleValueContainer: SingleValueDecodingContainer {
    let decoder: TreeDecoder
    var codingPath: [CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.value == .null }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.decodeValue(type) }
    func decode(_ type: String.Type) throws -> String { try decoder.decodeValue(type) }
    func decode(_ type: Double.Type) throws -> Double { try decoder.decodeValue(type) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.decodeValue(type) }
}

extension TreeValue {
    /// The value decoded as `type` (see `TreeDecoder`), for the package's own tools.
    package func decoded<T: Decodable>(as type: T.Type) throws -> T { try TreeDecoder.decode(type, from: self) }
}

/// A coding path as a chain from the innermost container out: made once per container, where an
/// array of keys was copied for every value decoded.
final class CodingPathNode {
    let parent: CodingPathNode?
    let key: CodingKey
    /// How many keys the path has.
    let depth: Int

    init(parent: CodingPathNode?, key: CodingKey) {
        self.parent = parent
        self.key = key
        depth = (parent?.depth ?? 0) + 1
    }

    /// The keys from the document's top.
    var keys: [CodingKey] {
        var keys: [CodingKey] = []
        var node: CodingPathNode? = self
        while let current = node {
            keys.append(current.key)
            node = current.parent
        }
        return keys.reversed()
    }
}
