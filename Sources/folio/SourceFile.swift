import Folio
import Foundation

/// An input file whose errors and warnings say where they are: `weekly.yaml:12:7: error:
/// elements[1].series[0].values[1]: expected a number, found a string`, the form editors and CI
/// logs turn into a link to the line. The file is read again, once, only when there is something to place.
final class SourceFile {
    /// The file's path, as given on the command line.
    let path: String
    private var text: String??

    /// The file at `path`; nil for standard input (`-`), which has no name to point at.
    init?(_ path: String) {
        guard path != "-" else { return nil }
        self.path = path
    }

    /// `error` as one line naming the file, line and column of the field it names, then
    /// `severity` ("error", "warning"); nil when it names no field the file holds.
    func describe(_ error: FolioError, as severity: String) -> String? {
        guard !error.path.isEmpty, let position = position(of: error.path) else { return nil }
        return "\(path):\(position): \(severity): \(error)".escapingInvisibleControls
    }

    private func position(of field: String) -> SourceLocator.Position? {
        if text == nil {
            text = .some(
                (try? BoundedFile.read(path, limit: InputLimits.documentBytes, field: "", what: "input"))
                    .flatMap { String(data: $0, encoding: .utf8) })
        }
        guard let text = text ?? nil else { return nil }
        return SourceLocator.locate(field, in: text)
    }
}

/// An error in the input file's own fields (a template's, before any record is bound to it):
/// the file holds the field it names, so its line can be said.
struct InputFileError: Error {
    /// The error, its field a path in the input file.
    let error: FolioError
}
