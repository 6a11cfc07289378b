#if canImport(SQLite3)
import SQLite3                              // Apple platforms ship SQLite
#else
import CSQLite                              // Debian's libsqlite3 (libsqlite3-dev)
#endif

#if canImport(SQLite3)
/// SQLite's `SQLITE_TRANSIENT` (copy the bytes now), a macro Swift cannot
/// import: the destructor value -1. On Linux the module map's shim returns it.
private func pk_sqlite_transient() -> sqlite3_destructor_type {
    unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
#endif

/// A compiled statement: bound, stepped and reset again and again.
///
/// Values are read straight from SQLite's buffers, so a row costs no
/// allocation beyond the values themselves.
final class SQLiteStatement {
    let handle: OpaquePointer
    /// Kept so the connection outlives its statements' use.
    private let connection: SQLiteConnection

    init(handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    // MARK: Binding (parameters count from 1)

    func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(handle, index, value) }
    func bind(_ index: Int32, _ value: Double) { sqlite3_bind_double(handle, index, value) }
    func bind(_ index: Int32, _ value: String) {
        var value = value
        _ = value.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { text in
                // Empty text, not NULL, when there is no base address.
                guard let start = text.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, nil) }
                return sqlite3_bind_text(handle, index, start, Int32(text.count), pk_sqlite_transient())
            }
        }
    }
    func bind(_ index: Int32, _ value: [UInt8]) {
        _ = value.withUnsafeBytes { bytes in
            // A zero-length blob, not NULL, when there is no base address.
            guard let start = bytes.baseAddress else { return sqlite3_bind_zeroblob(handle, index, 0) }
            return sqlite3_bind_blob(handle, index, start, Int32(bytes.count), pk_sqlite_transient())
        }
    }
    func bindNull(_ index: Int32) { sqlite3_bind_null(handle, index) }
    func bind(_ index: Int32, _ value: Int64?) { if let value { bind(index, value) } else { bindNull(index) } }
    func bind(_ index: Int32, _ value: Double?) { if let value { bind(index, value) } else { bindNull(index) } }
    func bind(_ index: Int32, _ value: String?) { if let value { bind(index, value) } else { bindNull(index) } }
    func bind(_ index: Int32, _ value: [UInt8]?) { if let value { bind(index, value) } else { bindNull(index) } }

    // MARK: Running

    /// Runs to the next row: `true` when there is one to read, `false` when
    /// the statement is done (and reset, ready to run again).
    ///
    /// A failed step resets the statement too, so it is always ready for
    /// the next use.
    @discardableResult
    func step() throws(SQLiteError) -> Bool {
        let status = sqlite3_step(handle)
        switch status {
        case SQLITE_ROW:
            return true
        case SQLITE_DONE:
            sqlite3_reset(handle)
            return false
        default:
            let error = connection.error(status)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Stops a statement that has rows left, so it holds no read lock.
    func reset() { sqlite3_reset(handle) }

    // MARK: Reading (columns count from 0)

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    func text(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
    /// The text in `column` as SQLite holds it, valid until the next step:
    /// for comparing without making a `String`.
    func bytes(_ column: Int32) -> UnsafeBufferPointer<UInt8>? {
        guard let bytes = sqlite3_column_text(handle, column) else { return nil }
        return UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column)))
    }
    func blob(_ column: Int32) -> [UInt8]? {
        guard !isNull(column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }
}
