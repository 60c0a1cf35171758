import CCairoPango
import FolioGraphics

/// Cairo's status codes as Swift errors.
enum CairoStatus {
    /// Throws a `NativeLibraryError` naming Cairo, `status` and Cairo's words for it (`operation` says what Cairo was doing), unless it is success.
    static func require(_ status: cairo_status_t, while operation: String) throws {
        guard status != CAIRO_STATUS_SUCCESS else { return }
        let reason = cairo_status_to_string(status).map { String(cString: $0) } ?? "unknown status"
        throw NativeLibraryError(.cairo, operation: operation, status: Int32(bitPattern: status.rawValue), reason: reason)
    }
}
