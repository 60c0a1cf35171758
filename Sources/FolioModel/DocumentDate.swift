import Foundation

/// The one date a render gives a document (its PDF metadata, XMP, `{date}` in headers and footers,
/// the HTML's header): the document's `metadata.creationDate`, else `SOURCE_DATE_EPOCH` (the
/// reproducible-builds variable: whole seconds since 1970), else the time of rendering.
package enum DocumentDate {
    /// The seconds since 1970 of 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z: the dates a PDF date
    /// (`D:YYYY…`) and ISO 8601 can write with four-digit years.
    package static let range: ClosedRange<Int64> = -62_135_596_800...253_402_300_799

    /// The date for `metadata` (see the type's summary). A `SOURCE_DATE_EPOCH` that is not whole
    /// seconds of a date in the years 1 to 9999 is an error naming it (the variable's
    /// specification asks tools to refuse a malformed value rather than ignore it).
    package static func resolve(_ metadata: Metadata) throws -> Date {
        if let date = metadata.creationDate { return date }
        // getenv, not ProcessInfo.environment, which copies the whole environment into a dictionary.
        guard let pointer = getenv("SOURCE_DATE_EPOCH") else { return Date() }
        let text = String(cString: pointer)
        guard text.utf8.count <= 20, let seconds = Int64(text), range.contains(seconds) else {
            throw FolioError(
                path: "SOURCE_DATE_EPOCH",
                "expected whole seconds since 1970-01-01 for a date in the years 1 to 9999 (such as 1763280000)")
        }
        return Date(timeIntervalSince1970: Double(seconds))
    }
}
