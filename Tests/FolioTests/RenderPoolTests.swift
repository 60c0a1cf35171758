import Foundation
import XCTest

@testable import Folio
@testable import FolioGraphics
@testable import FolioModel
@testable import FolioServer

/// The server's worker pool: bounded queue, deadlines, cancellation.
final class RenderPoolTests: XCTestCase {
    func testAFullQueueRefusesAtOnceAndQueuedRendersRunInOrder() async throws {
        let pool = RenderPool<Void>(workers: 1, queueLimit: 1)
        try pool.start()
        defer { pool.stop() }
        let gate = DispatchSemaphore(value: 0)
        let order = Locked<[Int]>([])
        let first = Task {
            try await pool.run(deadline: RenderDeadline(seconds: 30)) { _ in
                gate.wait()
                order.withLock { $0.append(1) }
                return 1
            }
        }
        while pool.runningCount == 0 { try await Task.sleep(nanoseconds: 5_000_000) }
        let second = Task {
            try await pool.run(deadline: RenderDeadline(seconds: 30)) { _ in
                order.withLock { $0.append(2) }
                return 2
            }
        }
        while pool.queueDepth < 1 { try await Task.sleep(nanoseconds: 5_000_000) }
        XCTAssertNil(pool.reserve())
        do {
            _ = try await pool.run(deadline: RenderDeadline(seconds: 30)) { _ in 3 }
            XCTFail("a third render was admitted")
        } catch is RenderPool<Void>.Full {}
        gate.signal()
        let results = (try await first.value, try await second.value)
        XCTAssertEqual(results.0, 1)
        XCTAssertEqual(results.1, 2)
        XCTAssertEqual(order.value, [1, 2])
        // The slots come back once the renders end on their worker.
        var slot = pool.reserve()
        for _ in 0..<200 where slot == nil {
            try await Task.sleep(nanoseconds: 5_000_000)
            slot = pool.reserve()
        }
        XCTAssertNotNil(slot)
    }

    func testARenderThatChecksItsDeadlineStops() async throws {
        let pool = RenderPool<Void>(workers: 1, queueLimit: 4)
        try pool.start()
        defer { pool.stop() }
        let checks = Locked<[Int]>([])
        do {
            _ = try await pool.run(deadline: RenderDeadline(seconds: 0.2)) { (_: Void) throws -> Int in
                while true {
                    try RenderDeadline.check()
                    checks.withLock { $0.append(1) }
                    usleep(1000)
                }
            }
            XCTFail("the render did not stop")
        } catch is RenderDeadline.Expired {}
        // The worker is free again: the render really stopped.
        let after = checks.value.count
        let next = try await pool.run(deadline: RenderDeadline(seconds: 5)) { _ in 7 }
        XCTAssertEqual(next, 7)
        XCTAssertEqual(checks.value.count, after)
    }

    func testTheCallerIsAnsweredAtTheDeadlineEvenWhenTheRenderDoesNotCheck() async throws {
        let pool = RenderPool<Void>(workers: 1, queueLimit: 4)
        try pool.start()
        defer { pool.stop() }
        // Answered before the render ends (it sleeps 3 s; no wall-clock bound is asserted).
        let finished = Locked(false)
        do {
            _ = try await pool.run(deadline: RenderDeadline(seconds: 0.2)) { (_: Void) -> Int in
                usleep(3_000_000)
                finished.set(true)
                return 1
            }
            XCTFail("no timeout")
        } catch is RenderDeadline.Expired {}
        XCTAssertFalse(finished.value, "the caller was answered only when the render ended")
        // A render that waited past its deadline in the queue never starts.
        let ran = Locked<[Int]>([])
        do {
            _ = try await pool.run(deadline: RenderDeadline(seconds: 0.1)) { (_: Void) -> Int in
                ran.withLock { $0.append(1) }
                return 1
            }
            XCTFail("no timeout")
        } catch is RenderDeadline.Expired {}
        while !finished.value { try await Task.sleep(nanoseconds: 50_000_000) }
        try await Task.sleep(nanoseconds: 200_000_000)
        XCTAssertEqual(ran.value, [])
    }

    func testCancellingTheRequestCancelsTheRender() async throws {
        let pool = RenderPool<Void>(workers: 1, queueLimit: 4)
        try pool.start()
        defer { pool.stop() }
        let checks = Locked<[Int]>([])
        let task = Task {
            try await pool.run(deadline: RenderDeadline(seconds: 30)) { (_: Void) throws -> Int in
                while true {
                    try RenderDeadline.check()
                    checks.withLock { $0.append(1) }
                    usleep(1000)
                }
            }
        }
        while checks.value.isEmpty { try await Task.sleep(nanoseconds: 5_000_000) }
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("not cancelled")
        } catch is CancellationError {}
        try await Task.sleep(nanoseconds: 100_000_000)
        let count = checks.value.count
        try await Task.sleep(nanoseconds: 100_000_000)
        XCTAssertEqual(checks.value.count, count, "the render kept running")
    }

    func testEveryWorkerIsPreparedBeforeStartReturns() throws {
        let threads = Locked<[Int]>([])
        let pool = RenderPool<Void>(workers: 3, queueLimit: 0)
        try pool.start { _ in threads.withLock { $0.append(Int(bitPattern: pthread_self())) } }
        defer { pool.stop() }
        XCTAssertEqual(Set(threads.value).count, 3, "each worker thread prepares itself")
        struct NoFonts: Error {}
        let broken = RenderPool<Void>(workers: 2, queueLimit: 0)
        XCTAssertThrowsError(try broken.start { _ in throw NoFonts() }) { XCTAssertTrue($0 is NoFonts) }
    }

    func testADocumentRenderStopsAtItsDeadline() throws {
        let rows = Array(repeating: ["2026-11-16", "Blood pressure", "128/82 mmHg"], count: 60_000)
        let document = Document(title: "Long", elements: [.table(Table(header: ["When", "What", "Value"], rows: rows))])
        XCTAssertThrowsError(try RenderDeadline.$current.withValue(RenderDeadline(seconds: 0.05)) { try document.pdf() }) {
            XCTAssertTrue($0 is RenderDeadline.Expired, "\($0)")
        }
        XCTAssertThrowsError(try RenderDeadline.$current.withValue(RenderDeadline(seconds: 0.05)) { try document.html() }) {
            XCTAssertTrue($0 is RenderDeadline.Expired, "\($0)")
        }
    }
}

extension RenderPoolTests {
    func testARenderStoppedWhileDrawingPagesLeaksNothing() throws {
        try TestSupport.integrationOnly()
        // A server answers every 504 this way: each stopped render leaked its PDF surface (2 MB here).
        let rows = Array(repeating: ["2026-11-16", "Blood pressure", "128/82 mmHg"], count: 2000)
        let document = Document(title: "Long", elements: [.table(Table(header: ["When", "What", "Value"], rows: rows))])
        _ = try document.pdf()
        // Layout makes 9 checks (the block, every 256 rows); the 20th falls among the page checks.
        // Resident memory: after the warm-up renders, freed memory is reused, so only leaks add to it.
        func heap() -> Int {
            let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
            return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
        }
        var stopped = 0
        let before = heap()
        for _ in 0..<20 {
            do {
                _ = try RenderDeadline.$current.withValue(RenderDeadline(afterChecks: 20)) { try document.pdf() }
            } catch is RenderDeadline.Expired {
                stopped += 1
            }
        }
        let growth = heap() - before
        XCTAssertEqual(stopped, 20)
        XCTAssertLessThan(growth, 4 << 20, "\(stopped) stopped renders left \(growth / 1024) KB behind")
    }
}
