import Foundation

/// Loads thumbnails through the pipeline: memory cache → disk cache →
/// source (fetch) → decoder (decode, resample, orient) → caches.
///
/// - **One download and one decode per key**, however many cells ask at
///   once: requests for a key already under way join it.
/// - **Priorities**: visible requests are served before prefetching, and a
///   waiting request's priority can be raised or lowered.
/// - **Bounded work**: at most ``Configuration/maximumConcurrentDecodes``
///   decodes (the cores) and ``Configuration/maximumConcurrentDownloads``
///   downloads run at once. Decoding runs on the global executor, never on
///   this actor and never on the caller's thread.
/// - **Scrolling away**: by default a download keeps going when its cell
///   scrolls away (seed 003's choice: scrolling back finds the picture
///   ready); with ``ScrollAwayPolicy/cancel`` the last cancelled request
///   cancels the work.
/// - **Reload and erase** are safe mid-scroll: results of work started
///   before them are never cached.
///
/// Reuse safety (never the wrong photo in a recycled cell) is the
/// surface's half of the contract: see ``ImageBindings``.
public actor ImageLoader {
    /// What happens to work whose every requester went away.
    public enum ScrollAwayPolicy: Sendable, Hashable {
        /// Finish it and cache the result (seed 003).
        case keepDownloading
        /// Cancel it.
        case cancel
    }

    public struct Configuration: Sendable, Hashable {
        public var maximumConcurrentDecodes: Int
        public var maximumConcurrentDownloads: Int
        public var scrollAwayPolicy: ScrollAwayPolicy

        public init(maximumConcurrentDecodes: Int = ProcessInfo.processInfo.activeProcessorCount,
                    maximumConcurrentDownloads: Int = 6, scrollAwayPolicy: ScrollAwayPolicy = .keepDownloading) {
            self.maximumConcurrentDecodes = max(maximumConcurrentDecodes, 1)
            self.maximumConcurrentDownloads = max(maximumConcurrentDownloads, 1)
            self.scrollAwayPolicy = scrollAwayPolicy
        }
    }

    /// Counters for a HUD and for tests.
    public struct Statistics: Sendable, Hashable {
        public init() {}

        public var memoryHits = 0
        public var diskHits = 0
        public var downloads = 0
        public var decodes = 0
        public var failures = 0
        public var cancellations = 0
        /// Keys being loaded now.
        public var jobsInFlight = 0
        public var downloadsInFlight = 0
        public var decodesInFlight = 0
        /// Requests waiting for a download or a decode slot.
        public var downloadsWaiting = 0
        public var decodesWaiting = 0
        public var pendingDiskWrites = 0
    }

    /// Work for one key, shared by everyone who asked for it.
    private final class Job {
        var waiters: [UInt64: CheckedContinuation<Result<LoadedImage, ImageLoadingError>, Never>] = [:]
        var priority: LoadPriority
        var isPrefetch: Bool
        let epoch: Int
        var task: Task<Void, Never>?
        /// Cancelled work stays listed until it winds down; new requests must not join it.
        var isCancelled = false
        let identifier: UInt64

        init(identifier: UInt64, priority: LoadPriority, isPrefetch: Bool, epoch: Int) {
            self.identifier = identifier
            self.priority = priority
            self.isPrefetch = isPrefetch
            self.epoch = epoch
        }
    }

    /// A counted resource handed out by priority, then first come first served.
    private struct Slots {
        var available: Int
        var waiting: [(key: ThumbnailKey, order: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private enum Stage { case download, decode }

    /// What the pipeline produced, and whether it decoded (rather than read
    /// the thumbnail disk cache).
    private struct Output: Sendable {
        var loaded: LoadedImage
        var wasDecoded: Bool
    }

    /// The decoded thumbnails in memory; surfaces may read it directly.
    public nonisolated let memoryCache: MemoryImageCache
    public nonisolated let configuration: Configuration
    private let source: any ImageSource
    private let decoder: any ImageDecoding
    private let diskCache: DiskImageCache?
    private var jobs: [ThumbnailKey: Job] = [:]
    private var downloadSlots: Slots
    private var decodeSlots: Slots
    private var counter: UInt64 = 0
    private var epoch = 0
    private var stats = Statistics()

    /// A loader over `source`, decoding with `decoder` (this platform's
    /// ``PlatformImageDecoder`` unless another is given).
    public init(source: any ImageSource, decoder: any ImageDecoding = PlatformImageDecoder(),
                memoryCache: MemoryImageCache = MemoryImageCache(), diskCache: DiskImageCache? = nil,
                configuration: Configuration = Configuration()) {
        self.source = source
        self.decoder = decoder
        self.memoryCache = memoryCache
        self.diskCache = diskCache
        self.configuration = configuration
        self.downloadSlots = Slots(available: configuration.maximumConcurrentDownloads)
        self.decodeSlots = Slots(available: configuration.maximumConcurrentDecodes)
    }

    // MARK: Requests

    /// The thumbnail for `key`: at once from memory, else when the pipeline
    /// has it. Cancelling the calling task ends this request (and, with the
    /// cancel policy, the work if no one else waits for it).
    public func image(for key: ThumbnailKey, priority: LoadPriority = .visible) async throws(ImageLoadingError) -> LoadedImage {
        if let image = memoryCache.image(for: key) {
            stats.memoryHits += 1
            return LoadedImage(key: key, image: image, origin: .memory)
        }
        counter += 1
        let waiter = counter
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<LoadedImage, ImageLoadingError>, Never>) in
                if Task.isCancelled {
                    continuation.resume(returning: .failure(.cancelled))
                    return
                }
                let job = liveJob(for: key) ?? start(key, priority: priority, isPrefetch: false)
                job.waiters[waiter] = continuation
                job.isPrefetch = false                    // someone waits for it now: the scroll-away policy applies
                if priority > job.priority { job.priority = priority }
            }
        } onCancel: {
            Task { await self.cancelWaiter(waiter, for: key) }
        }
        // A switch rather than `result.get()`: the typed-throws `get()` is newer than the
        // iOS 16 SDK's standard library, which `make check-apple` type-checks against.
        switch result {
        case .success(let loaded): return loaded
        case .failure(let error): throw error
        }
    }

    /// Starts loading `keys` at prefetch priority (those already cached or
    /// under way are left alone). Nothing waits for them; they fill the caches.
    public func prefetch(_ keys: [ThumbnailKey]) {
        for key in keys where liveJob(for: key) == nil && !memoryCache.contains(key) {
            start(key, priority: .prefetch, isPrefetch: true)
        }
    }

    /// Cancels prefetching of every key not in `keep` that no one waits for.
    public func cancelPrefetching(except keep: Set<ThumbnailKey> = []) {
        for (key, job) in jobs where job.isPrefetch && job.waiters.isEmpty && !keep.contains(key) {
            job.isCancelled = true
            job.task?.cancel()
        }
    }

    /// Raises or lowers the priority of work under way for `key`.
    public func setPriority(_ priority: LoadPriority, for key: ThumbnailKey) {
        jobs[key]?.priority = priority
    }

    /// Forgets every download and cached thumbnail, so every picture loads
    /// again; work under way finishes for its waiters but is not cached.
    public func reloadAll() async {
        epoch += 1
        memoryCache.removeAll()
        await diskCache?.removeAll()
        if let resettable = source as? any ResettableImageSource { await resettable.reloadAll() }
    }

    /// Erases everything: caches, the source's downloads and list. Work
    /// under way fails (the source reports it erased) and is not cached.
    public func eraseAll() async {
        epoch += 1
        memoryCache.removeAll()
        await diskCache?.removeAll()
        if let resettable = source as? any ResettableImageSource { await resettable.eraseAll() }
    }

    /// The counters.
    public var statistics: Statistics {
        var snapshot = stats
        snapshot.jobsInFlight = jobs.count
        snapshot.downloadsInFlight = configuration.maximumConcurrentDownloads - downloadSlots.available
        snapshot.decodesInFlight = configuration.maximumConcurrentDecodes - decodeSlots.available
        snapshot.downloadsWaiting = downloadSlots.waiting.count
        snapshot.decodesWaiting = decodeSlots.waiting.count
        return snapshot
    }

    /// Waits until no work is under way and no disk write is pending (for
    /// tests, benchmarks and orderly shutdown).
    public func waitUntilIdle() async {
        while !jobs.isEmpty || stats.pendingDiskWrites > 0 {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }

    // MARK: The pipeline

    /// The work under way for `key`, unless it was cancelled.
    private func liveJob(for key: ThumbnailKey) -> Job? {
        guard let job = jobs[key], !job.isCancelled else { return nil }
        return job
    }

    @discardableResult
    private func start(_ key: ThumbnailKey, priority: LoadPriority, isPrefetch: Bool) -> Job {
        counter += 1
        let identifier = counter
        let job = Job(identifier: identifier, priority: priority, isPrefetch: isPrefetch, epoch: epoch)
        jobs[key] = job
        job.task = Task.detached(priority: priority == .visible ? .userInitiated : .utility) {
            let result = await self.run(key)
            await self.finish(key, job: identifier, result: result)
        }
        return job
    }

    /// Everything between the memory cache and the result. Runs off the actor.
    private nonisolated func run(_ key: ThumbnailKey) async -> Result<Output, ImageLoadingError> {
        if let diskCache, let image = await diskCache.image(for: key) {
            return .success(Output(loaded: LoadedImage(key: key, image: image, origin: .disk), wasDecoded: false))
        }
        guard await acquire(.download, for: key) else { return .failure(.cancelled) }
        let local = await source.isStoredLocally(key.id)
        let fetched: Result<Data, ImageSourceError>
        do {
            fetched = .success(try await source.data(for: key.id))
        } catch {
            fetched = .failure(error)
        }
        await release(.download)
        let data: Data
        switch fetched {
        case .success(let bytes): data = bytes
        case .failure(let error): return .failure(error == .cancelled ? .cancelled : .source(error))
        }
        guard await acquire(.decode, for: key) else { return .failure(.cancelled) }
        let decoded: Result<DecodedThumbnail, ImageDecodingError>
        do throws(ImageDecodingError) {
            decoded = .success(try decoder.thumbnail(from: data, size: key.size))
        } catch {
            decoded = .failure(error)
        }
        await release(.decode)
        switch decoded {
        case .success(let thumbnail):
            let loaded = LoadedImage(key: key, image: thumbnail.image, origin: local ? .disk : .network)
            return .success(Output(loaded: loaded, wasDecoded: true))
        case .failure(let error):
            return .failure(.decoding(error))
        }
    }

    private func finish(_ key: ThumbnailKey, job identifier: UInt64, result: Result<Output, ImageLoadingError>) {
        guard let job = jobs[key], job.identifier == identifier else { return }
        jobs[key] = nil
        switch result {
        case .success(let output):
            if output.wasDecoded {
                stats.decodes += 1
                if output.loaded.origin == .network { stats.downloads += 1 }
            } else {
                stats.diskHits += 1
            }
            if job.epoch == epoch {
                memoryCache.insert(output.loaded.image, for: key)
                if let diskCache, output.wasDecoded {
                    stats.pendingDiskWrites += 1
                    let jobEpoch = job.epoch, image = output.loaded.image
                    Task.detached(priority: .utility) {
                        let generation = await diskCache.generation
                        if await self.isCurrent(jobEpoch) {
                            await diskCache.store(image, for: key, generation: generation)
                        }
                        await self.diskWriteFinished()
                    }
                }
            }
        case .failure(.cancelled):
            stats.cancellations += 1
        case .failure:
            stats.failures += 1
        }
        let delivered = result.map(\.loaded)
        for continuation in job.waiters.values { continuation.resume(returning: delivered) }
        job.waiters.removeAll()
    }

    private func isCurrent(_ jobEpoch: Int) -> Bool { jobEpoch == epoch }

    private func diskWriteFinished() { stats.pendingDiskWrites -= 1 }

    private func cancelWaiter(_ waiter: UInt64, for key: ThumbnailKey) {
        guard let job = jobs[key], let continuation = job.waiters.removeValue(forKey: waiter) else { return }
        continuation.resume(returning: .failure(.cancelled))
        if job.waiters.isEmpty, !job.isPrefetch, configuration.scrollAwayPolicy == .cancel {
            job.isCancelled = true
            job.task?.cancel()
        }
    }

    // MARK: Slots

    /// Waits for a slot of `stage`; `false` if the work was cancelled meanwhile.
    private func acquire(_ stage: Stage, for key: ThumbnailKey) async -> Bool {
        if slots(stage).available > 0 {
            modifySlots(stage) { $0.available -= 1 }
        } else {
            counter += 1
            let order = counter
            await withCheckedContinuation { continuation in
                modifySlots(stage) { $0.waiting.append((key, order, continuation)) }
            }
        }
        if Task.isCancelled {
            release(stage)
            return false
        }
        return true
    }

    /// Hands the slot to the most urgent waiter (then the oldest), or frees it.
    private func release(_ stage: Stage) {
        var pool = slots(stage)
        if pool.waiting.isEmpty {
            pool.available += 1
            setSlots(stage, pool)
            return
        }
        var best = 0
        for index in pool.waiting.indices.dropFirst() {
            let candidate = pool.waiting[index], current = pool.waiting[best]
            let p = jobs[candidate.key]?.priority ?? .prefetch, q = jobs[current.key]?.priority ?? .prefetch
            if p > q || (p == q && candidate.order < current.order) { best = index }
        }
        let next = pool.waiting.remove(at: best)
        setSlots(stage, pool)
        next.continuation.resume()
    }

    private func slots(_ stage: Stage) -> Slots { stage == .download ? downloadSlots : decodeSlots }
    private func setSlots(_ stage: Stage, _ value: Slots) {
        if stage == .download { downloadSlots = value } else { decodeSlots = value }
    }
    private func modifySlots(_ stage: Stage, _ body: (inout Slots) -> Void) {
        if stage == .download { body(&downloadSlots) } else { body(&decodeSlots) }
    }
}
