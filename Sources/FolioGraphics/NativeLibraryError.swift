/// A C library Folio draws or writes with reported a failure: which library, what it was doing,
/// and its own status code and words for it. Unlike a `FolioError`, this is not the document's
/// fault: the service answers it with 500 internal-error and logs it.
public struct NativeLibraryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The C libraries whose failures Folio reports.
    public enum Library: String, Sendable, Equatable {
        /// Cairo, which draws and writes the PDF.
        case cairo = "Cairo"
        /// libqpdf, which finishes the PDF (tags, metadata, conformance).
        case qpdf = "libqpdf"
    }

    /// The library that failed.
    public let library: Library
    /// What it was asked to do, such as "writing the PDF".
    public let operation: String
    /// The library's status code, when it gives one (`cairo_status_t`, qpdf's answer).
    public let status: Int32?
    /// The library's words for the status, such as "out of memory".
    public let reason: String

    /// `library` failed at `operation` with `status`, which it describes as `reason`.
    public init(_ library: Library, operation: String, status: Int32?, reason: String) {
        self.library = library
        self.operation = operation
        self.status = status
        self.reason = reason
    }

    /// "Cairo failed while writing the PDF: out of memory (status 1)", in one line.
    public var description: String {
        let code = status.map { " (status \($0))" } ?? ""
        let line = "\(library.rawValue) failed while \(operation): \(reason)\(code)"
        return line.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
