import Folio
import Foundation
import Synchronization

/// Watches folders with inotify and calls `onChange` when a file in one is written, created,
/// moved in or removed (editors save by writing a new file and renaming it over the old). Hidden
/// files and editors' backups (`.name.swp`, `name~`) are not changes.
final class FileWatcher: Sendable {
    private let descriptor: Int32
    private let onChange: @Sendable () -> Void
    /// The folders watched.
    private let watched = Mutex(Set<String>())

    /// A watcher of `folders` (each once); throws when inotify cannot watch one.
    init(folders: [String], onChange: @escaping @Sendable () -> Void) throws {
        descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else {
            throw FolioError(path: "preview", "cannot watch files: \(String(cString: strerror(errno)))")
        }
        self.onChange = onChange
        for folder in Set(folders) where inotify_add_watch(descriptor, folder, FileWatcher.mask) < 0 {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw FolioError(path: "preview", "cannot watch \(folder): \(reason)")
        }
        watched.withLock { $0.formUnion(folders) }
    }

    /// The changes watched for.
    private static let mask = UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_CREATE) | UInt32(IN_DELETE) | UInt32(IN_ATTRIB)

    /// Watches `folders` too (the folders of files a document includes, which it may include
    /// anew on any save); a folder that cannot be watched is left out.
    func watch(_ folders: [String]) {
        let new = watched.withLock { watched in
            let new = Set(folders).subtracting(watched)
            watched.formUnion(new)
            return new
        }
        for folder in new { _ = inotify_add_watch(descriptor, folder, FileWatcher.mask) }
    }

    deinit { close(descriptor) }

    /// Reads events on a thread of its own until the process ends.
    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "folio-preview-watch"
        thread.start()
    }

    private func run() {
        let size = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer, size)
            if count < 0 {
                if errno == EINTR { continue }
                return
            }
            var offset = 0
            var changed = false
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let length = Int(event.len)
                if length > 0, offset + header + length <= count {
                    let name = String(cString: buffer.advanced(by: offset + header).assumingMemoryBound(to: CChar.self))
                    if !name.hasPrefix("."), !name.hasSuffix("~"), !name.hasPrefix("#") { changed = true }
                } else if length == 0 {
                    changed = true
                }
                offset += header + length
            }
            if changed { onChange() }
        }
    }
}
