import CSQLite
import FolioModel
import Foundation

/// A private SQLite database on disk (an unnamed temporary file SQLite deletes itself, even when the
/// process is killed, since it is unlinked as soon as it is opened), with a bounded page cache: the
/// index a FHIR export is sorted through, so memory does not grow with the export.
///
/// SQLite is loaded when the first database is opened (`folio_sqlite`), so no other command pays
/// for it at start.
final class SQLiteDatabase {
    private var handle: OpaquePointer?
    private let sqlite: folio_sqlite_api

    /// Opens a new, empty temporary database whose page cache holds at most `cacheMegabytes`.
    init(cacheMegabytes: Int = 32) throws {
        guard let api = folio_sqlite() else {
            throw FolioError(
                path: "", "cannot create the FHIR index: SQLite (libsqlite3.so.0) could not be loaded (Debian: apt install libsqlite3-0)")
        }
        sqlite = api.pointee
        guard sqlite.open_v2("", &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK else {
            let reason = handle.flatMap { sqlite.errmsg($0) }.map { String(cString: $0) } ?? "out of memory"
            _ = sqlite.close(handle)
            throw FolioError(path: "", "cannot create the FHIR index: \(reason)")
        }
        try execute("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA temp_store=FILE; PRAGMA cache_size=-\(cacheMegabytes * 1024)")
    }

    // close_v2: the connection is closed once its last statement is finalized, whatever order
    // Swift releases the database and its statements in (sqlite3_close would fail and leak it).
    deinit { _ = sqlite.close_v2(handle) }

    /// The bytes SQLite holds in this process (every connection's caches and structures); 0 before
    /// SQLite is loaded.
    static var memoryInUse: Int64 { folio_sqlite()?.pointee.memory_used() ?? 0 }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite.exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            let reason = SQLiteDatabase.message(message)
            sqlite.free(message)
            throw FolioError(path: "", "the FHIR index failed: \(reason)")
        }
    }

    /// SQLite's error message at `text`, or "unknown error" when there is none.
    static func message(_ text: UnsafePointer<CChar>?) -> String {
        text.map { String(cString: $0) } ?? "unknown error"
    }

    /// A prepared statement for `sql`.
    func prepare(_ sql: String) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        guard sqlite.prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw FolioError(path: "", "the FHIR index failed: \(SQLiteDatabase.message(sqlite.errmsg(handle)))")
        }
        return SQLiteStatement(statement, database: handle, sqlite: sqlite)
    }
}
