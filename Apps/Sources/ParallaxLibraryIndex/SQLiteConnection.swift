#if canImport(SQLite3)
import SQLite3                              // Apple platforms ship SQLite
#else
import CSQLite                              // Debian's libsqlite3 (libsqlite3-dev)
#endif

/// What SQLite reported when a call failed: its (extended) result code and
/// message.
struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The extended result code, such as `SQLITE_CORRUPT` or `SQLITE_BUSY_SNAPSHOT`.
    var code: Int32
    /// SQLite's message for it.
    var message: String

    /// Whether the file is not a database, or a damaged one: the index
    /// rebuilds itself rather than trust it.
    var meansDamage: Bool {
        let primary = code & 0xFF
        return primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB
    }

    var description: String { "\(message) (SQLite code \(code))" }
}

/// One connection to a database file, used from one thread at a time (its
/// owner, an actor, sees to that; SQLite's own mutex is off).
///
/// Closed when released; statements prepared on it keep it open until
/// they are released too (`sqlite3_close_v2`).
final class SQLiteConnection {
    let handle: OpaquePointer

    /// Opens (or creates) the database at `path` and waits up to
    /// `busyTimeoutMilliseconds` for another connection's lock before
    /// reporting `SQLITE_BUSY`.
    init(path: String, busyTimeoutMilliseconds: Int32) throws(SQLiteError) {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw SQLiteError(code: status, message: message)
        }
        self.handle = handle
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
    }

    deinit { sqlite3_close_v2(handle) }

    /// The error for a failed call that returned `status`.
    func error(_ status: Int32) -> SQLiteError {
        SQLiteError(code: status, message: String(cString: sqlite3_errmsg(handle)))
    }

    /// Runs `sql`, one or more statements without parameters, ignoring any rows.
    func execute(_ sql: String) throws(SQLiteError) {
        let status = sqlite3_exec(handle, sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw error(status) }
    }

    /// Compiles `sql`, one statement, to run many times.
    func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else { throw error(status) }
        return SQLiteStatement(handle: statement, connection: self)
    }

    /// The first column of the first row of `sql` as an integer (0 for no row or `NULL`).
    func integer(_ sql: String) throws(SQLiteError) -> Int64 {
        let statement = try prepare(sql)
        return try statement.step() ? statement.int64(0) : 0
    }

    /// The first column of the first row of `sql` as text (`nil` for no row or `NULL`).
    func text(_ sql: String) throws(SQLiteError) -> String? {
        let statement = try prepare(sql)
        return try statement.step() ? statement.text(0) : nil
    }

    /// The number of rows the last `INSERT`, `UPDATE` or `DELETE` changed.
    var changes: Int { Int(sqlite3_changes(handle)) }
}
