import Foundation
import ParallaxImages
import ParallaxLibraryIndex

/// Files what the gallery learns of a library's photos into its index
/// (``LibraryIndex``), in large batches: the one owner of the index
/// connection a gallery writes through.
///
/// Every header and date is filed under the stamp (size, modification
/// time, inode) of the file it was read from, as `fstat` gave it on the
/// open file (``FolderImageSource/readHeadersAndCaptureDates(of:)``); a
/// preview under the file's stamp when it is filed. So a photo edited
/// meanwhile is never stored with a stale shape, and the writer keeps no
/// table of stamps (at 100,000 photos that table was 10 MB).
/// Reads collect in memory and are written a few thousand rows a
/// transaction (``flushThreshold``), or within ``flushDelay`` of the first
/// one waiting, and at ``flush()``.
package actor LibraryIndexWriter {
    /// The index written to.
    package nonisolated let index: LibraryIndex
    /// The library's folder, whose files' stamps previews are filed under.
    package nonisolated let folder: FolderImageSource
    /// Rows gathered before a write: a transaction's cost is mostly the
    /// pages it touches, so thousands a time cost little more than one.
    package static let flushThreshold = 4_096
    /// How long a read waits at most before it is written.
    package static let flushDelay: Duration = .seconds(1)

    private var pending: [(file: ListedFile, metadata: PhotoMetadata)] = []
    private var pendingPreviews: [(file: ListedFile, hash: [UInt8])] = []
    private var flushScheduled = false
    /// The last walk's reconciliation being written (``apply(_:)``).
    private var applying: Task<Void, Never>?
    /// Why the last write failed, if one did (the gallery goes on without it).
    package private(set) var lastError: LibraryIndexError?

    package init(index: LibraryIndex, folder: FolderImageSource) {
        self.index = index
        self.folder = folder
    }

    /// Files what was read of each of `reads`, under the file each was read from.
    package func record(_ reads: [FolderImageSource.HeaderRead]) {
        for read in reads {
            guard let file = ListedFile(listed: read.file) else { continue }
            pending.append((file, PhotoMetadata(header: read.header, captureDate: read.date)))
        }
        scheduleFlush()
    }

    /// Files the previews the loader made (`PreviewStore.takeMadeHashes()`),
    /// so that the next launch shows each photo's preview from its first
    /// frame, under each file's stamp as it is now (one `stat` each, on the
    /// file threads); a photo whose file is gone is not filed.
    package func record(previews: [(id: ImageID, hash: ThumbHash)]) async {
        guard !previews.isEmpty else { return }
        let files = await folder.files(of: previews.map(\.id))
        for (preview, listed) in zip(previews, files) {
            guard let listed, let file = ListedFile(listed: listed) else { continue }
            pendingPreviews.append((file, preview.hash.bytes))
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

    /// Starts bringing the index up to date with a walk
    /// (`reconciliation`: 100,000 rows on a first launch, a second or two
    /// at the index's low priority), after any earlier one, and returns at
    /// once: the listing reports itself finished meanwhile, every photo
    /// already shown. ``waitUntilApplied()`` and ``flushAndWait()`` wait for it.
    package func apply(_ reconciliation: Reconciliation) {
        let earlier = applying
        applying = Task { [index] in
            await earlier?.value
            do throws(LibraryIndexError) {
                try await index.apply(reconciliation)
            } catch {
                self.noteFailure(error)
            }
        }
    }

    /// Returns once every reconciliation started by ``apply(_:)`` is written.
    package func waitUntilApplied() async {
        await applying?.value
    }

    private func noteFailure(_ error: LibraryIndexError) {
        lastError = error
    }

    /// Writes every read gathered so far and returns once it is written,
    /// and the last walk's reconciliation with it.
    package func flushAndWait() async {
        await waitUntilApplied()
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
        // A switch, not `get()`: the iOS SDKs' `Result.get()` throws `any Error`, not the typed failure.
        let read: FolderImageSource.HeaderRead
        switch await base.readHeadersAndCaptureDates(of: [id])[0] {
        case .success(let value): read = value
        case .failure(let error): throw error
        }
        await writer.record([read])
        return (read.header, read.date)
    }

    package var headerBatchSize: Int { base.headerBatchSize }

    package func headersAndCaptureDates(for ids: [ImageID]) async -> [Result<(header: ImageHeader, date: CaptureDate?), ImageSourceError>] {
        let results = await base.readHeadersAndCaptureDates(of: ids)
        await writer.record(results.compactMap { try? $0.get() })
        return results.map { result in result.map { (header: $0.header, date: Optional($0.date)) } }
    }
}
