import CSQLite
import FolioModel
import Foundation

/// A SQLite database: a private one on disk (an unnamed temporary file SQLite deletes itself, even
/// when the process is killed, since it is unlinked as soon as it is opened) with a bounded page
/// cache, the index a FHIR export is sorted through, so memory does not grow with the export; or a
/// durable one in a file (`folio serve`'s job store).
///
/// SQLite is loaded when the first database is opened (`folio_sqlite`), so no other command pays
/// for it at start.
package final class SQLiteDatabase {
    private var handle: OpaquePointer?
    private let sqlite: folio_sqlite_api
    /// What the database is, as its errors name it ("the FHIR index").
    let purpose: String
    /// Statements `cached` keeps prepared, by their SQL.
    private var statements: [String: SQLiteStatement] = [:]
    /// The cached statements handed out since `resetCachedStatements()`.
    private var statementsHandedOut: [SQLiteStatement] = []

    /// Opens a new, empty temporary database whose page cache holds at most `cacheMegabytes`.
    init(cacheMegabytes: Int = 32) throws {
        purpose = "the FHIR index"
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

    /// Opens (or creates) the database in the file at `path`, for `purpose` ("the job store"), with
    /// writes durable once a transaction commits (write-ahead log, synchronous FULL) and a wait of up
    /// to `busySeconds` for another connection's lock.
    package init(path: String, purpose: String, busySeconds: Int = 10) throws {
        self.purpose = purpose
        guard let api = folio_sqlite() else {
            throw FolioError(
                path: "", "cannot open \(purpose): SQLite (libsqlite3.so.0) could not be loaded (Debian: apt install libsqlite3-0)")
        }
        sqlite = api.pointee
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX
        guard sqlite.open_v2(path, &handle, flags, nil) == SQLITE_OK else {
            let reason = handle.flatMap { sqlite.errmsg($0) }.map { String(cString: $0) } ?? "out of memory"
            _ = sqlite.close(handle)
            throw FolioError(path: "", "cannot open \(purpose) \(path): \(reason)")
        }
        try execute("PRAGMA busy_timeout=\(busySeconds * 1000); PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON")
    }

    // close_v2: the connection is closed once its last statement is finalized, whatever order
    // Swift releases the database and its statements in (sqlite3_close would fail and leak it).
    deinit { _ = sqlite.close_v2(handle) }

    /// The bytes SQLite holds in this process (every connection's caches and structures); 0 before
    /// SQLite is loaded.
    static var memoryInUse: Int64 { folio_sqlite()?.pointee.memory_used() ?? 0 }

    /// Runs one or more statements that return no rows.
    package func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite.exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            let reason = SQLiteDatabase.message(message)
            sqlite.free(message)
            throw FolioError(path: "", "\(purpose) failed: \(reason)")
        }
    }

    /// SQLite's error message at `text`, or "unknown error" when there is none.
    static func message(_ text: UnsafePointer<CChar>?) -> String {
        text.map { String(cString: $0) } ?? "unknown error"
    }

    /// The statement for `sql`, prepared the first time and kept (SQLite parses and plans it once,
    /// not on every call), reset and without bindings. The caller resets what it was given with
    /// `resetCachedStatements()` when it is done (before its transaction ends), so no statement
    /// holds a read open between calls.
    package func cached(_ sql: String) throws -> SQLiteStatement {
        let statement: SQLiteStatement
        if let kept = statements[sql] {
            kept.reset()
            statement = kept
        } else {
            statement = try prepare(sql)
            statements[sql] = statement
        }
        statementsHandedOut.append(statement)
        return statement
    }

    /// Runs the cached statement `sql`, which returns no rows (`BEGIN`, `COMMIT`, a `PRAGMA`).
    package func run(cached sql: String) throws {
        let statement = try cached(sql)
        while try statement.step() {}
        statement.reset()
    }

    /// Resets every statement `cached` handed out since the last call.
    package func resetCachedStatements() {
        for statement in statementsHandedOut { statement.reset() }
        statementsHandedOut.removeAll(keepingCapacity: true)
    }

    /// A prepared statement for `sql`.
    package func prepare(_ sql: String) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        guard sqlite.prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw FolioError(path: "", "\(purpose) failed: \(SQLiteDatabase.message(sqlite.errmsg(handle)))")
        }
        return SQLiteStatement(statement, database: handle, sqlite: sqlite, purpose: purpose)
    }
}
