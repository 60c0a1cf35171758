import Foundation

/// A time limit on one render, checked between units of work (blocks, pages, table rows, chunks
/// of long text) so that a render that runs too long stops instead of running on.
///
/// A server binds one for each request with `RenderDeadline.$current.withValue(_:operation:)`;
/// without one bound, `check()` costs one task-local read and never throws.
public final class RenderDeadline: @unchecked Sendable {
    /// The deadline of the render running on this thread or task, if any.
    @TaskLocal public static var current: RenderDeadline?

    /// When the render must have finished, in `DispatchTime` nanoseconds.
    public let uptimeNanoseconds: UInt64
    private let lock = NSLock()
    private var cancelled = false
    /// Checks left before the deadline passes whatever the time; nil for a deadline in time only.
    private var checksLeft: Int?

    /// A deadline `seconds` from now.
    public init(seconds: Double) {
        let nanoseconds = (max(0, seconds) * 1e9).clampedInt()
        uptimeNanoseconds = DispatchTime.now().uptimeNanoseconds &+ UInt64(max(0, nanoseconds))
    }

    /// A deadline that passes at the `count`-th check, whatever the time: the same point of the
    /// same render on every machine, for tests.
    init(afterChecks count: Int) {
        uptimeNanoseconds = UInt64.max
        checksLeft = count
    }

    /// Stops the render at its next check, whatever the time.
    public func cancel() {
        lock.lock()
        cancelled = true
        lock.unlock()
    }

    /// Whether the render should stop: cancelled, or past the deadline.
    public var isExpired: Bool {
        lock.lock()
        let cancelled = self.cancelled
        lock.unlock()
        return cancelled || DispatchTime.now().uptimeNanoseconds >= uptimeNanoseconds
    }

    /// Throws `RenderDeadline.Expired` when the render should stop.
    public func check() throws {
        if checksLeft != nil {
            lock.lock()
            checksLeft = (checksLeft ?? 0) - 1
            if (checksLeft ?? 0) <= 0 { cancelled = true }
            lock.unlock()
        }
        if isExpired { throw Expired() }
    }

    /// Throws when the current render's deadline has passed; does nothing when there is none.
    public static func check() throws {
        try current?.check()
    }

    /// The error a render stops with when its deadline has passed.
    public struct Expired: Error, CustomStringConvertible {
        /// Creates the error.
        public init() {}
        /// "the render took longer than its time limit".
        public var description: String { "the render took longer than its time limit" }
    }
}
