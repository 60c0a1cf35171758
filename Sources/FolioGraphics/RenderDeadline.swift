import Foundation
import Synchronization

/// A time limit on one render, checked between units of work (blocks, pages, table rows, chunks
/// of long text) so that a render that runs too long stops instead of running on.
///
/// A server binds one for each request with `RenderDeadline.$current.withValue(_:operation:)`;
/// without one bound, `check()` costs one task-local read and never throws.
///
/// The checks also say what the render is doing (`check(at:)`): a deadline made with an
/// `activity` recorder hands it each step ("drawing elements[3]"), which a render worker keeps
/// where its supervisor can read it after a crash.
public final class RenderDeadline: Sendable {
    /// The deadline of the render running on this thread or task, if any.
    @TaskLocal public static var current: RenderDeadline?

    /// When the render must have finished, in `DispatchTime` nanoseconds.
    public let uptimeNanoseconds: UInt64
    /// Whether the render was cancelled, and the checks left before the deadline passes whatever
    /// the time (nil for a deadline in time only).
    private let state: Mutex<(cancelled: Bool, checksLeft: Int?)>
    /// Asked at every check whether someone outside (a supervisor) wants the render stopped.
    private let stopRequested: (@Sendable () -> Bool)?
    /// Told what the render is doing at each check that says so.
    private let activity: (@Sendable (String) -> Void)?

    /// A deadline `seconds` from now (`.infinity` for none). `stopRequested` is asked at every
    /// check whether to stop early; `activity` is told each step the render names.
    public init(
        seconds: Double, stopRequested: (@Sendable () -> Bool)? = nil, activity: (@Sendable (String) -> Void)? = nil
    ) {
        let nanoseconds = seconds.isFinite ? (max(0, seconds) * 1e9).clampedInt() : Int.max
        uptimeNanoseconds = DispatchTime.now().uptimeNanoseconds &+ UInt64(max(0, nanoseconds))
        state = Mutex((cancelled: false, checksLeft: nil))
        self.stopRequested = stopRequested
        self.activity = activity
    }

    /// A deadline that passes at the `count`-th check, whatever the time: the same point of the
    /// same render on every machine, for tests.
    init(afterChecks count: Int) {
        uptimeNanoseconds = UInt64.max
        state = Mutex((cancelled: false, checksLeft: count))
        stopRequested = nil
        activity = nil
    }

    /// Stops the render at its next check, whatever the time.
    public func cancel() {
        state.withLock { $0.cancelled = true }
    }

    /// Whether the render should stop: cancelled, or past the deadline.
    public var isExpired: Bool {
        isPast(cancelled: state.withLock { $0.cancelled })
    }

    private func isPast(cancelled: Bool) -> Bool {
        cancelled || stopRequested?() == true || DispatchTime.now().uptimeNanoseconds >= uptimeNanoseconds
    }

    /// Throws `RenderDeadline.Expired` when the render should stop.
    public func check() throws {
        let cancelled = state.withLock { state in
            if let left = state.checksLeft {
                state.checksLeft = left - 1
                if left <= 1 { state.cancelled = true }
            }
            return state.cancelled
        }
        if isPast(cancelled: cancelled) { throw Expired() }
    }

    /// Throws when the current render's deadline has passed; does nothing when there is none.
    public static func check() throws {
        try current?.check()
    }

    /// Tells the current render's activity recorder what comes next (`"drawing elements[3]"`,
    /// made only when one listens), then throws when the deadline has passed.
    public static func check(at step: @autoclosure () -> String) throws {
        guard let current else { return }
        current.activity?(step())
        try current.check()
    }

    /// The error a render stops with when its deadline has passed.
    public struct Expired: Error, CustomStringConvertible {
        /// Creates the error.
        public init() {}
        /// "the render took longer than its time limit".
        public var description: String { "the render took longer than its time limit" }
    }
}
