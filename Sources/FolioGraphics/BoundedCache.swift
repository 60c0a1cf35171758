/// Values kept by key, up to a number of entries and a total cost; keeping one more than either
/// allows empties the cache first. For what a thread keeps across renders (shaped text, font
/// descriptions, measured sizes): emptying it costs shaping again, never a different answer.
package struct BoundedCache<Key: Hashable, Value> {
    /// The most entries kept.
    package let limit: Int
    /// The most cost kept, over all entries (what `keep` is told each costs).
    package let budget: Int
    private var values: [Key: Value] = [:]
    private var cost = 0

    /// An empty cache of at most `limit` entries and `budget` cost.
    package init(limit: Int, budget: Int = .max) {
        self.limit = limit
        self.budget = budget
    }

    /// The value kept for `key`, if any.
    package subscript(key: Key) -> Value? { values[key] }

    /// How many entries are kept.
    package var count: Int { values.count }

    /// Lets go of every entry.
    package mutating func removeAll() {
        values.removeAll()
        cost = 0
    }

    /// Keeps `value` for `key` (one not kept yet), costing `cost`; the cache is emptied first when
    /// it holds `limit` entries or the cost would pass `budget`.
    package mutating func keep(_ value: Value, for key: Key, cost: Int = 0) {
        if values.count >= limit || cost > budget - self.cost {
            values.removeAll(keepingCapacity: true)
            self.cost = 0
        }
        values[key] = value
        self.cost += cost
    }
}
