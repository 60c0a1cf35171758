/// A value of a record in a table's `records`: text, a number, true or false, nothing, a list or an
/// object (its members in the order written), read as the data gives it.
public enum RecordValue: Sendable, Hashable, Codable {
    /// Nothing (`null`).
    case null
    /// True or false.
    case bool(Bool)
    /// A number.
    case number(Double)
    /// Text.
    case text(String)
    /// A list of values.
    case list([RecordValue])
    /// An object: its members in the order written.
    case object([Member])

    /// One member of an object.
    public struct Member: Sendable, Hashable {
        /// Its name.
        public var key: String
        /// Its value.
        public var value: RecordValue

        /// `key: value`.
        public init(key: String, value: RecordValue) {
            self.key = key
            self.value = value
        }
    }

    /// The value at a dotted path (`dose.value`), or nil when a part of it is missing.
    public func value(at path: String) -> RecordValue? {
        guard path.contains(".") else { return member(path) }
        var current = self
        for part in path.split(separator: ".", omittingEmptySubsequences: false) {
            guard let next = current.member(String(part)) else { return nil }
            current = next
        }
        return current
    }

    /// The member `name` of an object, or nil.
    public func member(_ name: String) -> RecordValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == name }?.value
    }

    /// Decodes any JSON or YAML value.
    public init(from decoder: Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Double.self) {
            self = .number(value)
        } else if let value = try? single.decode(String.self) {
            self = .text(value)
        } else if var list = try? decoder.unkeyedContainer() {
            var items: [RecordValue] = []
            while !list.isAtEnd { items.append(try list.decode(RecordValue.self)) }
            self = .list(items)
        } else {
            let object = try decoder.container(keyedBy: AnyKey.self)
            self = .object(try object.allKeys.map { Member(key: $0.stringValue, value: try object.decode(RecordValue.self, forKey: $0)) })
        }
    }

    /// Encodes the value as it was read.
    public func encode(to encoder: Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .number(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .text(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .list(let items):
            var list = encoder.unkeyedContainer()
            for item in items { try list.encode(item) }
        case .object(let members):
            var object = encoder.container(keyedBy: AnyKey.self)
            for member in members { try object.encode(member.value, forKey: AnyKey(stringValue: member.key)) }
        }
    }
}
