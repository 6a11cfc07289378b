import CSQLite
import Foundation
import ParallaxImages
import Testing
@testable import ParallaxLibraryIndex

/// The index's records: the file it makes, every field there and back,
/// what listing a file again keeps or forgets, deletion and the order.
@Suite("Library index")
struct LibraryIndexTests {
    @Test func createsAMarkedFileWithItsTablesAndOpensItAgain() async throws {
        let scratch = try ScratchFolder()
        let index = try scratch.open()
        #expect(index.opening == .created)
        #expect(try await index.count() == 0)
        let connection = try SQLiteConnection(path: scratch.index.path, busyTimeoutMilliseconds: 1000)
        #expect(try connection.integer("PRAGMA application_id") == Int64(IndexSchema.applicationID))
        #expect(try connection.integer("PRAGMA user_version") == Int64(IndexSchema.version))
        #expect(try connection.text("PRAGMA journal_mode") == "wal")
        #expect(try connection.integer("SELECT count(*) FROM sqlite_schema WHERE name IN ('photo', 'library')") == 2)
        #expect(try connection.text(IndexSchema.selectRoot) == IndexFile.realPath(of: scratch.root))
        // Records are read in date order straight from the covering index: no sort, no lookup.
        let plan = try connection.prepare("EXPLAIN QUERY PLAN " + IndexSchema.selectAll)
        var steps: [String] = []
        while try plan.step() { steps.append(plan.text(3) ?? "") }
        #expect(steps == ["SCAN photo USING COVERING INDEX photo_by_date"])

        try await index.upsert([Fixtures.file(1)])
        let again = try scratch.open()
        #expect(again.opening == .reopened)
        #expect(try await again.records().map(\.id) == [Fixtures.file(1).id])
    }

