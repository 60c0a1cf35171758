import Foundation
import XCTest

@testable import Folio

/// A `folio serve` process on a free loopback port, for the server's integration tests.
final class RunningServer: Sendable {
    let process = Process()
    /// The port the server bound.
    let port: Int
    private let logBox = Locked("")

    /// Starts `folio serve --port 0` with `arguments` and waits until it logs that it listens; with a
    /// `launcher` (a command and its arguments that end by running folio with the rest, such as one
    /// that runs it inside an unpacked root file system), folio is run by it.
    init(
        _ arguments: [String], environment: [String: String] = [:], launcher: [String] = [], file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        process.executableURL = launcher.first.map { URL(fileURLWithPath: $0) } ?? TestSupport.folioBinary
        process.arguments = launcher.dropFirst() + ["serve", "--port", "0"] + arguments
        var env = ProcessInfo.processInfo.environment
        env["SOURCE_DATE_EPOCH"] = "1763280000"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let box = logBox
        try RunningServer.start(process, readingErrorsInto: box)
        let deadline = Date().addingTimeInterval(60)
        var listening: Int?
        while Date() < deadline, listening == nil {
            listening = RunningServer.entries(of: box.value).first { $0["message"] as? String == "listening" }.map {
                $0["port"] as? Int ?? 0
            }
            if listening == nil {
                if !process.isRunning { break }
                usleep(20_000)
            }
        }
        port = listening ?? 0
        guard listening != nil else {
            XCTFail("the server did not start: \(box.value)", file: file, line: line)
            throw ServerDidNotStart()
        }
    }

    struct ServerDidNotStart: Error {}

    /// Runs `process`, its standard error added to `box` as it comes (standard output discarded).
    static func start(_ process: Process, readingErrorsInto box: Locked<String>) throws {
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        let handle = errors.fileHandleForReading
        let reader = Thread {
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                box.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
        }
        try process.run()
        reader.start()
    }

    /// Everything the server wrote on standard error so far.
    var log: String { logBox.value }

    /// The log's JSON lines, decoded.
    func logEntries() -> [[String: Any]] { RunningServer.entries(of: log) }

    private static func entries(of log: String) -> [[String: Any]] {
        log.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    /// `http://127.0.0.1:PORT` and `path`.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// The value of metric `name` (with `labels`, as in `route="/x",status="200"`) at `/metrics`, or nil.
    func metric(_ name: String, labels: String? = nil) throws -> Double? {
        let key = labels.map { "\(name){\($0)} " } ?? "\(name) "
        let text = try HTTPExchange.send("GET", url("/metrics")).text
        return text.split(separator: "\n").first { $0.hasPrefix(key) }.flatMap { Double($0.dropFirst(key.count)) }
    }

    /// Sends `signal` and waits for the process to end; its exit status.
    @discardableResult
    func stop(signal: Int32 = SIGTERM, timeout: TimeInterval = 30) -> Int32? {
        if process.isRunning { kill(process.processIdentifier, signal) }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        return process.terminationStatus
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
}

/// An HTTP exchange made with curl.
struct HTTPExchange: Sendable {
    let status: Int
    /// Header fields by lowercased name (the last one wins).
    let headers: [String: String]
    let body: Data
    var text: String { String(decoding: body, as: UTF8.self) }
    /// The body as a JSON object.
    var json: [String: Any] { ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any]) ?? [:] }

    /// Sends one request with curl: `headers` as "Name: value" lines.
    static func send(
        _ method: String, _ url: String, headers: [String] = [], body: Data? = nil,
        timeout: Int = 60
    ) throws -> HTTPExchange {
        let folder = try TestSupport.temporaryDirectory()
        let headerFile = folder.appendingPathComponent("headers")
        let bodyFile = folder.appendingPathComponent("body")
        var arguments = [
            "-s", "-S", "-X", method, "-D", headerFile.path, "-o", bodyFile.path, "-w", "%{http_code}",
            "--max-time", String(timeout), "-H", "Expect:",
        ]
        for header in headers { arguments += ["-H", header] }
        if let body {
            let input = folder.appendingPathComponent("input")
            try body.write(to: input)
            arguments += ["--data-binary", "@\(input.path)"]
        }
        arguments.append(url)
        let result = try TestSupport.run("curl", arguments)
        var fields: [String: String] = [:]
        let head = (try? String(contentsOf: headerFile, encoding: .utf8)) ?? ""
        for line in head.split(whereSeparator: \.isNewline) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return HTTPExchange(
            status: Int(result.text) ?? 0, headers: fields,
            body: (try? Data(contentsOf: bodyFile)) ?? Data())
    }
}

/// A plain TCP connection, for requests curl will not send (slow heads, bodies that stop).
final class RawConnection {
    private let fd: Int32

    /// Connects to 127.0.0.1:`port`; `receiveBuffer` bytes of socket buffer when given.
    init(port: Int, receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if result != 0 { throw POSIXError(.ECONNREFUSED) }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends `text`; false when the peer has closed.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Everything the server sends until it closes the connection (or 30 s pass).
    func readToEnd() -> String {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            data += buffer[0..<count]
        }
        return String(decoding: data, as: UTF8.self)
    }

    deinit { close(fd) }
}
