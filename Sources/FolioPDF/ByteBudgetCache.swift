import Foundation

/// Values kept by the encoded bytes they were made from (a picture's file), within a budget of
/// bytes: keeping one past the budget lets the oldest go first. What a process keeps between renders
/// (`DecodedPixelStore`, `PictureObjects`); the caller holds it under a lock.
struct ByteBudgetCache<Value> {
    /// The most bytes kept, each value's cost with the bytes of its key.
    let budget: Int
    private var values: [Data: (value: Value, cost: Int)] = [:]
    private var order: [Data] = []
    private var bytes = 0

    init(budget: Int) { self.budget = budget }

    /// The value kept for `key`, if any.
    subscript(key: Data) -> Value? { values[key]?.value }

    /// How many values are kept.
    var count: Int { values.count }

    /// Keeps `value` for `key`, costing `cost` bytes besides the key's; a value costing more than
    /// the whole budget is not kept, and one already kept for `key` stays.
    mutating func keep(_ value: Value, for key: Data, cost: Int) {
        let total = cost + key.count
        guard total <= budget, values[key] == nil else { return }
        while bytes + total > budget, !order.isEmpty {
            let oldest = order.removeFirst()
            if let removed = values.removeValue(forKey: oldest) { bytes -= removed.cost }
        }
        values[key] = (value, total)
        order.append(key)
        bytes += total
    }
}
