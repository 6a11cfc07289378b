/// The index file's layout, and the statements the index runs on it.
///
/// One table of photos keyed by ID (`WITHOUT ROWID`: the ID is the key, and
/// a row is small), an index that keeps them in date order, and a one-row
/// table naming the library root the IDs are relative to. The file says it is ours with `application_id` and which
/// layout it has with `user_version`; a file whose layout this build does
/// not know is rebuilt, not migrated (it is a cache of the file system,
/// re-read in seconds).
enum IndexSchema {
    /// `application_id`: "PKLI", for ParallaxKit library index.
    static let applicationID: Int32 = 0x504B_4C49
    /// `user_version`: the layout below. Bump it (and say why) whenever a
    /// table, column or meaning changes.
    static let version: Int32 = 1

    /// The tables, created in one transaction with the pragmas that mark the file.
    static let create = """
        CREATE TABLE library (
            singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
            root TEXT NOT NULL
        );
        CREATE TABLE photo (
            id TEXT NOT NULL PRIMARY KEY,
            size INTEGER NOT NULL,
            mtime_ns INTEGER NOT NULL,
            inode INTEGER NOT NULL,
            has_metadata INTEGER NOT NULL DEFAULT 0,
            width INTEGER,
            height INTEGER,
            orientation INTEGER,
            format TEXT,
            capture_date REAL,
            capture_date_source INTEGER,
            capture_date_has_offset INTEGER,
            preview_hash BLOB
        ) WITHOUT ROWID;
        CREATE INDEX photo_by_date ON photo (
            coalesce(capture_date, mtime_ns / 1000000000.0) DESC, id,
            size, mtime_ns, inode, has_metadata, width, height, orientation, format,
            capture_date, capture_date_source, capture_date_has_offset, preview_hash
        );
        PRAGMA application_id = \(applicationID);
        PRAGMA user_version = \(version);
        """

    static let insertRoot = "INSERT INTO library (singleton, root) VALUES (1, ?1)"
    static let selectRoot = "SELECT root FROM library WHERE singleton = 1"

    /// A listed file: inserted when new; when its stamp differs, the stamp
    /// replaced and everything read of the old file forgotten; otherwise
    /// left alone (the `WHERE` makes the update a no-op).
    static let upsert = """
        INSERT INTO photo (id, size, mtime_ns, inode) VALUES (?1, ?2, ?3, ?4)
        ON CONFLICT (id) DO UPDATE SET
            size = excluded.size, mtime_ns = excluded.mtime_ns, inode = excluded.inode,
            has_metadata = 0, width = NULL, height = NULL, orientation = NULL, format = NULL,
            capture_date = NULL, capture_date_source = NULL, capture_date_has_offset = NULL,
            preview_hash = NULL
        WHERE size != excluded.size OR mtime_ns != excluded.mtime_ns OR inode != excluded.inode
        """

    /// A header's and date's values, for the file with the stamp they were
    /// read from: taken by its record when the stamps agree; a record
    /// inserted when the file has none yet (read on a first launch before
    /// the walk's records are written, which then leave it as it is).
    static let recordMetadata = """
        INSERT INTO photo (id, size, mtime_ns, inode, has_metadata, width, height, orientation, format,
            capture_date, capture_date_source, capture_date_has_offset)
        VALUES (?1, ?2, ?3, ?4, 1, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
        ON CONFLICT (id) DO UPDATE SET has_metadata = 1, width = excluded.width, height = excluded.height,
            orientation = excluded.orientation, format = excluded.format, capture_date = excluded.capture_date,
            capture_date_source = excluded.capture_date_source, capture_date_has_offset = excluded.capture_date_has_offset
        WHERE size = excluded.size AND mtime_ns = excluded.mtime_ns AND inode = excluded.inode
        """

    /// A preview hash, for the file with the stamp it was made from (a
    /// record inserted when the file has none yet, as for metadata).
    static let recordPreviewHash = """
        INSERT INTO photo (id, size, mtime_ns, inode, preview_hash) VALUES (?1, ?2, ?3, ?4, ?5)
        ON CONFLICT (id) DO UPDATE SET preview_hash = excluded.preview_hash
        WHERE size = excluded.size AND mtime_ns = excluded.mtime_ns AND inode = excluded.inode
        """

    static let delete = "DELETE FROM photo WHERE id = ?1"

    /// Every record, newest first: by capture date, or file time until the
    /// date is known, then by ID (`BINARY`, UTF-8 byte order). The division
    /// is the same IEEE one as `FileStamp.modificationSeconds`, so Swift and
    /// SQLite agree on the order.
    ///
    /// `photo_by_date` holds every column in this order, so the query is one
    /// pass through it, without a sort or a lookup: the sort is paid a row
    /// at a time as rows are written (twice the file, 16 MB for 100,000
    /// photos), not all at once on a launch. Sorting at read time costs
    /// more than reading.
    static let selectAll = """
        SELECT id, size, mtime_ns, inode, has_metadata, width, height, orientation, format,
            capture_date, capture_date_source, capture_date_has_offset, preview_hash
        FROM photo INDEXED BY photo_by_date
        ORDER BY coalesce(capture_date, mtime_ns / 1000000000.0) DESC, id ASC
        """

    static let count = "SELECT count(*) FROM photo"

    /// Whether any photo is filed: one row looked at, where a count reads them all.
    static let any = "SELECT EXISTS (SELECT 1 FROM photo)"
}
