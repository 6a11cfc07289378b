import Foundation
import ParallaxImages

/// A photo library's index on disk: each photo's path, size, modification
/// time and inode as the last walk saw them, and what was read of it since
/// (shape, format, orientation, capture date, preview hash), so a second
/// launch shows the library at once and only reads what changed.
///
/// An SQLite database (the system's libsqlite3) beside the thumbnail cache,
/// one per library root (``fileURL(forLibraryAt:in:)``). The file is never
/// trusted blindly: one that is not a database, is damaged, belongs to
/// another application, another library or another layout is moved aside
/// and rebuilt empty, on opening or whenever SQLite finds damage later
/// (``IndexOpening``, ``LibraryIndexError/rebuilt(_:)``); the gallery then
/// lists the library again, which is all a rebuild costs.
///
/// Several galleries may use one index at once: the file is in write-ahead
/// log mode, writers take the lock at the start of a transaction and wait
/// for one another (up to 10 s), and writes go in transactions of
/// ``rowsPerTransaction`` rows, so one never waits long. Opening takes a file lock
/// so two galleries never check or rebuild it at the same time.
///
/// Each instance has its own connection, used by this actor alone, with
/// every statement prepared once. On Linux every index runs on one thread
/// below the frames' priority (``BackgroundThreadExecutor/libraryWork``).
package actor LibraryIndex {
    #if canImport(Glibc)
    package nonisolated var unownedExecutor: UnownedSerialExecutor {
        BackgroundThreadExecutor.libraryWork.asUnownedSerialExecutor()
    }
    #endif

    /// The rows written in one transaction by default. Large, because what
    /// a transaction costs is mostly the pages it touches, and rows in date
    /// order land all over the table and its date index: 100,000 metadata
    /// rows in random order take about 2 s in transactions of 10,000 and
    /// 8.6 s in transactions of 1,000 (2-core AMD EPYC, shared). Another
    /// gallery waits for one transaction at most, a fraction of a second.
    package static let defaultRowsPerTransaction = 10_000

    /// The rows this index writes in one transaction.
    package nonisolated let rowsPerTransaction: Int

    /// The index file.
    package nonisolated let file: URL
    /// How the file was found when this index opened it.
    package nonisolated let opening: IndexOpening

    private let database: IndexDatabase

    /// Opens the index in `file` for the library at `root` (whose real path
    /// the file must name), creating the file and its folder if needed and
    /// rebuilding an unusable one.
    ///
    /// Blocks while another gallery opens or rebuilds the same file.
    /// - Throws: ``LibraryIndexError/unavailable(_:)`` when the file cannot
    ///   be created, read or written (the gallery goes on without an index).
    package init(at file: URL, root: URL, rowsPerTransaction: Int = defaultRowsPerTransaction) throws(LibraryIndexError) {
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw .unavailable("cannot create \(file.deletingLastPathComponent().path): \(error.localizedDescription)")
        }
        let database = try IndexDatabase(path: file.path, root: IndexFile.realPath(of: root))
        self.file = file
        self.rowsPerTransaction = max(rowsPerTransaction, 1)
        self.opening = database.opening
        self.database = database
    }

    /// The index file for the library at `root` in `directory` (the
    /// gallery's cache folder): `library-<hash>.sqlite`, the hash (64-bit
    /// FNV-1a, in hex) of the root's real path, so each library has its own
    /// file, found again under any spelling of its path.
    package static func fileURL(forLibraryAt root: URL, in directory: URL) -> URL {
        IndexFile.url(forLibraryAt: root, in: directory)
    }

    // MARK: Reading

    /// Every record, newest first: by capture date, or by file time while
    /// the date is unknown (``LibraryRecord/sortDate``), then by ID — the
    /// order of ``LibraryRecord/precedes(_:_:)``.
    ///
    /// Complexity: one pass through an index kept in this order (no sort);
    /// about 70 ms of CPU time for 100,000 records on a 2-core AMD EPYC
    /// (`library-index-measure`).
    package func records() throws(LibraryIndexError) -> [LibraryRecord] {
        var records: [LibraryRecord] = []
        try database.records(batchSize: .max, firstBatchSize: .max) { records = $0 }
        return records
    }

    /// Every record, newest first as ``records()`` returns them, handed to
    /// `deliver` `batchSize` at a time as they are read, the first batch
    /// `firstBatchSize` (by default the same; the last batch shorter; a
    /// single empty one for an empty index): the newest photos, the first
    /// screen, arrive within a millisecond, before the rest are read, and a
    /// small first batch is quick to show. `counted`, if given, is told how
    /// many records there are right after the first batch, not before it:
    /// counting reads every page of the index (5 ms for 100,000 records),
    /// which the first screen need not wait for.
    ///
    /// Should the file show damage midway, the batches delivered are all
    /// there is and the call throws ``LibraryIndexError/rebuilt(_:)``.
    package func records(batchSize: Int, firstBatchSize: Int? = nil, counted: (@Sendable (Int) -> Void)? = nil,
                         _ deliver: @Sendable ([LibraryRecord]) -> Void) throws(LibraryIndexError) {
        try database.records(batchSize: max(batchSize, 1), firstBatchSize: max(firstBatchSize ?? batchSize, 1),
                             counted: counted, deliver)
    }

    /// The number of records.
    package func count() throws(LibraryIndexError) -> Int {
        try database.count()
    }

    /// Whether any photo is filed: a library seen before, with photos. O(1).
    package func hasRecords() throws(LibraryIndexError) -> Bool {
        try database.hasRecords()
    }

    /// Checks the file's structure (SQLite's `quick_check`, O(file size)),
    /// rebuilding a damaged one: for the background after the first
    /// screen, since a damaged page otherwise shows only when read.
    package func verify() throws(LibraryIndexError) {
        try database.verify()
    }

    // MARK: Writing

    /// Records what a walk listed: new files are added; a file whose stamp
    /// changed gets the new stamp and forgets its metadata and preview
    /// hash; a file whose stamp is the same is left as it is.
    ///
    /// Returns how many records were added or changed.
    @discardableResult
    package func upsert(_ files: some Collection<ListedFile> & Sendable) throws(LibraryIndexError) -> Int {
        try database.inBatches(files, batchSize: rowsPerTransaction) { statements, file throws(SQLiteError) in
            IndexStatements.bind(file, to: statements.upsert)
            try statements.upsert.step()
        }
    }

    /// Records what was read of each file, for the stamp it was read from:
    /// a record whose stamp has changed since (the file was edited while
    /// being read) is left alone, to be read again; a file with no record
    /// yet gets one (a first launch reads before the walk's records are
    /// written, and ``upsert(_:)`` then leaves it as it is).
    ///
    /// Pass many at once (thousands, gathered over a second or so): each
    /// call is at least one transaction, and a transaction's cost is mostly
    /// the pages it touches.
    ///
    /// Returns how many records took the metadata.
    @discardableResult
    package func recordMetadata(_ entries: some Collection<(file: ListedFile, metadata: PhotoMetadata)> & Sendable)
        throws(LibraryIndexError) -> Int {
        try database.inBatches(entries, batchSize: rowsPerTransaction) { statements, entry throws(SQLiteError) in
            IndexStatements.bind(entry.file, to: statements.recordMetadata)
            IndexStatements.bind(entry.metadata, to: statements.recordMetadata)
            try statements.recordMetadata.step()
        }
    }

    /// Records preview hashes, each for the stamp of the file it was made
    /// from (as ``recordMetadata(_:)`` does).
    ///
    /// Returns how many records took theirs.
    @discardableResult
    package func recordPreviewHashes(_ entries: some Collection<(file: ListedFile, hash: [UInt8])> & Sendable)
        throws(LibraryIndexError) -> Int {
        try database.inBatches(entries, batchSize: rowsPerTransaction) { statements, entry throws(SQLiteError) in
            IndexStatements.bind(entry.file, to: statements.recordPreviewHash)
            statements.recordPreviewHash.bind(5, entry.hash)
            try statements.recordPreviewHash.step()
        }
    }

    /// Removes the records of `ids` (those it has).
    ///
    /// Returns how many it had.
    @discardableResult
    package func delete(_ ids: some Collection<ImageID> & Sendable) throws(LibraryIndexError) -> Int {
        try database.inBatches(ids, batchSize: rowsPerTransaction) { statements, id throws(SQLiteError) in
            statements.delete.bind(1, id.rawValue)
            try statements.delete.step()
        }
    }

    /// Brings the index in line with a walk: adds the new files, restamps
    /// the changed ones (forgetting what was read of them) and removes the
    /// deleted ones. The unchanged are not touched.
    package func apply(_ reconciliation: Reconciliation) throws(LibraryIndexError) {
        // One after the other, not joined into a third list of them.
        try upsert(reconciliation.new)
        try upsert(reconciliation.changed)
        try delete(reconciliation.deleted)
    }
}
