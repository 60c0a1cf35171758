extension KeyedDecodingContainer {
    /// The value at `key`, or `fallback` when the key is absent or null: a field with a default,
    /// its type taken from where the value goes (`zebra = try c.decode(.zebra, default: true)`).
    func decode<Value: Decodable>(_ key: Key, default fallback: @autoclosure () throws -> Value) throws -> Value {
        try decodeIfPresent(Value.self, forKey: key) ?? fallback()
    }

    /// The value at `key`, or nil when the key is absent or null: an optional field, its type
    /// taken from where the value goes (`caption = try c.decodeIfPresent(.caption)`).
    func decodeIfPresent<Value: Decodable>(_ key: Key) throws -> Value? {
        try decodeIfPresent(Value.self, forKey: key)
    }
}
