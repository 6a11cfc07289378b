#if canImport(SQLite3)
import SQLite3                              // Apple platforms ship SQLite
#else
import CSQLite                              // Debian's libsqlite3 (libsqlite3-dev)
#endif
import ParallaxImages

/// The index's one connection to its file and the statements it runs,
/// each prepared once: what ``LibraryIndex`` (an actor, its only user)
/// does its work through.
///
/// Opening checks the file before trusting it and rebuilds an unusable one
/// (`connect(path:root:rebuilding:)`); every operation first checks
/// that the file at the path is still the one it opened (another gallery
/// may have rebuilt it), and a damaged file found mid-operation is rebuilt
/// the same way.
final class IndexDatabase {
    /// How long a connection waits for another's lock: a writer holds one
    /// for a transaction of ``LibraryIndex/rowsPerTransaction`` rows, a
    /// fraction of a second.
    static let busyTimeoutMilliseconds: Int32 = 10_000

    let path: String
    /// The library root's real path, which the file must name.
    let root: String
    /// How the file was found on opening.
    let opening: IndexOpening

    private var connection: SQLiteConnection
    private var statements: IndexStatements
    /// The file the connection opened, to notice a replacement.
    private var identity: IndexFile.FileIdentity?

    /// Opens the index at `path` for the library whose real path is `root`.
    init(path: String, root: String) throws(LibraryIndexError) {
        self.path = path
        self.root = root
        let connected = try Self.connect(path: path, root: root)
        connection = connected.0
        statements = connected.1
        identity = connected.2
        opening = connected.3
    }

    // MARK: Opening

    /// Connects under the file lock: checks the file, rebuilds it when it
    /// cannot be used, and prepares the statements.
    private static func connect(path: String, root: String, rebuilding reason: IndexRebuildReason? = nil)
        throws(LibraryIndexError) -> (SQLiteConnection, IndexStatements, IndexFile.FileIdentity?, IndexOpening) {
        let lock = try IndexFile.Lock(path)
        defer { withExtendedLifetime(lock) {} }
        var unusable = reason
        if unusable == nil {
            do throws(SQLiteError) {
                let connection = try SQLiteConnection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
                switch try inspect(connection, root: root) {
                case .empty:
                    try create(connection, root: root)
                    return (connection, try IndexStatements(connection), IndexFile.identity(of: path), .created)
                case .usable:
                    try configure(connection)
                    // Marked as ours, yet its tables may not be what the statements name
                    // (a hand-edited file): SQLITE_ERROR here means a layout, not a failure.
                    do throws(SQLiteError) {
                        let statements = try IndexStatements(connection)
                        return (connection, statements, IndexFile.identity(of: path), .reopened)
                    } catch where error.code & 0xFF == SQLITE_ERROR {
                        unusable = .damaged(error.message)
                    }
                case .unusable(let found):
                    unusable = found
                }
            } catch where error.meansDamage {
                let primary = error.code & 0xFF
                unusable = primary == SQLITE_NOTADB ? .notADatabase(error.message) : .damaged(error.message)
            } catch {
                throw .unavailable("\(path): \(error)")
            }
        }
        try IndexFile.moveAside(path)
        do throws(SQLiteError) {
            let connection = try SQLiteConnection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            try create(connection, root: root)
            let opening = unusable.map(IndexOpening.rebuilt) ?? .created
            return (connection, try IndexStatements(connection), IndexFile.identity(of: path), opening)
        } catch {
            throw .unavailable("\(path): \(error)")
        }
    }

    private enum Inspection { case empty, usable, unusable(IndexRebuildReason) }

    /// What the file at the connection is: empty, ours for `root`, or not to be used.
    private static func inspect(_ connection: SQLiteConnection, root: String) throws(SQLiteError) -> Inspection {
        let applicationID = Int32(truncatingIfNeeded: try connection.integer("PRAGMA application_id"))
        let version = Int32(truncatingIfNeeded: try connection.integer("PRAGMA user_version"))
        let objects = try connection.integer("SELECT count(*) FROM sqlite_schema")
        if applicationID == 0, version == 0, objects == 0 { return .empty }
        guard applicationID == IndexSchema.applicationID else { return .unusable(.foreign(applicationID: applicationID)) }
        guard version <= IndexSchema.version else { return .unusable(.newerLayout(version)) }
        guard version == IndexSchema.version else { return .unusable(.olderLayout(version)) }
        let indexedRoot = try connection.text(IndexSchema.selectRoot)
        guard indexedRoot == root else { return .unusable(.otherLibrary(indexedRoot ?? "none")) }
        return .usable
    }

    /// The connection's settings: write-ahead logging, so readers never
    /// block the writer nor it them, and a crash mid-write loses at most the
    /// last transactions, never the file; `synchronous = NORMAL`, which in
    /// that mode syncs at checkpoints only (an index re-reads what it loses).
    private static func configure(_ connection: SQLiteConnection) throws(SQLiteError) {
        _ = try connection.text("PRAGMA journal_mode = WAL")
        try connection.execute("PRAGMA synchronous = NORMAL")
        // The log shrinks back to 1 MiB after a checkpoint, rather than keep
        // the size of the largest transaction.
        try connection.execute("PRAGMA journal_size_limit = 1048576")
        // 8 MiB of page cache (SQLite's default is 2): a batch of writes in date
        // order touches pages all over the date index, and a cache that holds
        // them writes each once per transaction, not again after each eviction.
        try connection.execute("PRAGMA cache_size = -8192")
    }

