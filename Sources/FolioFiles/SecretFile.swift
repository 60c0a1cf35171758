import FolioModel
import Foundation

/// A secret read from a file (a PDF password, the service's token), as people write such files: the
/// first line only, ended by LF, CRLF or CR (the line end is never part of the secret), a UTF-8
/// byte order mark dropped. A file that is not UTF-8, or whose first line is empty, is an error
/// naming the option; no message ever shows the file's bytes.
package enum SecretFile {
    /// The largest secret file read (a secret is its first line; nobody's password is 4 KB).
    package static let limit = 4096

    /// The secret in the file at `path`; errors name `option` (`--password-file`).
    package static func read(_ path: String, option: String, what: String) throws -> String {
        let data = try BoundedFile.read(path, limit: limit, field: option, what: what, regularOnly: true)
        return try secret(in: data, option: option, what: what)
    }

    /// The first line of `data` (see the type's summary).
    package static func secret(in data: Data, option: String, what: String) throws -> String {
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let line = bytes.prefix { $0 != 0x0A && $0 != 0x0D }
        guard !line.contains(0), let text = String(validating: line, as: UTF8.self) else {
            throw FolioError(path: option, "the \(what)'s first line is not UTF-8 text without NUL characters")
        }
        guard !text.isEmpty else { throw FolioError(path: option, "the \(what)'s first line is empty") }
        return text
    }
}
