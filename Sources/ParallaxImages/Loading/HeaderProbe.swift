import Foundation

/// Reads the headers of a source's photos in the background, a few at a
/// time, so that a layout can give every tile its photo's shape before the
/// pixels arrive: a quilt's block shape, a waterfall's height.
///
/// Hand it the photo list as it arrives (``probe(_:)``); what is on screen
/// goes to the front of the queue (``prioritize(_:)``). The headers the
/// source learned with its list (``ImageSource/listedHeaders()``, a
/// manifest's sizes) are published at once; every other photo's header is
/// read once (``remembersReads``), through the source's
/// ``ImageSource/header(for:)`` (a folder reads its first kilobytes, an
/// HTTP source asks for a byte range). Every
/// result is published on ``updates``, failures included, so a surface can
/// keep a placeholder shape for a photo whose size it will never know.
///
/// Results are published in batches: a listed million arrive in a few
/// hundred stream elements rather than a million (each element wakes the
/// consumer), and the listed headers are kept as the source handed them,
/// never copied.
///
/// Complexity: O(1) per photo queued or read, besides the reads themselves;
/// ``prioritize(_:)`` is O(ids given).
public actor HeaderProbe {
    /// What became known about one photo.
    public struct Update: Sendable {
        /// The photo.
        public var id: ImageID
        /// Its header, or why it could not be read.
        public var result: Result<ImageHeader, ImageSourceError>
        /// When the photo was taken, read with the header when the probe
        /// reads dates (``readsCaptureDates``) and the source knows it.
        public var captureDate: CaptureDate?
    }

    /// The source the headers are read from.
    public nonisolated let source: any ImageSource
    /// Reads under way at most at once.
    public nonisolated let maximumConcurrentReads: Int
    /// Whether each photo's capture date is read with its header
    /// (``ImageSource/headerAndCaptureDate(for:)``: the same first bytes).
    public nonisolated let readsCaptureDates: Bool
    /// Whether headers read are kept for ``header(for:)`` after they are
    /// published.
    public nonisolated let keepsHeaders: Bool
    /// Whether the photos read are remembered, so none is read twice
    /// (always, when the headers are kept).
    public nonisolated let remembersReads: Bool
    /// Every header read (or failure), in batches, in the order they
    /// finish: the listed headers in batches of up to ``batchSize``, each
    /// read as a batch of one. One stream for the probe's life: iterate it
    /// from one task.
    public nonisolated let updates: AsyncStream<[Update]>

    /// The most updates one published batch holds.
    public static let batchSize = 8_192

    private let continuation: AsyncStream<[Update]>.Continuation
    /// The headers the source listed, as it handed them over (shared, not copied).
    private var listed: [ImageID: ImageHeader] = [:]
    private var queue: [ImageID] = []
    private var queueStart = 0
    private var known: [ImageID: ImageHeader] = [:]
    private var failed: [ImageID: ImageSourceError] = [:]
    /// Where each photo handed over stands (its header neither listed, kept
    /// in ``known`` nor failed): one table for every stage, not a set each.
    /// At 100,000 photos the sets of queued and of read photos peaked at
    /// 4.2 MB each (heaptrack); this table peaks at 4.5 MB.
    private var progress: [ImageID: Progress] = [:]
    /// Headers read and not kept (remembered in ``progress`` or not), and
    /// photos whose ``progress`` is `.reading`.
    private var readCount = 0, readingCount = 0

    private enum Progress: UInt8 {
        case queued, reading
        /// Read, when the probe keeps no headers (``keepsHeaders``).
        case read
    }
    private var askedForListed = false
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []

    /// A probe of `source`, reading at most `maximumConcurrentReads`
    /// headers at once (at least 1; 4 by default: a header read is a small
    /// file read or a small request, bound by latency rather than bandwidth).
    /// With `readingCaptureDates`, each photo's capture date is read with
    /// its header and published with it.
    ///
    /// Without `keepingHeaders`, a header read is published and then
    /// forgotten (``header(for:)`` answers only listed ones): for a caller
    /// that files every update itself, such as a gallery keeping each
    /// photo's shape, so 100,000 headers are not held twice (10 MB). The
    /// probe still remembers which photos it read, and reads none twice,
    /// unless `rememberingReads` is `false` as well: it then holds only the
    /// photos queued and being read, for a caller that asks only for photos
    /// it has no answer for (at 100,000 photos, remembering them took
    /// 4.5 MB for the probe's life). Such a probe reads a photo again if
    /// asked again, and ``prioritize(_:)`` moves only photos it holds.
    public init(source: any ImageSource, maximumConcurrentReads: Int = 4, readingCaptureDates: Bool = false,
                keepingHeaders: Bool = true, rememberingReads: Bool = true) {
        self.source = source
        self.keepsHeaders = keepingHeaders
        self.remembersReads = keepingHeaders || rememberingReads
        self.maximumConcurrentReads = max(1, maximumConcurrentReads)
        self.readsCaptureDates = readingCaptureDates
        // Not `AsyncStream.makeStream`, which the iOS 16 SDK lacks.
        var captured: AsyncStream<[Update]>.Continuation?
        updates = AsyncStream(bufferingPolicy: .unbounded) { captured = $0 }
        continuation = captured!
    }

    deinit {
        continuation.finish()
    }

    /// Queues `ids` (the photo list, or the part of it that just arrived) in
    /// order, after what is already queued. Photos already known, failed,
    /// queued or being read are skipped, and so are those whose header the
    /// source listed: those are published at once, the first time.
    public func probe(_ ids: [ImageID]) async {
        if !askedForListed {
            askedForListed = true
            listed = await source.listedHeaders()
            publishListed(firstOf: ids)
        }
        // A listed photo costs one lookup here; only the rest are checked further.
        for id in ids where !isAnswered(id) && failed[id] == nil && progress[id] == nil {
            queue.append(id)
            progress[id] = .queued
        }
        pump()
    }

    /// Publishes every listed header: those of `ids` first, in their order
    /// (what is on screen first, for a surface that asks so), then the rest.
    private func publishListed(firstOf ids: [ImageID]) {
        guard !listed.isEmpty else { return }
        var batch: [Update] = []
        batch.reserveCapacity(min(listed.count, Self.batchSize))
        func add(_ id: ImageID, _ header: ImageHeader) {
            batch.append(Update(id: id, result: .success(header)))
            if batch.count == Self.batchSize {
                continuation.yield(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        var published = 0
        for id in ids {
            guard let header = listed[id] else { continue }
            add(id, header)
            published += 1
        }
        // Listed photos the list did not name (rare: a set is made only then).
        if published < listed.count {
            let named = Set(ids)
            for (id, header) in listed where !named.contains(id) { add(id, header) }
        }
        if !batch.isEmpty { continuation.yield(batch) }
    }

    /// Moves `ids` (what is on screen, in order) to the front of the queue;
    /// ids not queued yet are queued there, unless the probe forgets what it
    /// read (``remembersReads``): one not held then was read already.
    public func prioritize(_ ids: [ImageID]) {
        let wanted = ids.filter { id in
            guard remembersReads else { return progress[id] == .queued }
            return !isAnswered(id) && failed[id] == nil && progress[id] != .reading
        }
        guard !wanted.isEmpty else { return }
        let front = Set(wanted)
        let rest = queue[queueStart...].filter { !front.contains($0) }
        var seen = Set<ImageID>()
        queue = wanted.filter { seen.insert($0).inserted } + rest
        queueStart = 0
        for id in front { progress[id] = .queued }
        pump()
    }

    /// The header of `id`, if it has been read (and the probe keeps what it
    /// reads) or was listed.
    public func header(for id: ImageID) -> ImageHeader? { listed[id] ?? known[id] }

    /// Whether the header of `id` was listed or has been read.
    private func isAnswered(_ id: ImageID) -> Bool {
        listed[id] != nil || known[id] != nil || progress[id] == .read
    }

    /// Why the header of `id` could not be read, if it could not.
    public func failure(for id: ImageID) -> ImageSourceError? { failed[id] }

    /// Photos whose header is read or was listed (a photo read twice, by a
    /// probe that forgets what it read, counts twice).
    public var knownCount: Int { known.count + readCount + listed.count }

    /// Returns once nothing is queued or being read.
    public func waitUntilIdle() async {
        guard readingCount > 0 || queueStart < queue.count else { return }
        await withCheckedContinuation { idleWaiters.append($0) }
    }

    // MARK: Reading

    private func pump() {
        let batchSize = readsCaptureDates ? max(source.headerBatchSize, 1) : 1
        while readingTasks < maximumConcurrentReads, queueStart < queue.count {
            guard batchSize > 1 else {
                pumpOne()
                continue
            }
            // A batch of the next photos in the queue (what is on screen first), read in one go.
            var ids: [ImageID] = []
            while ids.count < batchSize, queueStart < queue.count {
                let id = queue[queueStart]
                queueStart += 1
                guard !isAnswered(id), failed[id] == nil, progress[id] != .reading else { continue }
                startReading(id)
                ids.append(id)
            }
            guard !ids.isEmpty else { continue }
            readingTasks += 1
            let source = self.source, batch = ids
            Task {
                let results = await source.headersAndCaptureDates(for: batch)
                self.finish(batch, results)
            }
        }
        // Drop the consumed part of the queue now and then, so it never grows without bound.
        if queueStart > 1_024, queueStart * 2 > queue.count {
            queue.removeFirst(queueStart)
            queueStart = 0
        }
    }

    /// Reads under way (a batch counts once).
    private var readingTasks = 0

    /// Starts reading the next photo in the queue on its own.
    private func pumpOne() {
        let id = queue[queueStart]
        queueStart += 1
        guard !isAnswered(id), failed[id] == nil, progress[id] != .reading else { return }
        startReading(id)
        readingTasks += 1
        let source = self.source, readsDates = readsCaptureDates
        Task {
            let result: Result<ImageHeader, ImageSourceError>
            var date: CaptureDate?
            do throws(ImageSourceError) {
                if readsDates {
                    let read = try await source.headerAndCaptureDate(for: id)
                    result = .success(read.header)
                    date = read.date
                } else {
                    result = .success(try await source.header(for: id))
                }
            } catch {
                result = .failure(error)
            }
            self.finish(id, result, captureDate: date)
        }
    }

    /// Files a batch read's answers and publishes them as one update.
    private func finish(_ ids: [ImageID], _ results: [Result<(header: ImageHeader, date: CaptureDate?), ImageSourceError>]) {
        readingTasks -= 1
        var updates: [Update] = []
        updates.reserveCapacity(ids.count)
        for (index, id) in ids.enumerated() {
            stopReading(id)
            let result = index < results.count ? results[index] : .failure(.unavailable("the source answered fewer photos than asked"))
            switch result {
            case .success(let read):
                file(read.header, of: id)
                updates.append(Update(id: id, result: .success(read.header), captureDate: read.date))
            case .failure(let error):
                failed[id] = error
                updates.append(Update(id: id, result: .failure(error)))
            }
        }
        continuation.yield(updates)
        pump()
        wakeIdleWaiters()
    }

    private func finish(_ id: ImageID, _ result: Result<ImageHeader, ImageSourceError>, captureDate: CaptureDate?) {
        stopReading(id)
        readingTasks -= 1
        switch result {
        case .success(let header): file(header, of: id)
        case .failure(let error): failed[id] = error
        }
        continuation.yield([Update(id: id, result: result, captureDate: captureDate)])
        pump()
        wakeIdleWaiters()
    }

    private func startReading(_ id: ImageID) {
        progress[id] = .reading
        readingCount += 1
    }

    private func stopReading(_ id: ImageID) {
        progress[id] = nil
        readingCount -= 1
    }

    /// Remembers that `id` was read, and its header if the probe keeps them.
    private func file(_ header: ImageHeader, of id: ImageID) {
        if keepsHeaders {
            known[id] = header
        } else {
            if remembersReads { progress[id] = .read }
            readCount += 1
        }
    }

    /// Photos the probe holds a stage for (queued, being read, or read and
    /// remembered without their headers).
    var heldCount: Int { progress.count }

    private func wakeIdleWaiters() {
        if readingCount == 0, queueStart >= queue.count {
            let waiters = idleWaiters
            idleWaiters = []
            for waiter in waiters { waiter.resume() }
        }
    }
}
