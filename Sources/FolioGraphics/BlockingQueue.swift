import Dispatch
import Synchronization

/// A bounded first-in first-out queue between threads (a batch's reader, workers and writer; a long
/// PDF's drawing and finishing); `pop` waits for an item
/// or for the queue to be closed and drained. A popped item is released at once (its slot is
/// cleared), so the queue holds at most `capacity` items alive, not the last thousand.
///
/// The items sit under a `Mutex`; two semaphores count the free places (pushers wait on it) and
/// the items (poppers wait on it). Once the queue is closed, a woken pusher or popper that finds
/// nothing to do passes its wake-up on, so every waiting thread returns.
package final class BlockingQueue<Element: Sendable>: Sendable {
    private struct Items {
        var slots: [Element?] = []
        var head = 0
        var closed = false
    }

    private let items = Mutex(Items())
    /// Free places. Made at 0 and raised to the capacity: libdispatch traps when a semaphore is
    /// released below its starting value, as a queue dropped with items in it would be.
    private let places = DispatchSemaphore(value: 0)
    /// Items waiting (plus the one wake-up a closed queue passes on).
    private let available = DispatchSemaphore(value: 0)

    /// A queue holding at most `capacity` items (at least 1).
    package init(capacity: Int) {
        for _ in 0..<max(capacity, 1) { places.signal() }
    }

    /// Adds `item`, waiting while the queue is full; false when the queue was closed.
    @discardableResult
    package func push(_ item: Element) -> Bool {
        places.wait()
        let added = items.withLock { items in
            guard !items.closed else { return false }
            items.slots.append(item)
            return true
        }
        if added {
            available.signal()
        } else {
            places.signal()
        }
        return added
    }

    /// What `pop` found.
    package enum Pop {
        case item(Element)
        case timedOut
        case finished
    }

    /// The next item, waiting for one at most `timeout` seconds; `finished` once closed and empty.
    package func pop(timeout: Double? = nil) -> Pop {
        if let timeout {
            let nanoseconds = Int(exactly: (max(0, min(timeout, 1e6)) * 1e9).rounded()) ?? 0
            if available.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .timedOut { return .timedOut }
        } else {
            available.wait()
        }
        let item: Element? = items.withLock { items in
            guard items.head < items.slots.count, let item = items.slots[items.head] else { return nil }
            items.slots[items.head] = nil
            items.head += 1
            if items.head > 1024 {
                items.slots.removeFirst(items.head)
                items.head = 0
            }
            return item
        }
        guard let item else {
            // Closed and empty: the next waiting popper is told too.
            available.signal()
            return .finished
        }
        places.signal()
        return .item(item)
    }

    /// No more items will come; waiting pushes give up, pops drain what is left.
    package func close() {
        items.withLock { $0.closed = true }
        available.signal()
        places.signal()
    }
}
