import FolioModel
import Foundation

/// Reads whole input files with a size bound: a regular file larger than the bound,
/// a folder or an endless device (`/dev/zero`) is an error before memory is spent.
package enum BoundedFile {
    /// The bytes of `path`, at most `limit` of them; errors name `field`.
    /// `shownAs` is the name errors use (the path as the document wrote it).
    /// With `regularOnly`, anything but a regular file (a FIFO, a device) is refused before it is read.
    package static func read(
        _ path: String, limit: Int, field: String, what: String = "file", shownAs: String? = nil,
        regularOnly: Bool = false
    ) throws -> Data {
        let name = shownAs ?? path
        // Non-blocking, so opening a FIFO nobody writes to cannot hang; reading a regular file is unaffected.
        let fd = open(path, O_RDONLY | O_CLOEXEC | (regularOnly ? O_NONBLOCK : 0))
        guard fd >= 0 else {
            throw FolioError(path: field, "cannot read \(what) \"\(name)\": \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw FolioError(path: field, "cannot read \(what) \"\(name)\": \(String(cString: strerror(errno)))")
        }
        let kind = info.st_mode & S_IFMT
        if kind == S_IFDIR { throw FolioError(path: field, "cannot read \(what) \"\(name)\": it is a folder") }
        if regularOnly, kind != S_IFREG { throw FolioError(path: field, "cannot read \(what) \"\(name)\": it is not a regular file") }
        if kind == S_IFREG, Int(info.st_size) > limit {
            throw FolioError(path: field, "\(what) \"\(name)\" has \(info.st_size) bytes; at most \(limit) are allowed")
        }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FolioError(path: field, "cannot read \(what) \"\(name)\": \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            data.append(contentsOf: buffer[0..<count])
            if data.count > limit {
                throw FolioError(path: field, "\(what) \"\(name)\" has more than \(limit) bytes")
            }
        }
        return data
    }

    /// Standard input, at most `limit` bytes.
    package static func readStandardInput(limit: Int) throws -> Data {
        try read("/dev/stdin", limit: limit, field: "", what: "standard input")
    }
}
