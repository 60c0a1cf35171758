import CSQLite
import Foundation

/// One prepared statement (made by `SQLiteDatabase.prepare`): bind parameters (from 1), step through
/// rows, read columns (from 0).
final class SQLiteStatement {
    private let statement: OpaquePointer
    private let database: OpaquePointer?
    private let sqlite: folio_sqlite_api
    /// SQLITE_TRANSIENT: SQLite copies bound text before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(_ statement: OpaquePointer, database: OpaquePointer?, sqlite: folio_sqlite_api) {
        self.statement = statement
        self.database = database
        self.sqlite = sqlite
    }

    deinit { _ = sqlite.finalize(statement) }

    /// Binds text, or NULL for nil.
    func bind(_ index: Int32, _ text: String?) {
        if let text {
            _ = sqlite.bind_text(statement, index, text, -1, SQLiteStatement.transient)
        } else {
            _ = sqlite.bind_null(statement, index)
        }
    }

    /// Binds an integer, or NULL for nil.
    func bind(_ index: Int32, _ number: Int64?) {
        if let number { _ = sqlite.bind_int64(statement, index, number) } else { _ = sqlite.bind_null(statement, index) }
    }

    /// Binds a real number, or NULL for nil.
    func bind(_ index: Int32, _ number: Double?) {
        if let number { _ = sqlite.bind_double(statement, index, number) } else { _ = sqlite.bind_null(statement, index) }
    }

    /// Advances to the next row: true when there is one, false when the statement is done.
    func step() throws -> Bool {
        switch sqlite.step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw FolioError(path: "", "the FHIR index failed: \(SQLiteDatabase.message(sqlite.errmsg(database)))")
        }
    }

    /// Runs a statement that returns no rows, then makes it ready to run again.
    func run() throws {
        _ = try step()
        reset()
    }

    /// Makes the statement ready to run again with new bindings.
    func reset() {
        _ = sqlite.reset(statement)
        _ = sqlite.clear_bindings(statement)
    }

    /// Column `index` as text, or nil when it is NULL.
    func text(_ index: Int32) -> String? {
        guard sqlite.column_type(statement, index) != SQLITE_NULL, let pointer = sqlite.column_text(statement, index) else {
            return nil
        }
        return String(cString: pointer)
    }

    /// Column `index` as an integer, or nil when it is NULL.
    func integer(_ index: Int32) -> Int64? {
        sqlite.column_type(statement, index) == SQLITE_NULL ? nil : sqlite.column_int64(statement, index)
    }

    /// Column `index` as a real number, or nil when it is NULL.
    func real(_ index: Int32) -> Double? {
        sqlite.column_type(statement, index) == SQLITE_NULL ? nil : sqlite.column_double(statement, index)
    }
}
