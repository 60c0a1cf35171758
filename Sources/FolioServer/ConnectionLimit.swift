import Folio
import Foundation
import HummingbirdCore

/// Accepts at most `maximum` open connections, and counts them so that shutdown can wait until
/// every response has been written out: the process must not exit while a large PDF is still
/// being sent.
struct ConnectionLimit: AvailableConnectionsDelegate {
    /// The open connections, shared by every copy of this value.
    final class Count: Sendable {
        private let value = Locked(0)
        private let observe: @Sendable (Int) -> Void

        /// A count that tells `observe` each new value.
        init(observe: @escaping @Sendable (Int) -> Void = { _ in }) { self.observe = observe }

        var current: Int { value.value }

        func add(_ delta: Int) {
            let now = value.withLock { value in
                value += delta
                return value
            }
            observe(now)
        }

        /// Waits until no connection is open, or `seconds` pass; whether none is open.
        func waitUntilZero(seconds: Double) async -> Bool {
            let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, seconds * 1e9).clampedInt())
            while current > 0 && DispatchTime.now().uptimeNanoseconds < deadline {
                try? await Task.sleep(nanoseconds: 10_000_000)
            }
            return current == 0
        }
    }

    let maximum: Int
    let count: Count

    mutating func connectionOpened() { count.add(1) }
    mutating func connectionClosed() { count.add(-1) }
    func isAcceptingNewConnections() -> Bool { count.current < maximum }
}
