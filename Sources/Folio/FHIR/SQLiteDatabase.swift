import CSQLite
import Foundation

/// A private SQLite database on disk (an unnamed temporary file SQLite deletes itself, even when the
/// process is killed, since it is unlinked as soon as it is opened), with a bounded page cache: the
/// index a FHIR export is sorted through, so memory does not grow with the export.
final class SQLiteDatabase {
    private var handle: OpaquePointer?

    /// Opens a new, empty temporary database whose page cache holds at most `cacheMegabytes`.
    init(cacheMegabytes: Int = 32) throws {
        guard sqlite3_open_v2("", &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK else {
            let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(handle)
            throw FolioError(path: "", "cannot create the FHIR index: \(reason)")
        }
        try execute("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA temp_store=FILE; PRAGMA cache_size=-\(cacheMegabytes * 1024)")
    }

    // close_v2: the connection is closed once its last statement is finalized, whatever order
    // Swift releases the database and its statements in (sqlite3_close would fail and leak it).
    deinit { sqlite3_close_v2(handle) }

    /// The bytes SQLite holds in this process (every connection's caches and structures).
    static var memoryInUse: Int64 { sqlite3_memory_used() }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            let reason = message.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(message)
            throw FolioError(path: "", "the FHIR index failed: \(reason)")
        }
    }

    /// A prepared statement for `sql`.
    func prepare(_ sql: String) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw FolioError(path: "", "the FHIR index failed: \(String(cString: sqlite3_errmsg(handle)))")
        }
        return SQLiteStatement(statement, database: handle)
    }
}
