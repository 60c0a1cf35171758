import FolioGraphics
import Foundation
import XCTest

@testable import Folio

/// The queue between batch reader, workers and writer.
final class BlockingQueueTests: XCTestCase {
    private final class Payload: Sendable {}

    func testPoppedItemsAreReleasedAtOnce() {
        // A batch's results carry whole PDFs: the queue must not keep the ones already written.
        let queue = BlockingQueue<Payload>(capacity: 4)
        weak var first: Payload?
        func fill() {
            let payload = Payload()
            first = payload
            queue.push(payload)
            queue.push(Payload())
        }
        fill()
        guard case .item = queue.pop() else { return XCTFail("no item") }
        XCTAssertNil(first, "the popped item is still held by the queue")
        guard case .item = queue.pop() else { return XCTFail("no second item") }
        queue.close()
        guard case .finished = queue.pop() else { return XCTFail("not finished") }
    }

    func testOrderCapacityAndClose() {
        let queue = BlockingQueue<Int>(capacity: 2)
        let producer = Thread {
            for value in 0..<3000 { queue.push(value) }
            queue.close()
        }
        producer.start()
        var values: [Int] = []
        while case .item(let value) = queue.pop(timeout: 10) { values.append(value) }
        XCTAssertEqual(values, Array(0..<3000))
        XCTAssertFalse(queue.push(1), "a closed queue takes nothing")
    }

    func testCloseWakesEveryWaitingThread() {
        // Two pushers wait on a full queue and four poppers on an empty one: closing returns them all,
        // the pushers refused and the poppers finished.
        let full = BlockingQueue<Int>(capacity: 1)
        full.push(0)
        let empty = BlockingQueue<Int>(capacity: 4)
        let finished = DispatchGroup()
        let popped = Locked<[Int]>([])
        let refused = Locked(0)
        for _ in 0..<2 {
            finished.enter()
            Thread {
                if !full.push(1) { refused.withLock { $0 += 1 } }
                finished.leave()
            }.start()
        }
        for _ in 0..<4 {
            finished.enter()
            Thread {
                while case .item(let value) = empty.pop() { popped.withLock { $0.append(value) } }
                finished.leave()
            }.start()
        }
        Thread.sleep(forTimeInterval: 0.2)
        full.close()
        empty.close()
        XCTAssertEqual(finished.wait(timeout: .now() + 10), .success, "a waiting thread was not woken by close")
        XCTAssertEqual(popped.value, [])
        XCTAssertEqual(refused.value, 2)
        // What was queued before closing is still popped, once.
        guard case .item(0) = full.pop(timeout: 1) else { return XCTFail("the queued item was lost") }
        guard case .finished = full.pop(timeout: 1) else { return XCTFail("a closed, drained queue must say finished") }
    }
}