    @Test func keepsEveryFieldAsWritten() async throws {
        let scratch = try ScratchFolder()
        let index = try scratch.open()
        let files = (0..<40).map { Fixtures.file($0) }
        try await index.upsert(files)
        #expect(try await index.recordMetadata(files.map { (file: $0, metadata: Fixtures.metadata(Int($0.stamp.inode % 256))) }) == 40)
        #expect(try await index.recordPreviewHashes(files.prefix(10).map { (file: $0, hash: Array($0.id.rawValue.utf8.prefix(25))) }) == 10)
        // Extremes: no header and no date; an empty hash; the largest inode and a time before 1970.
        let odd = ListedFile(id: "ünïcödé/ファイル.heic", stamp: FileStamp(size: 0, modificationNanoseconds: -1_000_000_001, inode: .max))
        try await index.upsert([odd])
        try await index.recordMetadata([(file: odd, metadata: PhotoMetadata(header: nil, captureDate: nil))])
        try await index.recordPreviewHashes([(file: odd, hash: [])])

        let read = Dictionary(uniqueKeysWithValues: try await scratch.open().records().map { ($0.id, $0) })
        #expect(read.count == 41)
        for (n, file) in files.enumerated() {
            let expected = LibraryRecord(id: file.id, stamp: file.stamp, metadata: Fixtures.metadata(Int(file.stamp.inode % 256)),
                                         previewHash: n < 10 ? Array(file.id.rawValue.utf8.prefix(25)) : nil)
            #expect(read[file.id] == expected)
        }
        #expect(read[odd.id] == LibraryRecord(id: odd.id, stamp: odd.stamp, metadata: PhotoMetadata(header: nil, captureDate: nil),
                                               previewHash: []))
        // Shown sizes are stored: a turned photo's width is its stored height.
        let turned = try #require(read.values.first { $0.metadata?.header?.orientation == .right })
        #expect(turned.metadata?.header?.width == 3024)
    }

    @Test func listingAgainKeepsWhatWasReadOfAnUnchangedFileAndForgetsItForAChangedOne() async throws {
        let scratch = try ScratchFolder()
        let index = try scratch.open()
        let files = (0..<4).map { Fixtures.file($0) }
        #expect(try await index.upsert(files) == 4)
        try await index.recordMetadata(files.map { (file: $0, metadata: Fixtures.metadata(1)) })
        try await index.recordPreviewHashes(files.map { (file: $0, hash: [1, 2, 3]) })

        var edited = files
        edited[1].stamp.size += 1                           // rewritten in place
        edited[2].stamp.modificationNanoseconds += 1        // touched
        edited[3].stamp.inode += 1                          // replaced through a rename
        #expect(try await index.upsert(edited) == 3)
        let records = Dictionary(uniqueKeysWithValues: try await index.records().map { ($0.id, $0) })
        #expect(records[files[0].id] == LibraryRecord(id: files[0].id, stamp: files[0].stamp, metadata: Fixtures.metadata(1),
                                                        previewHash: [1, 2, 3]))
        for file in edited.dropFirst() {
            #expect(records[file.id] == LibraryRecord(id: file.id, stamp: file.stamp))
        }
        // Metadata read from the old file arrives late: not taken.
        #expect(try await index.recordMetadata([(file: files[1], metadata: Fixtures.metadata(2))]) == 0)
        #expect(try await index.recordPreviewHashes([(file: files[1], hash: [9])]) == 0)
        #expect(try await index.records().first { $0.id == files[1].id }?.metadata == nil)
    }

    @Test func whatIsReadBeforeTheWalksRecordsAreWrittenIsKept() async throws {
        // A first launch reads headers and makes previews while the walk is still going: the records
        // they make are the ones the walk's upsert then finds, with the same stamp, and leaves alone.
        let scratch = try ScratchFolder()
        let index = try scratch.open()
        let files = (0..<3).map { Fixtures.file($0) }
        #expect(try await index.recordMetadata([(file: files[0], metadata: Fixtures.metadata(4))]) == 1)
        #expect(try await index.recordPreviewHashes([(file: files[0], hash: [7, 7]), (file: files[1], hash: [8])]) == 2)
        #expect(try await index.upsert(files) == 1)                                   // only files[2] was new
        let records = Dictionary(uniqueKeysWithValues: try await index.records().map { ($0.id, $0) })
        #expect(records[files[0].id] == LibraryRecord(id: files[0].id, stamp: files[0].stamp, metadata: Fixtures.metadata(4),
                                                        previewHash: [7, 7]))
        #expect(records[files[1].id] == LibraryRecord(id: files[1].id, stamp: files[1].stamp, previewHash: [8]))
        #expect(records[files[2].id] == LibraryRecord(id: files[2].id, stamp: files[2].stamp))
    }

    @Test func deletesTheRecordsItHas() async throws {
        let scratch = try ScratchFolder()
        let index = try scratch.open()
        let files = (0..<2_500).map { Fixtures.file($0) }
        try await index.upsert(files)
        let gone = files.filter { $0.stamp.inode % 3 == 0 }.map(\.id)
        #expect(try await index.delete(gone + ["not/indexed.jpg"]) == gone.count)
        let left = Set(try await index.records().map(\.id))
        #expect(left == Set(files.map(\.id)).subtracting(gone))
    }

    @Test func appliesAReconciliation() async throws {
        let scratch = try ScratchFolder()
        let index = try scratch.open()
        let files = (0..<10).map { Fixtures.file($0) }
        try await index.upsert(files)
        try await index.recordMetadata(files.map { (file: $0, metadata: Fixtures.metadata(0)) })
        var listed = Array(files.dropFirst(2)) + [Fixtures.file(50)]
        listed[0].stamp.size = 7
        let reconciliation = Reconciliation(indexed: try await index.records(), listed: listed)
        try await index.apply(reconciliation)
        let records = try await index.records()
        #expect(Set(records.map(\.id)) == Set(listed.map(\.id)))
        #expect(records.filter { $0.metadata == nil }.map(\.id).sorted() == [listed[0].id, Fixtures.file(50).id].sorted())
        #expect(Reconciliation(indexed: records, listed: listed).isEmpty)
    }

    @Test func ordersNewestFirstWithUnreadPhotosAtTheirFileTime() async throws {
        let scratch = try ScratchFolder()
        let index = try scratch.open()
        var generator = TestGenerator(seed: 7)
        let files = (0..<3_000).map { n in
            ListedFile(id: ImageID("f/\(UInt64.random(in: 0..<400, using: &generator))/\(n).jpg"),
                       stamp: FileStamp(size: 1, modificationNanoseconds: Int64.random(in: 0..<50, using: &generator) * 1_000_000_000,
                                        inode: UInt64(n)))
        }
        try await index.upsert(files)
        // Two thirds get dates, some equal to another photo's file time, some ties among themselves.
        let dated = files.filter { $0.stamp.inode % 3 != 0 }.map { file in
            (file: file, metadata: PhotoMetadata(header: nil, captureDate: CaptureDate(
                date: Date(timeIntervalSince1970: Double(Int.random(in: 0..<60, using: &generator))), hasUTCOffset: false,
                source: .exifOriginal)))
        }
        try await index.recordMetadata(dated)
        let records = try await index.records()
        #expect(records.count == files.count)
        #expect(records == records.sorted(by: LibraryRecord.precedes))
        #expect(records.first!.sortDate >= records.last!.sortDate)
    }

    @Test func deliversRecordsInBatchesAsTheyAreRead() async throws {
        let scratch = try ScratchFolder()
        let index = try scratch.open()
        let batches = Batches()
        try await index.records(batchSize: 7) { batches.append($0) }
        #expect(batches.all.map(\.count) == [0])
        try await index.upsert((0..<50).map { Fixtures.file($0) })
        batches.all = []
        try await index.records(batchSize: 7) { batches.append($0) }
        #expect(batches.all.map(\.count) == [7, 7, 7, 7, 7, 7, 7, 1])
        #expect(Array(batches.all.joined()) == (try await index.records()))
    }

    @Test func deliversASmallerFirstBatchWhenAsked() async throws {
        let scratch = try ScratchFolder()
        let index = try scratch.open()
        try await index.upsert((0..<50).map { Fixtures.file($0) })
        let batches = Batches()
        try await index.records(batchSize: 20, firstBatchSize: 3) { batches.append($0) }
        #expect(batches.all.map(\.count) == [3, 20, 20, 7])
        #expect(Array(batches.all.joined()) == (try await index.records()))
        batches.all = []
        try await index.records(batchSize: 20, firstBatchSize: 60) { batches.append($0) }
        #expect(batches.all.map(\.count) == [50])
    }

    /// The count comes right after the first batch (counting reads the
    /// whole index, which the first screen need not wait for), once.
    @Test func countsTheRecordsAfterTheFirstBatch() async throws {
        let scratch = try ScratchFolder()
        let index = try scratch.open()
        let told = Batches()
        try await index.records(batchSize: 7, counted: { told.note($0) }) { told.append($0) }
        #expect(told.log == ["batch 0", "count 0"])
        try await index.upsert((0..<50).map { Fixtures.file($0) })
        let again = Batches()
        try await index.records(batchSize: 20, firstBatchSize: 3, counted: { again.note($0) }) { again.append($0) }
        #expect(again.log == ["batch 3", "count 50", "batch 20", "batch 20", "batch 7"])
        let whole = Batches()
        try await index.records(batchSize: 100, counted: { whole.note($0) }) { whole.append($0) }
        #expect(whole.log == ["batch 50", "count 50"])
    }

    /// What `records(batchSize:_:)` delivered.
    final class Batches: @unchecked Sendable {
        private let lock = NSLock()
        private var batches: [[LibraryRecord]] = []
        private var events: [String] = []
        var all: [[LibraryRecord]] {
            get { lock.withLock { batches } }
            set { lock.withLock { batches = newValue } }
        }
        /// The batches' sizes and the counts told, in order.
        var log: [String] { lock.withLock { events } }
        func append(_ batch: [LibraryRecord]) {
            lock.withLock {
                batches.append(batch)
                events.append("batch \(batch.count)")
            }
        }
        func note(_ count: Int) { lock.withLock { events.append("count \(count)") } }
    }

    @Test func placesAnUnreadPhotoAtItsFileTimeAmongDatedOnes() async throws {
        let scratch = try ScratchFolder()
        let index = try scratch.open()
        func file(_ name: String, seconds: Int64) -> ListedFile {
            ListedFile(id: ImageID(name), stamp: FileStamp(size: 1, modificationNanoseconds: seconds * 1_000_000_000, inode: 1))
        }
        let files = [file("a.jpg", seconds: 900), file("b.jpg", seconds: 200), file("c.jpg", seconds: 900), file("d.jpg", seconds: 100)]
        try await index.upsert(files)
        func taken(_ seconds: Double) -> PhotoMetadata {
            PhotoMetadata(header: nil, captureDate: CaptureDate(date: Date(timeIntervalSince1970: seconds), hasUTCOffset: true, source: .exifOriginal))
        }
        // a was taken at 300, c at 100: b (unread, its file time 200) sits between them; d ties with c, after it by name.
        try await index.recordMetadata([(file: files[0], metadata: taken(300)), (file: files[2], metadata: taken(100))])
        #expect(try await index.records().map(\.id) == ["a.jpg", "b.jpg", "c.jpg", "d.jpg"])
    }

    @Test func breaksTiesByTheBytesOfTheID() async throws {
        let scratch = try ScratchFolder()
        let index = try scratch.open()
        let names: [ImageID] = ["é.jpg", "z.jpg", "Z.jpg", "e\u{301}.jpg", "a/b.jpg", "a.jpg"]
        try await index.upsert(names.map { ListedFile(id: $0, stamp: FileStamp(size: 1, modificationNanoseconds: 0, inode: 1)) })
        let records = try await index.records()
        // UTF-8 byte order: "Z" (5A) before "a" (61), "." (2E) before "/" (2F), then "e" + U+0301, "z" (7A), "é" (C3 A9).
        #expect(records.map(\.id.rawValue.utf8.count) == [5, 5, 7, 7, 5, 6])
        #expect(records.map(\.id) == ["Z.jpg", "a.jpg", "a/b.jpg", "e\u{301}.jpg", "z.jpg", "é.jpg"])
        #expect(records == records.sorted(by: LibraryRecord.precedes))
    }
}
