import Folio
import FolioData
import FolioFiles
import Foundation

/// An input file whose errors and warnings say where they are: `weekly.yaml:12:7: error:
/// elements[1].series[0].values[1]: expected a number, found a string`, the form editors and CI
/// logs turn into a link to the line; a field from a file it includes is placed in that file.
/// The input is read again, once, only when there is something to place in it.
final class SourceFile {
    /// The file's path, as given on the command line.
    let path: String
    /// Which file holds each field: set once the input is read with its includes.
    var origins: SourceOrigins
    private var text: String??
    /// For a template bound to a record: the template's field that made a field of the bound
    /// document (a `$each` makes several items from one).
    var templateField: ((String) -> String?)?

    /// The file at `path`; nil for standard input (`-`), which has no name to point at.
    init?(_ path: String) {
        guard path != "-" else { return nil }
        self.path = path
        origins = SourceOrigins(input: path)
    }

    /// `error` as one line naming the file, line and column of the field it names (or of its
    /// syntax error), then `severity` ("error", "warning"); nil when no file holds what it names.
    func describe(_ error: FolioError, as severity: String) -> String? {
        guard let place = origins.place(of: error, inputText: { self.inputText() }) else { return nil }
        return "\(place.file):\(place.position): \(severity): \(error)".escapingInvisibleControls
    }

    /// `error`, about a field of the document bound from the template, as one line naming the
    /// template's file, line and column that made the field; nil when that cannot be said.
    func describeBound(_ error: FolioError, as severity: String) -> String? {
        guard !error.path.isEmpty, let field = templateField?(error.path),
            let place = origins.place(of: field, inputText: { self.inputText() })
        else { return nil }
        return "\(place.file):\(place.position): \(severity): \(error)".escapingInvisibleControls
    }

    /// Where the template's field `field` is written: `file:line:column`.
    func place(ofTemplateField field: String) -> String? {
        origins.place(of: field, inputText: { self.inputText() }).map { "\($0.file):\($0.position)" }
    }

    /// `error` as one line naming the file other than the input that it is in (a theme), at its
    /// line and column; nil when it names no such place.
    static func describeElsewhere(_ error: Error, as severity: String = "error") -> String? {
        guard let error = error as? FolioError, let file = error.file, let position = error.position else { return nil }
        return "\(file):\(position): \(severity): \(error)".escapingInvisibleControls
    }

    private func inputText() -> String? {
        if text == nil {
            text = .some(
                (try? BoundedFile.read(path, limit: InputLimits.documentBytes, field: "", what: "input"))
                    .flatMap { String(data: $0, encoding: .utf8) })
        }
        return text ?? nil
    }
}

/// An error in the input file's own fields (a template's, before any record is bound to it):
/// the file holds the field it names, so its line can be said.
struct InputFileError: Error {
    /// The error, its field a path in the input file.
    let error: FolioError
}
