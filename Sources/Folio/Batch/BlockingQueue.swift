import Foundation

/// A bounded first-in first-out queue between threads; `pop` waits for an item
/// or for the queue to be closed and drained. A popped item is released at once (its slot is
/// cleared), so the queue holds at most `capacity` items alive, not the last thousand.
final class BlockingQueue<Element>: @unchecked Sendable {
    private var items: [Element?] = []
    private var head = 0
    private var closed = false
    private let capacity: Int
    private let condition = NSCondition()

    init(capacity: Int) { self.capacity = max(capacity, 1) }

    /// Adds `item`, waiting while the queue is full; false when the queue was closed.
    @discardableResult
    func push(_ item: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count - head >= capacity && !closed { condition.wait() }
        guard !closed else { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// What `pop` found.
    enum Pop {
        case item(Element)
        case timedOut
        case finished
    }

    /// The next item, waiting for one at most `timeout` seconds; `finished` once closed and empty.
    func pop(timeout: Double? = nil) -> Pop {
        condition.lock()
        defer { condition.unlock() }
        let deadline = timeout.map { Date(timeIntervalSinceNow: $0) }
        while head == items.count && !closed {
            if let deadline {
                if !condition.wait(until: deadline) { return .timedOut }
            } else {
                condition.wait()
            }
        }
        guard head < items.count, let item = items[head] else { return .finished }
        items[head] = nil
        head += 1
        if head > 1024 {
            items.removeFirst(head)
            head = 0
        }
        condition.broadcast()
        return .item(item)
    }

    /// No more items will come; waiting pushes give up, pops drain what is left.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
