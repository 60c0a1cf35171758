import CSQLite
import FolioModel
import Foundation

/// One prepared statement (made by `SQLiteDatabase.prepare`): bind parameters (from 1), step through
/// rows, read columns (from 0).
package final class SQLiteStatement {
    private let statement: OpaquePointer
    private let database: OpaquePointer?
    private let sqlite: folio_sqlite_api
    private let purpose: String
    /// SQLITE_TRANSIENT: SQLite copies bound text before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(_ statement: OpaquePointer, database: OpaquePointer?, sqlite: folio_sqlite_api, purpose: String) {
        self.purpose = purpose
        self.statement = statement
        self.database = database
        self.sqlite = sqlite
    }

    deinit { _ = sqlite.finalize(statement) }

    /// Binds text, or NULL for nil: all of its bytes, a NUL among them (never cut at the first NUL,
    /// which would make `p\u{0}A` and `p\u{0}B` the same key).
    package func bind(_ index: Int32, _ text: String?) {
        guard var text else {
            _ = sqlite.bind_null(statement, index)
            return
        }
        text.withUTF8 { bytes in
            // A text's bytes are bounded by the document limit (64 MB), far below Int32.max.
            let count = Int32(clamping: bytes.count)
            guard let start = bytes.baseAddress else {
                // Empty text: SQLite needs a pointer, not NULL (which would bind NULL).
                var empty: CChar = 0
                _ = sqlite.bind_text(statement, index, &empty, 0, SQLiteStatement.transient)
                return
            }
            _ = sqlite.bind_text(
                statement, index, UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self), count, SQLiteStatement.transient)
        }
    }

    /// Binds an integer, or NULL for nil.
    package func bind(_ index: Int32, _ number: Int64?) {
        if let number { _ = sqlite.bind_int64(statement, index, number) } else { _ = sqlite.bind_null(statement, index) }
    }

    /// Binds a real number, or NULL for nil.
    package func bind(_ index: Int32, _ number: Double?) {
        if let number { _ = sqlite.bind_double(statement, index, number) } else { _ = sqlite.bind_null(statement, index) }
    }

    /// Advances to the next row: true when there is one, false when the statement is done.
    package func step() throws -> Bool {
        switch sqlite.step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw FolioError(path: "", "\(purpose) failed: \(SQLiteDatabase.message(sqlite.errmsg(database)))")
        }
    }

    /// Runs a statement that returns no rows, then makes it ready to run again.
    package func run() throws {
        _ = try step()
        reset()
    }

    /// Makes the statement ready to run again with new bindings.
    package func reset() {
        _ = sqlite.reset(statement)
        _ = sqlite.clear_bindings(statement)
    }

    /// Column `index` as text, or nil when it is NULL.
    package func text(_ index: Int32) -> String? {
        guard sqlite.column_type(statement, index) != SQLITE_NULL, let pointer = sqlite.column_text(statement, index) else {
            return nil
        }
        // column_bytes after column_text: the length of the text as stored, NULs included.
        let count = Int(max(sqlite.column_bytes(statement, index), 0))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// Column `index` as an integer, or nil when it is NULL.
    package func integer(_ index: Int32) -> Int64? {
        sqlite.column_type(statement, index) == SQLITE_NULL ? nil : sqlite.column_int64(statement, index)
    }

    /// Column `index` as a real number, or nil when it is NULL.
    package func real(_ index: Int32) -> Double? {
        sqlite.column_type(statement, index) == SQLITE_NULL ? nil : sqlite.column_double(statement, index)
    }
}
