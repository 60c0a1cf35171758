import FolioData
import Foundation

/// One message between a supervisor and a render worker: a header (JSON) and a body of bytes
/// (a template, a request body, a rendered document).
package struct WorkerMessage: Sendable {
    /// The header, a JSON object.
    package var header: TreeValue
    /// The bytes that go with it; empty for most.
    package var body: Data

    /// A message with `header` and `body`.
    package init(_ header: TreeValue, body: Data = Data()) {
        self.header = header
        self.body = body
    }

    /// The header member `key`, if there is one.
    package subscript(key: String) -> TreeValue? { header[key] }
}

/// A framed, bidirectional byte stream to the other side (a Unix socket): each message is its
/// header's and body's lengths (32 bits, little-endian), the header's JSON, then the body.
/// Reads wait at most until a deadline; writes never raise SIGPIPE.
package final class WorkerChannel {
    /// The largest header or body a message may carry.
    package static let largestPart = 1 << 30

    package let fd: Int32
    private var buffer: [UInt8] = []
    private var position = 0

    /// The channel on `fd`, which it closes when it goes.
    package init(fd: Int32) { self.fd = fd }

    deinit { close(fd) }

    /// What went wrong on the channel.
    package enum Failure: Error {
        /// The other side closed it (or died).
        case closed
        /// Nothing came before the deadline.
        case timedOut
        /// The bytes are not a message.
        case malformed(String)
    }

    /// Sends `message`; throws `closed` when the other side has gone.
    package func send(_ message: WorkerMessage) throws {
        let header = Array(message.header.json.utf8)
        var frame: [UInt8] = []
        frame.reserveCapacity(8 + header.count)
        for length in [header.count, message.body.count] {
            let value = UInt32(clamping: length)
            frame += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
        }
        frame += header
        try frame.withUnsafeBytes { try sendAll($0) }
        if !message.body.isEmpty { try message.body.withUnsafeBytes { try sendAll($0) } }
    }

    private func sendAll(_ bytes: UnsafeRawBufferPointer) throws {
        guard var pointer = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let sent = Foundation.send(fd, pointer, remaining, Int32(MSG_NOSIGNAL))
            if sent < 0 {
                if errno == EINTR { continue }
                throw Failure.closed
            }
            remaining -= sent
            pointer += sent
        }
    }

    /// The next message, waiting until `deadline` (`DispatchTime` nanoseconds; nil: for ever) and
    /// asking `interrupted` about every 50 ms whether to give up waiting (then `timedOut`).
    package func receive(until deadline: UInt64? = nil, interrupted: (() -> Bool)? = nil) throws -> WorkerMessage {
        let lengths = try read(8, until: deadline, interrupted: interrupted)
        func length(_ offset: Int) -> Int {
            Int(lengths[offset]) | Int(lengths[offset + 1]) << 8 | Int(lengths[offset + 2]) << 16 | Int(lengths[offset + 3]) << 24
        }
        let headerLength = length(0)
        let bodyLength = length(4)
        guard headerLength <= WorkerChannel.largestPart, bodyLength <= WorkerChannel.largestPart else {
            throw Failure.malformed("a message part of \(max(headerLength, bodyLength)) bytes")
        }
        let header = try read(headerLength, until: deadline, interrupted: interrupted)
        let body = try read(bodyLength, until: deadline, interrupted: interrupted)
        do {
            return WorkerMessage(try JSONTreeParser.parse(header), body: Data(body))
        } catch {
            throw Failure.malformed("a header that is not JSON")
        }
    }

    /// Exactly `count` bytes.
    private func read(_ count: Int, until deadline: UInt64?, interrupted: (() -> Bool)?) throws -> [UInt8] {
        while buffer.count - position < count {
            try fill(until: deadline, interrupted: interrupted)
        }
        let bytes = Array(buffer[position..<(position + count)])
        position += count
        if position == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
            position = 0
        }
        return bytes
    }

    private func fill(until deadline: UInt64?, interrupted: (() -> Bool)?) throws {
        while true {
            var waitMilliseconds: Int32 = 50
            if let deadline {
                let now = DispatchTime.now().uptimeNanoseconds
                guard now < deadline else { throw Failure.timedOut }
                waitMilliseconds = Int32(min(50, (deadline - now) / 1_000_000 + 1))
            }
            if let interrupted, interrupted() { throw Failure.timedOut }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, interrupted == nil && deadline == nil ? -1 : waitMilliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                throw Failure.closed
            }
            if ready == 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let received = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if received < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw Failure.closed
            }
            if received == 0 { throw Failure.closed }
            if position > 0 {
                buffer.removeFirst(position)
                position = 0
            }
            buffer.append(contentsOf: chunk[0..<received])
            return
        }
    }
}
