internal import CProcessSupport
import FolioModel
import Foundation

/// Writes output files whole or not at all: the bytes go to a temporary file in the
/// same folder (`.folio-tmp-PID-…`), which is flushed to the disk (`fsync`) and renamed over
/// the destination, and the folder is flushed after the rename — so a reader, or the machine
/// after a crash, sees the old file or the whole new one, never an empty or partial one. Only a
/// regular file (or nothing) may stand at the destination: a device, folder, pipe or
/// symbolic link there is an error, so `-o /dev/null` never replaces /dev/null.
package enum AtomicFile {
    /// How many files and folders were flushed to the disk (each `fsync` that succeeded).
    package static let flushes = Locked(0)
    /// Prefix of every temporary file Folio writes.
    package static let temporaryPrefix = ".folio-tmp-"

    /// Writes `data` to `url` atomically; one-line errors name the file and why.
    package static func write(_ data: Data, to url: URL) throws {
        try write(to: url) { fd in try writeAll(data, to: fd) }
    }

    /// Writes to `url` atomically what `produce` writes to the file descriptor it is given (a PDF
    /// written as it is made); one-line errors name the file and why. Returns what `produce` returns.
    @discardableResult
    package static func write<Result>(to url: URL, producing produce: (Int32) throws -> Result) throws -> Result {
        let destination = url.path
        try requireRegularFileOrNothing(at: destination)
        let folder = url.deletingLastPathComponent().path
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent("\(temporaryPrefix)\(getpid())-\(UUID().uuidString.prefix(8))-\(url.lastPathComponent.prefix(100))")
            .path
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else {
            let reason = errno == ENOENT ? "the folder \(folder) does not exist" : String(cString: strerror(errno))
            throw FolioError(path: "", "cannot write \(destination): \(reason)")
        }
        register(temporary)
        defer { register(nil) }
        let result: Result
        var isOpen = true
        do {
            result = try produce(fd)
            // On the disk before it takes the destination's name.
            try flush(fd, what: destination)
            isOpen = false
            guard close(fd) == 0 else { throw FolioError(path: "", "cannot write \(destination): \(String(cString: strerror(errno)))") }
        } catch {
            if isOpen { close(fd) }
            unlink(temporary)
            throw error
        }
        guard rename(temporary, destination) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw FolioError(path: "", "cannot write \(destination): \(reason)")
        }
        // The rename itself on the disk: the folder's entry.
        let directory = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            defer { close(directory) }
            try flush(directory, what: destination)
        }
        return result
    }

    /// `fsync`s `fd`; a disk that cannot keep the bytes is an error naming `what`. (A file system
    /// without fsync, EINVAL, keeps them as it can.)
    private static func flush(_ fd: Int32, what: String) throws {
        while fsync(fd) != 0 {
            if errno == EINTR { continue }
            if errno == EINVAL || errno == EROFS { return }
            throw FolioError(path: "", "cannot write \(what): \(String(cString: strerror(errno)))")
        }
        flushes.withLock { $0 += 1 }
    }

    /// Throws unless `path` names a regular file or nothing: Folio never writes over a
    /// device, a folder, a pipe or a symbolic link.
    package static func requireRegularFileOrNothing(at path: String) throws {
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            throw FolioError(path: "", "cannot write \(path): it exists and is not a regular file")
        }
    }

    /// Writes every byte of `data` to `fd`, retrying short writes; ENOSPC and EPIPE are errors.
    package static func writeAll(_ data: Data, to fd: Int32) throws {
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            guard var pointer = raw.baseAddress else { return }
            var remaining = raw.count
            while remaining > 0 {
                let written = Foundation.write(fd, pointer, remaining)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw FolioError(path: "", String(cString: strerror(errno)))
                }
                remaining -= written
                pointer += written
            }
        }
    }

    /// Makes SIGINT and SIGTERM remove the temporary file being written, say `message` on
    /// standard error and exit with status 130 (a C handler: unlink, write and _exit only; dispatch
    /// signal sources would start threads and add milliseconds to every run).
    package static func removeTemporaryAndExitOnInterrupt(message: String) {
        folio_interrupt_exit_install(message)
    }

    /// The file an interrupt removes: the temporary file being written, or nil.
    private static func register(_ path: String?) {
        folio_interrupt_cleanup_path_set(path)
    }

    /// Removes temporary files in `folder` left by processes that no longer run.
    package static func removeStaleTemporaries(in folder: URL) {
        let fileManager = FileManager.default
        for name in (try? fileManager.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasPrefix(temporaryPrefix) {
            let rest = name.dropFirst(temporaryPrefix.count)
            guard let pid = Int32(rest.prefix { $0.isNumber }) else { continue }
            if pid == getpid() || kill(pid, 0) == 0 || errno == EPERM { continue }
            unlink(folder.appendingPathComponent(name).path)
        }
    }
}
