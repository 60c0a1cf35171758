import FolioFiles
import FolioGraphics
import FolioModel
import Foundation

/// Where a document's image files may be read from.
///
/// The command line reads them relative to the input file's folder. A server must not let
/// a document it receives read the machine's files, so it confines them to one folder
/// (`folio serve --assets DIR`) or allows embedded (base64) images only.
public enum AssetAccess: Sendable {
    /// Relative paths start from this folder (the current folder when nil); absolute paths are allowed.
    case files(relativeTo: URL?)
    /// Only relative paths that stay inside this folder.
    case confined(AssetFolder)
    /// No files at all: images must be embedded as base64 `data`.
    case embeddedOnly

    /// The bytes of the image file `file`, at most `limit` of them; errors name `field`.
    package func read(_ file: String, field: String, limit: Int = InputLimits.imageBytes) throws -> Data {
        switch self {
        case .files(let folder):
            let url =
                file.hasPrefix("/")
                ? URL(fileURLWithPath: file)
                : (folder?.appendingPathComponent(file) ?? URL(fileURLWithPath: file))
            return try BoundedFile.read(url.path, limit: limit, field: field, what: "image file", shownAs: file, regularOnly: true)
        case .confined(let folder):
            return try folder.read(file, field: field, limit: limit)
        case .embeddedOnly:
            throw FolioError(path: field, "image files cannot be read here; embed the image as base64 \"data\"")
        }
    }
}

/// A folder that image paths are confined to: a path must be relative, must not contain `..`,
/// and must not leave the folder through a symbolic link.
public struct AssetFolder: Sendable {
    /// The folder's canonical path, symbolic links resolved.
    public let root: String

    /// The folder at `path`; an error when it does not exist or is not a folder.
    public init(path: String) throws {
        guard let resolved = AssetFolder.canonicalPath(path) else {
            throw FolioError(path: "--assets", "cannot open \"\(path)\": \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard stat(resolved, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw FolioError(path: "--assets", "\"\(path)\" is not a folder")
        }
        root = resolved == "/" ? "" : resolved
    }

    /// The bytes of `file` inside the folder, at most `limit` of them; errors name `field`.
    package func read(_ file: String, field: String, limit: Int = InputLimits.imageBytes) throws -> Data {
        if file.contains("://") || file.lowercased().hasPrefix("data:") {
            throw FolioError(
                path: field, "images are never fetched from URLs; embed the image as base64 \"data\" or put it in the assets folder")
        }
        let parts = file.split(separator: "/", omittingEmptySubsequences: false)
        guard !file.isEmpty, !file.hasPrefix("/"), !file.contains("\0"), !file.contains("\\"),
            !parts.contains(".."), !parts.contains(where: \.isEmpty)
        else {
            throw FolioError(path: field, "\"\(file)\" is not a path inside the assets folder (it must be relative, without \"..\")")
        }
        guard let resolved = AssetFolder.canonicalPath(root + "/" + file) else {
            throw FolioError(path: field, "no image \"\(file)\" in the assets folder")
        }
        guard resolved.hasPrefix(root + "/") else {
            throw FolioError(path: field, "\"\(file)\" leaves the assets folder through a symbolic link")
        }
        return try BoundedFile.read(resolved, limit: limit, field: field, what: "image file", shownAs: file, regularOnly: true)
    }

    /// `path` with every symbolic link, `.` and `..` resolved, or nil when it does not exist.
    private static func canonicalPath(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}
