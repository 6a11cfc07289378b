import Foundation
import ParallaxImages
import ParallaxLibraryIndex

/// Files what the gallery learns of a library's photos into its index
/// (``LibraryIndex``), in large batches: the one owner of the index
/// connection a gallery writes through.
///
/// The listing hands over each photo's file stamp (size, modification
/// time, inode) as the walk finds it (``noteStamps(_:)``); every header
/// and date read later is filed under the stamp of the file it was read
/// from, so a photo edited meanwhile is never stored with a stale shape.
/// Reads collect in memory and are written a few thousand rows a
/// transaction (``flushThreshold``), or within ``flushDelay`` of the first
/// one waiting, and at ``flush()``.
package actor LibraryIndexWriter {
    /// The index written to.
    package nonisolated let index: LibraryIndex
    /// Rows gathered before a write: a transaction's cost is mostly the
    /// pages it touches, so thousands a time cost little more than one.
    package static let flushThreshold = 4_096
    /// How long a read waits at most before it is written.
    package static let flushDelay: Duration = .seconds(1)

    private var stamps: [ImageID: FileStamp] = [:]
    private var pending: [(file: ListedFile, metadata: PhotoMetadata)] = []
    private var pendingPreviews: [(file: ListedFile, hash: [UInt8])] = []
    private var flushScheduled = false
    /// Why the last write failed, if one did (the gallery goes on without it).
    package private(set) var lastError: LibraryIndexError?

    package init(index: LibraryIndex) {
        self.index = index
    }

    /// Remembers the stamps of files the walk found.
    package func noteStamps(_ files: [ListedFile]) {
        stamps.reserveCapacity(stamps.count + files.count)
        for file in files { stamps[file.id] = file.stamp }
    }

    /// Files what was read of photo `id`; a photo whose stamp the walk has
    /// not given is not filed (the next launch reads it again).
    package func record(_ id: ImageID, header: ImageHeader?, captureDate: CaptureDate?) {
        guard let stamp = stamps[id] else { return }
        pending.append((ListedFile(id: id, stamp: stamp), PhotoMetadata(header: header, captureDate: captureDate)))
        scheduleFlush()
    }

    /// Files what was read of each of `reads` (``record(_:header:captureDate:)``).
    package func record(_ reads: [(id: ImageID, header: ImageHeader, date: CaptureDate?)]) {
        for read in reads { record(read.id, header: read.header, captureDate: read.date) }
    }

    /// Files the previews the loader made (`PreviewStore.takeMadeHashes()`),
    /// so that the next launch shows each photo's preview from its first
    /// frame; photos whose stamp the walk has not given are not filed.
    package func record(previews: [(id: ImageID, hash: ThumbHash)]) {
        for preview in previews {
            guard let stamp = stamps[preview.id] else { continue }
            pendingPreviews.append((ListedFile(id: preview.id, stamp: stamp), preview.hash.bytes))
        }
        scheduleFlush()
    }

    private func scheduleFlush() {
        if pending.count + pendingPreviews.count >= Self.flushThreshold {
            flush()
        } else if !flushScheduled, !(pending.isEmpty && pendingPreviews.isEmpty) {
            flushScheduled = true
            Task {
                try? await Task.sleep(for: Self.flushDelay)
                self.flush()
            }
        }
    }

    /// Writes every read gathered so far.
    package func flush() {
        flushScheduled = false
        guard !pending.isEmpty || !pendingPreviews.isEmpty else { return }
        let batch = pending, previews = pendingPreviews
        pending = []
        pendingPreviews = []
        Task { await self.write(batch, previews) }
    }

    /// Writes every read gathered so far and returns once it is written.
    package func flushAndWait() async {
        flushScheduled = false
        let batch = pending, previews = pendingPreviews
        pending = []
        pendingPreviews = []
        await write(batch, previews)
    }

    private func write(_ batch: [(file: ListedFile, metadata: PhotoMetadata)],
                       _ previews: [(file: ListedFile, hash: [UInt8])]) async {
        do {
            if !batch.isEmpty { _ = try await index.recordMetadata(batch) }
            if !previews.isEmpty { _ = try await index.recordPreviewHashes(previews) }
        } catch {
            lastError = error
        }
    }
}

/// A folder source that files every header it reads into the library
/// index (``LibraryIndexWriter``): the gallery's shape reads become the
/// next launch's index without a read of their own.
package struct IndexRecordingSource: ImageSource {
    package let base: FolderImageSource
    package let writer: LibraryIndexWriter

    package init(base: FolderImageSource, writer: LibraryIndexWriter) {
        self.base = base
        self.writer = writer
    }

    package func imageIDs() async throws(ImageSourceError) -> [ImageID] { try await base.imageIDs() }
    package func data(for id: ImageID) async throws(ImageSourceError) -> Data { try await base.data(for: id) }
    package func isStoredLocally(_ id: ImageID) async -> Bool { true }
    package func fingerprint(for id: ImageID) async -> String? { await base.fingerprint(for: id) }
    package func embeddedThumbnail(for id: ImageID) async -> EmbeddedThumbnail? { await base.embeddedThumbnail(for: id) }

    /// The base's header (not filed: the gallery reads headers with their
    /// dates, ``headerAndCaptureDate(for:)``, and files those).
    package func header(for id: ImageID) async throws(ImageSourceError) -> ImageHeader {
        try await base.header(for: id)
    }

    package func headerAndCaptureDate(for id: ImageID) async throws(ImageSourceError) -> (header: ImageHeader, date: CaptureDate?) {
        let read = try await base.headerAndCaptureDate(for: id)
        await writer.record(id, header: read.header, captureDate: read.date)
        return read
    }

    package var headerBatchSize: Int { base.headerBatchSize }

    package func headersAndCaptureDates(for ids: [ImageID]) async -> [Result<(header: ImageHeader, date: CaptureDate?), ImageSourceError>] {
        let results = await base.headersAndCaptureDates(for: ids)
        var reads: [(id: ImageID, header: ImageHeader, date: CaptureDate?)] = []
        reads.reserveCapacity(results.count)
        for (id, result) in zip(ids, results) {
            if case .success(let read) = result { reads.append((id, read.header, read.date)) }
        }
        await writer.record(reads)
        return results
    }
}
