import Foundation
import XCTest

@testable import Folio

/// The queue between batch reader, workers and writer.
final class BlockingQueueTests: XCTestCase {
    private final class Payload {}

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
}
