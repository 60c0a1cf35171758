import Foundation

/// Appends JSON lines to a file, flushed line by line so an interrupted run keeps what it logged.
final class LineWriter {
    private let handle: FileHandle

    init(url: URL, append: Bool) throws {
        if !append || !FileManager.default.fileExists(atPath: url.path) {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw FolioError(path: "", "cannot write \(url.path)")
            }
        }
        guard let handle = FileHandle(forWritingAtPath: url.path) else { throw FolioError(path: "", "cannot write \(url.path)") }
        handle.seekToEndOfFile()
        self.handle = handle
    }

    func write(jsonObject members: [(String, TreeValue)]) {
        handle.write(Data((TreeValue.object(members.map { (key: $0.0, value: $0.1) }).json + "\n").utf8))
    }

    func close() { try? handle.close() }
}
