import Foundation

/// The author's loop (#43): `folio check` over 10,000 records before a batch, and `folio preview`
/// showing an edit — from the write of the template to its new first page's picture served.
enum AuthoringBenchmark {
    /// The planted bad records' numbers, from 1.
    static let planted = [7, 1_234, 5_000, 8_888, 9_999]

    /// `folio check` of `Templates/weekly-summary.yaml` over 10,000 records of `patients-1000.jsonl`'s
    /// shape with `planted` bad ones; its seconds, or nil when it did not name every planted record.
    static func check(folio: URL, bench: URL) -> Double? {
        guard let source = try? String(contentsOf: bench.appendingPathComponent("patients-1000.jsonl"), encoding: .utf8) else { return nil }
        let lines = source.split(separator: "\n").map(String.init)
        guard !lines.isEmpty else { return nil }
        var records: [String] = []
        records.reserveCapacity(10_000)
        for index in 0..<10_000 {
            var line = lines[index % lines.count]
            if planted.contains(index + 1), let range = line.range(of: "\"pain\":[") {
                // A pain score that is not a number: `mean` refuses it.
                line.replaceSubrange(range, with: "\"pain\":[\"high\",")
            }
            records.append(line)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-bench-check-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("patients-10000.jsonl")
        let errors = folder.appendingPathComponent("errors.txt")
        guard (try? Data((records.joined(separator: "\n") + "\n").utf8).write(to: data)) != nil else { return nil }
        var best: Double?
        for _ in 0..<3 {
            let start = Timing.now()
            guard
                let pid = ChildProcess.spawn(
                    [
                        "/bin/sh", "-c", "exec \"$0\" check Templates/weekly-summary.yaml --data \"$1\" 2> \"$2\"", folio.path, data.path,
                        errors.path,
                    ])
            else { return nil }
            let status = ChildProcess.wait(pid)
            let seconds = Timing.now() - start
            let said = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            let named = planted.allSatisfy { said.contains(":\($0): record \($0): ") }
            guard status == 1, named, said.split(separator: "\n").count == planted.count else {
                print("folio check: status \(status), did not name exactly the planted records: \(said.prefix(300))")
                return nil
            }
            best = min(best ?? seconds, seconds)
        }
        if let best { print(String(format: "folio check, 10,000 records (5 bad, all named), the best of 3: %.2f s", best)) }
        return best
    }

    /// `folio preview` of the weekly summary with the batch sample's records: 50 edits of the
    /// template, each timed from its write to the new first page's picture; the 95th percentile in
    /// milliseconds, nil when the preview did not run.
    static func preview(folio: URL) -> Double? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-bench-preview-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let template = try? String(contentsOfFile: "Templates/weekly-summary.yaml", encoding: .utf8) else { return nil }
        let copy = folder.appendingPathComponent("weekly-summary.yaml")
        for file in ["logo.png"] {
            try? FileManager.default.copyItem(atPath: "Templates/" + file, toPath: folder.appendingPathComponent(file).path)
        }
        guard (try? Data(template.utf8).write(to: copy)) != nil else { return nil }
        let log = folder.appendingPathComponent("preview.log")
        guard
            let pid = ChildProcess.spawn(
                [
                    "/bin/sh", "-c", "exec \"$0\" preview \"$1\" --data Samples/patients.jsonl --port 0 2> \"$2\"", folio.path, copy.path,
                    log.path,
                ])
        else { return nil }
        defer {
            kill(pid, SIGTERM)
            _ = ChildProcess.wait(pid)
        }
        var port: Int?
        for _ in 0..<600 where port == nil {
            usleep(20_000)
            if let text = try? String(contentsOf: log, encoding: .utf8), let range = text.range(of: "127.0.0.1:") {
                port = Int(text[range.upperBound...].prefix { $0.isNumber })
            }
        }
        guard let port, let first = version(port) else {
            print("folio preview: did not start")
            return nil
        }
        var current = first
        var samples: [Double] = []
        for edit in 1...50 {
            let edited = template.replacingOccurrences(of: "title: ", with: "title: Edit \(edit) ", options: [], range: nil)
            let start = Timing.now()
            guard (try? Data(edited.utf8).write(to: copy)) != nil else { return nil }
            var shown = false
            while Timing.now() - start < 5 {
                if let now = version(port), now > current {
                    current = now
                    shown = LoopbackHTTP.get(port: port, path: "/pages/1.png")?.starts(with: [0x89, 0x50, 0x4E, 0x47]) ?? false
                    break
                }
                usleep(1_000)
            }
            guard shown else {
                print("folio preview: edit \(edit) was not shown within 5 s")
                return nil
            }
            samples.append(Timing.now() - start)
        }
        samples.sort()
        let p95 = samples[min(samples.count - 1, samples.count * 95 / 100)] * 1000
        print(
            String(
                format: "folio preview, 50 edits of the weekly summary template, write to new page picture: median %.0f ms, p95 %.0f ms",
                samples[samples.count / 2] * 1000, p95))
        return p95
    }

    /// The render number the preview shows.
    private static func version(_ port: Int) -> Int? {
        guard let body = LoopbackHTTP.get(port: port, path: "/state.json"),
            let state = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
        else { return nil }
        return state["version"] as? Int
    }
}

/// A GET to 127.0.0.1 over a plain socket (the benchmark links no HTTP client).
enum LoopbackHTTP {
    /// The body of `path`'s answer when its status is 200.
    static func get(port: Int, path: String) -> Data? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return nil }
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n"
        guard request.withCString({ send(descriptor, $0, strlen($0), 0) }) > 0 else { return nil }
        var answer = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            answer.append(contentsOf: buffer[0..<count])
        }
        guard let end = answer.range(of: Data("\r\n\r\n".utf8)), answer.starts(with: Data("HTTP/1.1 200".utf8)) else { return nil }
        return answer[end.upperBound...]
    }
}
