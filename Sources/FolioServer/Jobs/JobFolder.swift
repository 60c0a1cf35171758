import FolioData
import FolioFiles
import FolioModel
import Foundation

/// The folders of jobs under `--job-dir`: `ID/input.…` (what the client sent, on the disk before
/// the job is accepted), `ID/documents/` (each record's files, written whole under names made from
/// the record's number, so rendering a record again after a crash replaces its file and never adds
/// another), `ID/manifest.jsonl` (a line per record whose files are all in place) and
/// `ID/failures.jsonl` (a line per record that failed, with its reason).
struct JobFolder: Sendable {
    /// `--job-dir`.
    let root: URL

    /// One document of a job, as its manifest lists it.
    struct Document: Sendable, Equatable {
        /// The record's number, from 1.
        var number: Int
        /// The file's name in `documents/`.
        var name: String
        var bytes: Int
        /// SHA-256 of the file, lowercase hexadecimal.
        var sha256: String
    }

    /// One failed record.
    struct Failure: Sendable, Equatable {
        var number: Int
        /// The record's `id` (or `patient.id`), when it has one.
        var id: String?
        var error: String
    }

    /// The folder of job `id` (a valid id: never a path).
    func folder(_ id: String) -> URL { root.appendingPathComponent(id, isDirectory: true) }
    func documents(_ id: String) -> URL { folder(id).appendingPathComponent("documents", isDirectory: true) }
    func manifest(_ id: String) -> URL { folder(id).appendingPathComponent("manifest.jsonl") }
    func failures(_ id: String) -> URL { folder(id).appendingPathComponent("failures.jsonl") }
    func input(_ job: Job) -> URL { folder(job.id).appendingPathComponent(job.input.fileName) }

    /// Makes `--job-dir` (0700) if it is not there; a file in its place is an error.
    func prepare() throws {
        try JobFolder.makeFolder(root.path, field: "--job-dir")
    }

    /// Makes the folders of job `id`.
    func create(_ id: String) throws {
        try JobFolder.makeFolder(folder(id).path, field: "--job-dir")
        try JobFolder.makeFolder(documents(id).path, field: "--job-dir")
    }

    private static func makeFolder(_ path: String, field: String) throws {
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw FolioError(path: field, "cannot make \(path): \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw FolioError(path: field, "\(path) is not a folder")
        }
    }

    /// Removes job `id`'s folder and everything in it.
    func remove(_ id: String) {
        try? FileManager.default.removeItem(at: folder(id))
    }

    /// The documents the manifest of job `id` lists, once each (a record rendered again lists its
    /// file again under the same name: the last line wins), by record number then name.
    func documentsListed(_ id: String) -> [Document] {
        var byName: [String: Document] = [:]
        for line in JobFolder.lines(of: manifest(id)) {
            guard case .number(let number)? = line["number"], case .array(let files)? = line["files"] else { continue }
            for file in files {
                guard case .string(let name)? = file["name"], case .number(let bytes)? = file["bytes"],
                    case .string(let sha)? = file["sha256"]
                else {
                    continue
                }
                byName[name] = Document(number: number.clampedInt(), name: name, bytes: bytes.clampedInt(), sha256: sha)
            }
        }
        return byName.values.sorted { ($0.number, $0.name) < ($1.number, $1.name) }
    }

    /// The failures of job `id`, once per record (the last line wins), by record number.
    func failuresListed(_ id: String) -> [Failure] {
        var byNumber: [Int: Failure] = [:]
        for line in JobFolder.lines(of: failures(id)) {
            guard case .number(let number)? = line["number"], case .string(let error)? = line["error"] else { continue }
            var id: String?
            if case .string(let text)? = line["id"] { id = text }
            byNumber[number.clampedInt()] = Failure(number: number.clampedInt(), id: id, error: error)
        }
        return byNumber.values.sorted { $0.number < $1.number }
    }

    /// Every complete JSON line of `url` (a cut last line, left by a killed server, is skipped).
    private static func lines(of url: URL) -> [TreeValue] {
        guard let data = try? Data(contentsOf: url) else { return [] }
        var lines: [TreeValue] = []
        for line in data.split(separator: UInt8(ascii: "\n")) {
            if let value = try? JSONTreeParser.parse(Array(line)) { lines.append(value) }
        }
        return lines
    }
}
