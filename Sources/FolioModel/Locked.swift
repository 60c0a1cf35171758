import Synchronization

/// A value shared by threads: read and changed only under its lock (a `Mutex`), and shared by
/// reference, so threads that capture it see one value. Folio's one lock type for shared state.
package final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    /// A lock holding `value`.
    package init(_ value: Value) { mutex = Mutex(value) }

    /// The value now.
    package var value: Value { mutex.withLock { $0 } }

    /// Replaces the value.
    package func set(_ value: Value) { mutex.withLock { $0 = value } }

    /// Runs `body` with the value under the lock, and returns what it returns.
    package func withLock<Result: Sendable, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        try mutex.withLock { (value: inout sending Value) throws(Failure) -> sending Result in try body(&value) }
    }
}
