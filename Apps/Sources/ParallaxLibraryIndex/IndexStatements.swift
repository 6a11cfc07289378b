import Foundation
import ParallaxImages

/// The statements of ``IndexSchema``, prepared once per connection
/// (`SQLITE_PREPARE_PERSISTENT`) and reused for every row, and the
/// translation between their columns and ``LibraryRecord``.
final class IndexStatements {
    let begin, commit, rollback: SQLiteStatement
    let upsert, recordMetadata, recordPreviewHash, delete: SQLiteStatement
    let selectAll, count, any: SQLiteStatement

    init(_ connection: SQLiteConnection) throws(SQLiteError) {
        // IMMEDIATE: the write lock is taken at the start, where the busy
        // timeout can wait for it, never upgraded from a read midway (which
        // fails at once with SQLITE_BUSY_SNAPSHOT if another wrote since).
        begin = try connection.prepare("BEGIN IMMEDIATE")
        commit = try connection.prepare("COMMIT")
        rollback = try connection.prepare("ROLLBACK")
        upsert = try connection.prepare(IndexSchema.upsert)
        recordMetadata = try connection.prepare(IndexSchema.recordMetadata)
        recordPreviewHash = try connection.prepare(IndexSchema.recordPreviewHash)
        delete = try connection.prepare(IndexSchema.delete)
        selectAll = try connection.prepare(IndexSchema.selectAll)
        count = try connection.prepare(IndexSchema.count)
        any = try connection.prepare(IndexSchema.any)
    }

    /// Binds `file` to parameters 1 to 4: the ID and the stamp.
    static func bind(_ file: ListedFile, to statement: SQLiteStatement) {
        statement.bind(1, file.id.rawValue)
        statement.bind(2, file.stamp.size)
        statement.bind(3, file.stamp.modificationNanoseconds)
        statement.bind(4, Int64(bitPattern: file.stamp.inode))
    }

    /// Binds `metadata` to parameters 5 to 11 of ``IndexSchema/recordMetadata``.
    static func bind(_ metadata: PhotoMetadata, to statement: SQLiteStatement) {
        let header = metadata.header
        statement.bind(5, header.map { Int64($0.width) })
        statement.bind(6, header.map { Int64($0.height) })
        statement.bind(7, header.map { Int64($0.orientation.rawValue) })
        statement.bind(8, header?.format.rawValue)
        let date = metadata.captureDate
        statement.bind(9, date?.date.timeIntervalSince1970)
        statement.bind(10, date.map { Int64($0.source.rawValue) })
        statement.bind(11, date.map { Int64($0.hasUTCOffset ? 1 : 0) })
    }

    /// The record in the current row of ``IndexSchema/selectAll``.
    ///
    /// Values this build does not know (a format or date source added
    /// later) read as unknown: the photo's header is then read again.
    static func record(_ row: SQLiteStatement) -> LibraryRecord {
        let stamp = FileStamp(size: row.int64(1), modificationNanoseconds: row.int64(2),
                              inode: UInt64(bitPattern: row.int64(3)))
        var record = LibraryRecord(id: ImageID(row.text(0) ?? ""), stamp: stamp)
        if row.int64(4) != 0 {
            var header: ImageHeader?
            // Orientation, width, height and format are written together (all or none);
            // a size no header has is not one.
            let width = Int(row.int64(5)), height = Int(row.int64(6))
            if width > 0, height > 0, let orientation = ImageOrientation(rawValue: Int(row.int64(7))),
               let format = format(row, 8) {
                // Stored as shown; the header keeps the size as stored.
                let swapped = orientation.swapsWidthAndHeight
                header = ImageHeader(format: format, storedWidth: swapped ? height : width,
                                     storedHeight: swapped ? width : height, orientation: orientation)
            }
            var date: CaptureDate?
            // `CaptureDate.Source`'s raw values are what the index stores: never reuse one.
            if !row.isNull(9), let source = CaptureDate.Source(rawValue: Int(row.int64(10))) {
                date = CaptureDate(date: Date(timeIntervalSince1970: row.double(9)), hasUTCOffset: row.int64(11) != 0,
                                   source: source)
            }
            record.metadata = PhotoMetadata(header: header, captureDate: date)
        }
        record.previewHash = row.blob(12)
        return record
    }

    /// The format named in `column`, matched on SQLite's bytes (no string
    /// made for it); `nil` for `NULL` or a name this build does not know.
    private static func format(_ row: SQLiteStatement, _ column: Int32) -> ImageFormat? {
        guard let name = row.bytes(column) else { return nil }
        for format in ImageFormat.allCases where name.elementsEqual(format.rawValue.utf8) { return format }
        return nil
    }
}
