import Foundation
import Hummingbird

/// Reads request bodies within a size and a time limit.
enum BodyReader {
    /// The body of `request`: 413 when it has (or announces) more than `limit` bytes,
    /// 408 when it takes longer than `seconds` to arrive.
    static func read(_ request: Request, limit: Int, seconds: Double) async throws -> Data {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
            throw Problem.bodyTooLarge(limit: limit)
        }
        let body = request.body
        return try await withThrowingTaskGroup(of: Data?.self) { group in
            group.addTask {
                var data = Data()
                do {
                    for try await chunk in body {
                        guard data.count + chunk.readableBytes <= limit else { throw Problem.bodyTooLarge(limit: limit) }
                        data.append(contentsOf: chunk.readableBytesView)
                    }
                } catch let problem as Problem {
                    throw problem
                } catch {
                    // The connection closed or went idle (--idle-timeout) before the body was complete.
                    throw Problem.invalidRequest("the request body ended before it was complete")
                }
                return data
            }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64((seconds * 1e9).clampedInt()))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let data = first else {
                throw Problem.requestTimeout("the request body did not arrive within \(SecondsText(seconds)) s (--read-timeout)")
            }
            return data
        }
    }
}