    /// Makes the tables in a new file, and names the root.
    private static func create(_ connection: SQLiteConnection, root: String) throws(SQLiteError) {
        try configure(connection)
        try connection.execute("BEGIN IMMEDIATE")
        do throws(SQLiteError) {
            try connection.execute(IndexSchema.create)
            let insert = try connection.prepare(IndexSchema.insertRoot)
            insert.bind(1, root)
            try insert.step()
            try connection.execute("COMMIT")
        } catch {
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Rebuilds the index empty, for `reason`, and reports that as the error
    /// of the operation that found it.
    private func rebuild(_ reason: IndexRebuildReason) throws(LibraryIndexError) -> Never {
        (connection, statements, identity, _) = try Self.connect(path: path, root: root, rebuilding: reason)
        throw .rebuilt(reason)
    }

    /// Runs `body` on the current file; a damaged file is rebuilt, other
    /// failures reported as unavailability.
    private func run<Value>(_ body: (SQLiteConnection, IndexStatements) throws(SQLiteError) -> Value)
        throws(LibraryIndexError) -> Value {
        if IndexFile.identity(of: path) != identity {
            // Replaced (or deleted) by another gallery: use what is there now.
            (connection, statements, identity, _) = try Self.connect(path: path, root: root)
            throw .rebuilt(.rebuiltElsewhere)
        }
        do throws(SQLiteError) {
            return try body(connection, statements)
        } catch where error.meansDamage {
            try rebuild(.damaged(error.message))
        } catch {
            throw .unavailable(error.description)
        }
    }

    // MARK: Operations

    /// Every record, newest first (``LibraryRecord/precedes(_:_:)``), handed
    /// to `deliver` in arrays of `batchSize` (the last one shorter, and one
    /// empty array for an empty index) as they are read: a straight pass
    /// through the index that keeps them in that order
    /// (``IndexSchema/selectAll``). `counted`, if given, is told the number
    /// of records right after the first batch.
    func records(batchSize: Int, firstBatchSize: Int, counted: ((Int) -> Void)? = nil,
                 _ deliver: ([LibraryRecord]) -> Void) throws(LibraryIndexError) {
        try run { _, statements throws(SQLiteError) in
            let select = statements.selectAll
            var batch: [LibraryRecord] = []
            var delivered = false
            func count() throws(SQLiteError) {
                if let counted { counted(try Self.count(statements)) }
            }
            while try select.step() {
                batch.append(IndexStatements.record(select))
                if batch.count >= (delivered ? batchSize : firstBatchSize) {
                    deliver(batch)
                    if !delivered { try count() }
                    delivered = true
                    batch = []
                }
            }
            if !batch.isEmpty || !delivered {
                deliver(batch)
                if !delivered { try count() }
            }
        }
    }

    /// The number of records.
    func count() throws(LibraryIndexError) -> Int {
        try run { _, statements throws(SQLiteError) in try Self.count(statements) }
    }

    /// The number of records, by `statements`' count: every page read.
    private static func count(_ statements: IndexStatements) throws(SQLiteError) -> Int {
        try statements.count.step()
        defer { statements.count.reset() }
        return Int(statements.count.int64(0))
    }

    /// Whether there is any record. O(1).
    func hasRecords() throws(LibraryIndexError) -> Bool {
        try run { _, statements throws(SQLiteError) in
            try statements.any.step()
            defer { statements.any.reset() }
            return statements.any.int64(0) != 0
        }
    }

    /// Runs `body` for each of `items` in transactions of `batchSize`, so
    /// another gallery waits for one batch at most; returns how many
    /// changed a row.
    func inBatches<Item>(_ items: some Collection<Item>, batchSize: Int,
                         _ body: (IndexStatements, Item) throws(SQLiteError) -> Void) throws(LibraryIndexError) -> Int {
        try run { connection, statements throws(SQLiteError) in
            var changed = 0
            var rest = items[...]
            while !rest.isEmpty {
                let batch = rest.prefix(batchSize)
                rest = rest.dropFirst(batch.count)
                try statements.begin.step()
                do throws(SQLiteError) {
                    for item in batch {
                        try body(statements, item)
                        changed += connection.changes
                    }
                    try statements.commit.step()
                } catch {
                    _ = try? statements.rollback.step()
                    throw error
                }
            }
            return changed
        }
    }

    /// Runs `PRAGMA quick_check`: the file's structure, page by page
    /// (O(file size)); a damaged file is rebuilt.
    func verify() throws(LibraryIndexError) {
        try run { connection, _ throws(SQLiteError) in
            let result = try connection.text("PRAGMA quick_check(1)") ?? "no answer"
            if result != "ok" { throw SQLiteError(code: SQLITE_CORRUPT, message: result) }
        }
    }
}
