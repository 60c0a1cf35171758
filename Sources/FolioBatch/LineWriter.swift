import FolioData
import FolioFiles
import FolioModel
import Foundation

/// Appends JSON lines to a file, each written whole with one `write`, so an interrupted
/// run keeps what it logged. Appending first completes a last line cut by a killed run.
package final class LineWriter {
    private let fd: Int32
    private let path: String
    /// The first write error, reported when the batch ends.
    package private(set) var error: FolioError?

    /// Opens the file at `url`, emptied or (with `append`) kept. With `exclusive`, the file is
    /// locked for as long as this writer lives, and a file another process holds locked (another
    /// batch writing the same manifest) is an error before anything in it changes.
    package init(url: URL, append: Bool, exclusive: Bool = false) throws {
        path = url.path
        try AtomicFile.requireRegularFileOrNothing(at: path)
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_APPEND | O_NOFOLLOW | O_NONBLOCK, 0o666)
        guard fd >= 0 else { throw FolioError(path: "", "cannot write \(path): \(String(cString: strerror(errno)))") }
        if exclusive, flock(fd, LOCK_EX | LOCK_NB) != 0 {
            // Every property is set: the deinitializer closes the file.
            let busy = errno == EWOULDBLOCK
            throw FolioError(
                path: "",
                busy
                    ? "another folio batch is writing \(path); wait for it to finish, or write to another --out folder (or another --shard)"
                    : "cannot lock \(path): \(String(cString: strerror(errno)))")
        }
        if append {
            try LineWriter.dropPartialLastLine(fd: fd, path: path)
        } else if ftruncate(fd, 0) != 0 {
            throw FolioError(path: "", "cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    deinit { close() }

    /// A killed run may have left half a line: cut the file back to its last newline.
    private static func dropPartialLastLine(fd: Int32, path: String) throws {
        let size = lseek(fd, 0, SEEK_END)
        guard size > 0 else { return }
        var end = size
        var byte: UInt8 = 0
        while end > 0 {
            guard pread(fd, &byte, 1, end - 1) == 1 else { break }
            if byte == UInt8(ascii: "\n") { break }
            end -= 1
        }
        if end < size, ftruncate(fd, end) != 0 {
            throw FolioError(path: "", "cannot repair \(path): \(String(cString: strerror(errno)))")
        }
    }

    package func write(jsonObject members: [(String, TreeValue)]) {
        guard fd >= 0, error == nil else { return }
        let line = Data((TreeValue.object(members.map { (key: $0.0, value: $0.1) }).json + "\n").utf8)
        do {
            try AtomicFile.writeAll(line, to: fd)
        } catch let failure as FolioError {
            error = FolioError(path: "", "cannot write \(path): \(failure.message)")
        } catch {}
    }

    private var closed = false
    package func close() {
        guard !closed else { return }
        closed = true
        _ = Foundation.close(fd)
    }
}
