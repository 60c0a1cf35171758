import FolioFiles
import FolioModel
import Foundation

/// The folder a `folio fetch` writes: the export's NDJSON files (the folder `folio batch --data DIR
/// --data-format fhir` reads) and, in `.folio-fetch/`, the request and manifest of the last complete
/// fetch and, while one is under way, its status address and the files already downloaded — so a
/// fetch run again after it was stopped (even by SIGKILL) goes on where it was.
package struct FetchFolder: Sendable {
    /// The folder.
    package let path: String
    /// Its state folder.
    package var statePath: String { (path as NSString).appendingPathComponent(".folio-fetch") }

    /// The folder at `path`, created (with its state folder) when missing.
    package init(path: String) throws {
        self.path = path
        for folder in [path, (path as NSString).appendingPathComponent(".folio-fetch")] {
            var info = stat()
            if lstat(folder, &info) == 0 {
                guard info.st_mode & S_IFMT == S_IFDIR else { throw FolioError(path: "--out", "\(folder) is not a folder") }
            } else {
                do {
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                } catch {
                    throw FolioError(path: "--out", "cannot make the folder \(folder): \(error.localizedDescription)")
                }
            }
        }
    }

    /// The URL of `name` in the folder.
    package func url(_ name: String) -> URL { URL(fileURLWithPath: (path as NSString).appendingPathComponent(name)) }

    private func stateURL(_ name: String) -> URL { URL(fileURLWithPath: (statePath as NSString).appendingPathComponent(name)) }

    /// The JSON object in state file `name`, if there is one that reads.
    package func state(_ name: String) -> [String: Any]? {
        guard let data = try? BoundedFile.read(stateURL(name).path, limit: 256 << 20, field: "--out", what: "state file", regularOnly: true)
        else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// Writes state file `name` atomically.
    package func setState(_ name: String, _ object: Any) throws {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
        try AtomicFile.write(data, to: stateURL(name))
    }

    /// Removes state file `name`.
    package func removeState(_ name: String) { unlink(stateURL(name).path) }

    /// Removes the temporary files a stopped run left (in the folder and its state folder).
    package func removeLeftovers() {
        for folder in [path, statePath] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            where name.hasPrefix(AtomicFile.temporaryPrefix) {
                // `.folio-tmp-PID-…`: only a process that is gone is done with its file.
                let pid = name.dropFirst(AtomicFile.temporaryPrefix.count).split(separator: "-").first.flatMap { Int32($0) }
                if let pid, pid != getpid(), kill(pid, 0) == 0 { continue }
                unlink((folder as NSString).appendingPathComponent(name))
            }
        }
    }

    /// The number of resources (non-empty lines) in the file `name`.
    package func lineCount(_ name: String) throws -> Int {
        let fd = open(url(name).path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FolioError(path: "--out", "cannot read \(name): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var lines = 0
        var lastWasNewline = true
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let read = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if read < 0, errno == EINTR { continue }
            guard read > 0 else { break }
            for byte in buffer[0..<read] {
                if byte == 0x0A {
                    lastWasNewline = true
                } else if byte != 0x0D, lastWasNewline {
                    lines += 1
                    lastWasNewline = false
                }
            }
        }
        return lines
    }

    /// Whether a regular file `name` stands in the folder.
    package func hasFile(_ name: String) -> Bool {
        var info = stat()
        return lstat(url(name).path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }
}
