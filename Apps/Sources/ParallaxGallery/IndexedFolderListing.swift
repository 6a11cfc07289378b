import Foundation
import ParallaxImages
import ParallaxLibraryIndex

/// A folder tree listed through its library index (``LibraryIndex``): what
/// the last launch knew is shown at once, then the tree is walked and the
/// index reconciled with it.
///
/// 1. The index's records, newest first: the first ``firstBatchSize`` in
///    one batch (the first screen, with every shape and date known, no
///    photo read), then the count of the rest (room is made for that many
///    photos at once), then the rest 500 at a time.
/// 2. The walk (``FolderImageSource/scan(readingFileStatus:inBackground:waitingAfterFirstBatchFor:)``,
///    in the background when the index showed photos), each photo's stamp
///    handed to the writer as found.
/// 3. Reconciliation: photos deleted or changed since are removed, new and
///    changed ones added (their headers and dates are read, as any new
///    photo's), the listing is finished, and the index is brought up to
///    date behind it (``LibraryIndexWriter/apply(_:)``).
///
/// On a first launch the index is empty: step 1 shows nothing and every
/// photo arrives from the walk, as without an index.
///
/// All of it but the walk's own thread runs on the index's thread, below
/// the frames' priority (``BackgroundThreadExecutor/libraryWork``, on
/// Linux; elsewhere at the utility quality of service).
enum IndexedFolderListing {
    /// The records of the first batch: a first screen at the densest grid
    /// (8 columns, 6 rows at 1280 × 800) four times over, and no more, for
    /// the frame that shows them files them all (500 took 2-3 ms of it).
    static let firstBatchSize = 200

    static func events(of source: FolderImageSource, writer: LibraryIndexWriter,
                       firstScreen: FirstScreenSignal? = nil) -> AsyncStream<ListingEvent> {
        AsyncStream(bufferingPolicy: .unbounded) { continuation in
            let list: @Sendable () async -> Void = {
                let index = writer.index
                // 1. What the index knows, newest first.
                let collected = RecordCollector()
                do {
                    try await index.records(batchSize: 500, firstBatchSize: firstBatchSize, counted: { count in
                        // After the first batch: the rest.
                        if count > collected.count { continuation.yield(.expecting(count - collected.count)) }
                    }) { batch in
                        collected.append(batch)
                        continuation.yield(.photos(batch.map(FoundPhoto.init(record:))))
                    }
                } catch {
                    // A damaged index was rebuilt empty: the walk lists everything again.
                    collected.removeAll()
                    continuation.yield(.removed(collected.ids))
                }
                let indexed = collected.records
                let isKnown = Set(indexed.lazy.map(\.id))
                // 2. The walk, reconciled with the index as it goes. A photo the index has is sent only once
                // reconciled; the rest as found.
                var reconciling = Reconciliation.Builder(indexed: indexed)
                var report = FolderScan.Report()
                // Checking what the index showed is background work; on a first launch the walk is the listing.
                for await event in source.scan(readingFileStatus: true, inBackground: !indexed.isEmpty,
                                               waitingAfterFirstBatchFor: firstScreen) {
                    if Task.isCancelled { break }
                    switch event {
                    case .photos(let photos):
                        reconciling.add(photos.lazy.compactMap(ListedFile.init(listed:)))
                        let fresh = photos.filter { !isKnown.contains($0.id) }
                        if !fresh.isEmpty { continuation.yield(.photos(fresh.map(FoundPhoto.init(listed:)))) }
                    case .finished(let finished):
                        report = finished
                    case .failed(let error):
                        continuation.yield(.failed("\(error)"))
                        continuation.finish()
                        return
                    }
                }
                guard !Task.isCancelled else {
                    continuation.finish()
                    return
                }
                // 3. Reconcile: what changed or went since the last launch.
                let reconciliation = reconciling.finished()
                let gone = reconciliation.deleted + reconciliation.changed.map(\.id)
                if !gone.isEmpty { continuation.yield(.removed(gone)) }
                if !reconciliation.changed.isEmpty {
                    continuation.yield(.photos(reconciliation.changed.map {
                        FoundPhoto(id: $0.id, fileTime: FolderListing.wallClockSeconds($0.stamp.modificationNanoseconds))
                    }))
                }
                // The index is written behind the listing: every photo is shown by now, and the next launch's
                // save (``LibraryIndexWriter/flushAndWait()``) waits for the writing. The events end once it is
                // written, for whoever reads past the end of the listing.
                await writer.apply(reconciliation)
                continuation.yield(.finished(report))
                await writer.waitUntilApplied()
                continuation.finish()
            }
            #if canImport(Glibc)
            let task = Task.detached(executorPreference: BackgroundThreadExecutor.libraryWork) { await list() }
            #else
            // Task executors need iOS 18; below the frames by the quality of service.
            let task = Task.detached(priority: .utility) { await list() }
            #endif
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// The index's records as they are delivered, kept for the reconciliation.
private final class RecordCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [LibraryRecord] = []

    func append(_ batch: [LibraryRecord]) {
        lock.lock()
        stored += batch
        lock.unlock()
    }

    func removeAll() {
        lock.lock()
        stored = []
        lock.unlock()
    }

    var records: [LibraryRecord] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    var ids: [ImageID] { records.map(\.id) }

    var count: Int { lock.withLock { stored.count } }
}

extension FoundPhoto {
    /// A photo as the index remembers it: its file's time, its header, its
    /// capture date and its preview, all known.
    init(record: LibraryRecord) {
        self.init(id: record.id, fileTime: FolderListing.wallClockSeconds(record.stamp.modificationNanoseconds),
                  header: record.metadata?.header,
                  captureTime: record.metadata?.captureDate.map(FolderListing.wallClockSeconds(of:)),
                  preview: record.previewHash.flatMap { ThumbHash(bytes: $0) })
    }

    /// A photo as the walk found it.
    init(listed: ListedPhoto) {
        self.init(id: listed.id, fileTime: listed.modificationTime.map(FolderListing.wallClockSeconds))
    }
}

extension ListedFile {
    /// The walk's photo with its stamp, when the walk read the file's status.
    init?(listed: ListedPhoto) {
        guard let size = listed.size, let time = listed.modificationTime else { return nil }
        self.init(id: listed.id, stamp: FileStamp(size: size, modificationNanoseconds: time, inode: listed.inode))
    }
}

