import Foundation

/// Loads thumbnails through the pipeline: memory cache → disk cache →
/// source (fetch) → decoder (decode, resample, orient) → caches.
///
/// - **One download and one decode per key**, however many cells ask at
///   once: requests for a key already under way join it.
/// - **Loading follows the viewport.** Every piece of work has a
///   ``LoadPriority`` (its viewport range, then its distance), which a
///   surface updates as the user scrolls with ``follow(_:)``. Work waiting
///   for a download or a decode is always served most urgent first, so
///   what is on screen never waits behind what the user scrolled past.
/// - **Bounded work**: at most ``Configuration/maximumConcurrentDecodes``
///   decodes run at once (one per core for urgent work, one fewer for the
///   rest), on the pipeline's own decoding threads at low priority: never
///   on the caller's thread, never on Swift's cooperative pool. At most
///   ``Configuration/maximumConcurrentDownloads`` downloads run for work
///   that is not urgent; urgent work (on screen, or where a fling lands)
///   never waits for a download slot, as browsers never hold back the
///   requests a page needs to show (Chromium's resource scheduler limits
///   only "delayable" requests): its number is bounded by what fits on two
///   screens, and a latency-bound source then fills a screen in one
///   round trip.
/// - **Scrolling away**: by default work whose item left every range
///   keeps going at the lowest priority (RolfHendriks' UICollectionView-Demo's choice: scrolling back
///   finds the picture ready); with ``ScrollAwayPolicy/cancel`` it is
///   cancelled once no one waits for it.
/// - **Reload and erase** are safe mid-scroll: results of work started
///   before them are never cached.
///
/// Reuse safety (never the wrong photo in a recycled cell) is the
/// surface's half of the contract: see ``ImageBindingTable``.
public actor ImageLoader {
    /// What happens to work whose item left every range.
    public enum ScrollAwayPolicy: Sendable, Hashable {
        /// Finish it at the lowest priority and cache the result (RolfHendriks' UICollectionView-Demo).
        case keepDownloading
        /// Cancel it, once no request waits for it.
        case cancel
    }

    /// In which order waiting work is served.
    public enum Ordering: Sendable, Hashable {
        /// Most urgent first, then oldest first; urgent work never waits
        /// for a download slot. The default.
        case priority
        /// Oldest first, whatever the priority, and every download waits
        /// for a slot: a plain first-come-first-served queue, the baseline
        /// the session benchmark compares against.
        case arrival
    }

    /// How much work runs at once, and in which order.
    public struct Configuration: Sendable, Hashable {
        /// Decodes at once for urgent work (on screen, or where a fling
        /// lands): by default one per core, on the pipeline's decoding
        /// threads, which run at low priority so a render loop at normal
        /// priority takes its core back whenever it has a frame to draw.
        public var maximumConcurrentDecodes: Int
        /// Decodes at once for work that is not urgent: by default one
        /// fewer than the cores (at least one), so preloading never takes
        /// the render loop's core.
        public var maximumConcurrentBackgroundDecodes: Int
        /// Downloads at once for work that is not urgent (6 by default,
        /// the per-host connection limit of HTTP/1.1 clients). Urgent work
        /// is not counted unless ``ordering`` is ``Ordering/arrival``.
        public var maximumConcurrentDownloads: Int
        /// What happens to work whose item left every range.
        public var scrollAwayPolicy: ScrollAwayPolicy
        /// In which order waiting work is served.
        public var ordering: Ordering

        /// A configuration; counts below 1 are raised to 1.
        public init(maximumConcurrentDecodes: Int = ProcessInfo.processInfo.activeProcessorCount,
                    maximumConcurrentBackgroundDecodes: Int? = nil,
                    maximumConcurrentDownloads: Int = 6, scrollAwayPolicy: ScrollAwayPolicy = .keepDownloading,
                    ordering: Ordering = .priority) {
            self.maximumConcurrentDecodes = max(maximumConcurrentDecodes, 1)
            self.maximumConcurrentBackgroundDecodes = min(max(maximumConcurrentBackgroundDecodes ?? (self.maximumConcurrentDecodes - 1), 1),
                                                          self.maximumConcurrentDecodes)
            self.maximumConcurrentDownloads = max(maximumConcurrentDownloads, 1)
            self.scrollAwayPolicy = scrollAwayPolicy
            self.ordering = ordering
        }
    }

    /// Counters for a diagnostics overlay (a HUD) or logs: what the loader
    /// has done so far, and what it is doing now.
    public struct Statistics: Sendable, Hashable {
        /// Every counter at zero.
        public init() {}

        /// Requests answered from the memory cache.
        public var memoryHits = 0
        /// Loads answered from the thumbnail disk cache.
        public var diskHits = 0
        /// Pictures fetched from a source that did not have them stored locally.
        public var downloads = 0
        /// Thumbnails decoded.
        public var decodes = 0
        /// Loads that failed (other than by cancellation).
        public var failures = 0
        /// Loads cancelled.
        public var cancellations = 0
        /// Keys being loaded now.
        public var jobsInFlight = 0
        /// Downloads running now, urgent ones included.
        public var downloadsInFlight = 0
        /// Decodes running now.
        public var decodesInFlight = 0
        /// Loads waiting for a download slot.
        public var downloadsWaiting = 0
        /// Loads waiting for a decode slot.
        public var decodesWaiting = 0
        /// Thumbnails on their way to the disk cache.
        public var pendingDiskWrites = 0
    }

    /// Work for one key, shared by everyone who asked for it.
    private final class Job {
        var waiters: [UInt64: CheckedContinuation<Result<LoadedImage, ImageLoadingError>, Never>] = [:]
        var priority: LoadPriority
        let epoch: Int
        var task: Task<Void, Never>?
        /// Cancelled work stays listed until it winds down; new requests must not join it.
        var isCancelled = false
        /// Unique, and increasing with the time the job was created.
        let identifier: UInt64

        init(identifier: UInt64, priority: LoadPriority, epoch: Int) {
            self.identifier = identifier
            self.priority = priority
            self.epoch = epoch
        }
    }

    /// How a job holds a download or decode slot: as urgent work (counted
    /// against the stage's whole limit only) or as background work
    /// (counted against the background limit too).
    private enum Grant: Sendable { case urgent, background }

    /// A stage's slots, with some kept for urgent work: background work may
    /// hold at most `backgroundLimit` of the `limit`.
    private struct Slots {
        var limit: Int
        var backgroundLimit: Int
        var running = 0
        var backgroundRunning = 0
        var waiting: [(key: ThumbnailKey, job: UInt64, continuation: CheckedContinuation<Grant?, Never>)] = []

        /// What work of this urgency may take now, if anything.
        func grant(urgent: Bool) -> Grant? {
            guard running < limit else { return nil }
            if urgent { return .urgent }
            return backgroundRunning < backgroundLimit ? .background : nil
        }

        mutating func take(_ grant: Grant) {
            running += 1
            if grant == .background { backgroundRunning += 1 }
        }

        mutating func give(_ grant: Grant) {
            running -= 1
            if grant == .background { backgroundRunning -= 1 }
        }
    }

    private enum Stage { case download, decode }

    /// What the pipeline produced, and whether it decoded (rather than read
    /// the thumbnail disk cache).
    private struct Output: Sendable {
        var loaded: LoadedImage
        var wasDecoded: Bool
        /// The picture's fingerprint when the disk cache may keep the thumbnail.
        var fingerprint: String?
    }

    /// The decoded thumbnails in memory; surfaces may read it directly.
    public nonisolated let memoryCache: MemoryImageCache
    /// How much runs at once, and in which order.
    public nonisolated let configuration: Configuration
    private let source: any ImageSource
    private let decoder: any ImageDecoding
    private let diskCache: DiskImageCache?
    private var jobs: [ThumbnailKey: Job] = [:]
    /// Cancelled jobs that a new job for the same key replaced in `jobs`
    /// while their tasks were still winding down, by identifier: the loader
    /// is idle only once they end, and a late success of theirs is kept.
    private var windingDown: [UInt64: Job] = [:]
    private var downloadSlots: Slots
    private var decodeSlots: Slots
    private var counter: UInt64 = 0
    private var epoch = 0
    private var stats = Statistics()
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    private var observers: [(condition: @Sendable (Statistics) -> Bool, continuation: CheckedContinuation<Statistics, Never>)] = []
    private nonisolated let loadTime = Locked<Double?>(nil)
    /// Starts a stopwatch on the loader's clock; calling what it returns reads it.
    private nonisolated let startStopwatch: @Sendable () -> @Sendable () -> Duration

    /// A loader over `source`, decoding with `decoder` (this platform's
    /// ``PlatformImageDecoder`` unless another is given), timing its loads
    /// on `clock` (a test may pass a manual one).
    public init(source: any ImageSource, decoder: any ImageDecoding = PlatformImageDecoder(),
                memoryCache: MemoryImageCache = MemoryImageCache(), diskCache: DiskImageCache? = nil,
                configuration: Configuration = Configuration(), clock: any Clock<Duration> = ContinuousClock()) {
        self.startStopwatch = Self.stopwatch(on: clock)
        self.source = source
        self.decoder = decoder
        self.memoryCache = memoryCache
        self.diskCache = diskCache
        self.configuration = configuration
        switch configuration.ordering {
        case .priority:
            downloadSlots = Slots(limit: .max, backgroundLimit: configuration.maximumConcurrentDownloads)
            decodeSlots = Slots(limit: configuration.maximumConcurrentDecodes,
                                backgroundLimit: configuration.maximumConcurrentBackgroundDecodes)
        case .arrival:
            downloadSlots = Slots(limit: configuration.maximumConcurrentDownloads,
                                  backgroundLimit: configuration.maximumConcurrentDownloads)
            decodeSlots = Slots(limit: configuration.maximumConcurrentDecodes, backgroundLimit: configuration.maximumConcurrentDecodes)
        }
    }

    // MARK: Requests

    /// The thumbnail for `key`: at once from memory, else when the pipeline
    /// has it. Cancelling the calling task ends this request (and, with the
    /// cancel policy, the work if no one else waits for it). Joining work
    /// under way raises its priority to `priority` if that is more urgent.
    public func image(for key: ThumbnailKey, priority: LoadPriority = .visible) async throws(ImageLoadingError) -> LoadedImage {
        if let image = memoryCache.image(for: key) {
            stats.memoryHits += 1
            didChange()
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
                let job = liveJob(for: key) ?? start(key, priority: priority)
                job.waiters[waiter] = continuation
                if priority > job.priority { reprioritize(job, for: key, to: priority) }
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
            start(key, priority: .prefetch)
        }
    }

    /// Makes the work under way follow `plan`, a surface's ranges for its
    /// viewport as it is now:
    /// - work for a planned key takes the plan's priority (more urgent or
    ///   less: the plan is the truth), and planned keys that are neither
    ///   cached nor under way start loading (all but ``LoadPriority/Range/outside``);
    /// - work for a key the plan leaves out, or puts outside, that no
    ///   request waits for, drops to ``LoadPriority/outside``, or is
    ///   cancelled under ``ScrollAwayPolicy/cancel``.
    ///
    /// Call it when the viewport moves into new items or a fling starts or
    /// stops, not necessarily every frame.
    ///
    /// Complexity: O(plan entries + work under way).
    public func follow(_ plan: LoadPlan) {
        var planned: [ThumbnailKey: LoadPriority] = [:]
        planned.reserveCapacity(plan.entries.count)
        for entry in plan.entries {
            // A key planned twice (two items showing one photo) takes its most urgent priority.
            if let other = planned[entry.key], other >= entry.priority { continue }
            planned[entry.key] = entry.priority
        }
        // Most urgent first: jobs start (and reach the disk cache and the I/O threads) in this order.
        for (key, priority) in planned.sorted(by: { $0.value > $1.value }) {
            if let job = liveJob(for: key) {
                if job.priority != priority { reprioritize(job, for: key, to: priority) }
            } else if priority.range != .outside, !memoryCache.contains(key) {
                start(key, priority: priority)
            }
        }
        for (key, job) in jobs where !job.isCancelled && job.waiters.isEmpty {
            let priority = planned[key] ?? .outside
            guard priority.range == .outside else { continue }
            if configuration.scrollAwayPolicy == .cancel {
                cancel(job, for: key)
            } else if job.priority != priority {
                reprioritize(job, for: key, to: priority)
            }
        }
    }

    /// Sets the priority of work under way for `key`.
    public func setPriority(_ priority: LoadPriority, for key: ThumbnailKey) {
        guard let job = liveJob(for: key) else { return }
        reprioritize(job, for: key, to: priority)
    }

    /// The priority of the work under way for `key`, if any.
    public func priority(for key: ThumbnailKey) -> LoadPriority? { liveJob(for: key)?.priority }

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
        snapshot.downloadsInFlight = downloadSlots.running
        snapshot.decodesInFlight = decodeSlots.running
        snapshot.downloadsWaiting = downloadSlots.waiting.count
        snapshot.decodesWaiting = decodeSlots.waiting.count
        return snapshot
    }

    /// How long a load has typically taken lately, from its fetch starting
    /// to its thumbnail decoded (slot waits left out): an exponentially
    /// weighted mean, `nil` before the first load. A surface uses it to
    /// tell which tiles a fling carries past too fast to be shown.
    public nonisolated var typicalLoadTime: Duration? {
        loadTime.withLock { $0 }.map { .seconds($0) }
    }

    /// Returns once no work is under way and no disk write is pending. Await
    /// it before an app quits so that thumbnails on their way to the disk
    /// cache land there, or before measuring something that should start
    /// from a quiet pipeline.
    public func waitUntilIdle() async {
        guard !isIdle else { return }
        await withCheckedContinuation { idleWaiters.append($0) }
    }

    /// Returns the counters as soon as they satisfy `condition`: a test's
    /// way to wait for a state ("five loads waiting for a decode") without
    /// sleeping or polling.
    func statistics(when condition: @escaping @Sendable (Statistics) -> Bool) async -> Statistics {
        let now = statistics
        if condition(now) { return now }
        return await withCheckedContinuation { observers.append((condition, $0)) }
    }

    /// Resumes the observers whose condition now holds. Called after every
    /// change to the counters; free when no one observes.
    private func didChange() {
        guard !observers.isEmpty else { return }
        let now = statistics
        observers.removeAll { observer in
            guard observer.condition(now) else { return false }
            observer.continuation.resume(returning: now)
            return true
        }
    }

    // MARK: The pipeline

    private var isIdle: Bool { jobs.isEmpty && windingDown.isEmpty && stats.pendingDiskWrites == 0 }

    private func resumeIdleWaitersIfIdle() {
        didChange()
        guard isIdle, !idleWaiters.isEmpty else { return }
        let waiters = idleWaiters
        idleWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }

    /// The work under way for `key`, unless it was cancelled.
    private func liveJob(for key: ThumbnailKey) -> Job? {
        guard let job = jobs[key], !job.isCancelled else { return nil }
        return job
    }

    @discardableResult
    private func start(_ key: ThumbnailKey, priority: LoadPriority) -> Job {
        counter += 1
        let identifier = counter
        let job = Job(identifier: identifier, priority: priority, epoch: epoch)
        if let replaced = jobs[key] { windingDown[replaced.identifier] = replaced }
        jobs[key] = job
        job.task = Task.detached(priority: priority.isUrgent ? .userInitiated : .utility) {
            let result = await self.run(key, job: identifier)
            await self.finish(key, job: identifier, result: result)
        }
        didChange()
        return job
    }

    private func reprioritize(_ job: Job, for key: ThumbnailKey, to priority: LoadPriority) {
        let wasUrgent = job.priority.isUrgent
        job.priority = priority
        guard priority.isUrgent, !wasUrgent else { return }
        // Work that became urgent runs at the priority urgent work starts with (the slot queues
        // already order it by `job.priority`; this makes the task's own hops as prompt), and may
        // take a slot kept for urgent work now.
        job.task.map(Self.escalate)
        pump(.download)
        pump(.decode)
    }

    /// Raises a job's task to the priority urgent work is created with.
    /// Task priority escalation is new in Swift 6.2's runtime; the Apple
    /// SDKs this package supports predate it, so there the slot queues'
    /// ordering is all the escalation there is.
    private static func escalate(_ task: Task<Void, Never>) {
        #if !canImport(Darwin)
        task.escalatePriority(to: .userInitiated)
        #endif
    }

    private func cancel(_ job: Job, for key: ThumbnailKey) {
        job.isCancelled = true
        job.task?.cancel()
        // Work waiting for a slot leaves the queue at once rather than waiting for its turn to give it up.
        for stage in [Stage.download, .decode] {
            modifySlots(stage) { slots in
                if let index = slots.waiting.firstIndex(where: { $0.job == job.identifier }) {
                    slots.waiting.remove(at: index).continuation.resume(returning: nil)
                }
            }
        }
    }

    /// Everything between the memory cache and the result. Runs off the actor.
    private nonisolated func run(_ key: ThumbnailKey, job: UInt64) async -> Result<Output, ImageLoadingError> {
        let local = await source.isStoredLocally(key.id)
        var grant: Grant?
        // The disk cache serves a thumbnail only of the picture as it is now; a source that cannot tell
        // its version (no fingerprint) goes without it. Where asking is a request of its own (an HTTP
        // HEAD), it takes the download slot the download would take, and keeps it for that.
        var fingerprint: String?
        if let diskCache {
            if !local, source.fingerprintNeedsRequest {
                guard let downloadGrant = await acquire(.download, for: key, job: job) else { return .failure(.cancelled) }
                grant = downloadGrant
            }
            fingerprint = await source.fingerprint(for: key.id)
            if let fingerprint, let image = await diskCache.image(for: key, fingerprint: fingerprint) {
                if let grant { await release(.download, grant) }
                return .success(Output(loaded: LoadedImage(key: key, image: image, origin: .disk), wasDecoded: false,
                                       fingerprint: fingerprint))
            }
        }
        let downloadGrant: Grant
        if let grant {
            downloadGrant = grant
        } else {
            guard let acquired = await acquire(.download, for: key, job: job) else { return .failure(.cancelled) }
            downloadGrant = acquired
        }
        let fetchTime = startStopwatch()
        let fetched: Result<(data: Data, fingerprint: String?), ImageSourceError>
        do throws(ImageSourceError) {
            fetched = .success(try await source.versionedData(for: key.id))
        } catch {
            fetched = .failure(error)
        }
        let fetchDuration = fetchTime()
        await release(.download, downloadGrant)
        let data: Data
        switch fetched {
        case .success(let answer):
            data = answer.data
            // The thumbnail is filed under the version of the bytes it is made from.
            if diskCache != nil, let exact = answer.fingerprint { fingerprint = exact }
        case .failure(let error):
            return .failure(error == .cancelled ? .cancelled : .source(error))
        }
        guard let decodeGrant = await acquire(.decode, for: key, job: job) else { return .failure(.cancelled) }
        let decoder = self.decoder
        let decodeTime = startStopwatch()
        let decoded = await BlockingWorkQueue.decoding.run { () -> Result<DecodedThumbnail, ImageDecodingError> in
            do throws(ImageDecodingError) {
                return .success(try decoder.thumbnail(from: data, size: key.size))
            } catch {
                return .failure(error)
            }
        }
        recordLoadTime(fetchDuration + decodeTime())
        await release(.decode, decodeGrant)
        switch decoded {
        case .success(let thumbnail):
            let loaded = LoadedImage(key: key, image: thumbnail.image, origin: local ? .disk : .network)
            return .success(Output(loaded: loaded, wasDecoded: true, fingerprint: fingerprint))
        case .failure(let error):
            return .failure(.decoding(error))
        }
    }

    private static func stopwatch<C: Clock>(on clock: C) -> @Sendable () -> @Sendable () -> Duration where C.Duration == Duration {
        {
            let start = clock.now
            return { start.duration(to: clock.now) }
        }
    }

    private nonisolated func recordLoadTime(_ duration: Duration) {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        loadTime.withLock { mean in mean = mean.map { $0 + 0.2 * (seconds - $0) } ?? seconds }
    }

    private func finish(_ key: ThumbnailKey, job identifier: UInt64, result: Result<Output, ImageLoadingError>) {
        defer { resumeIdleWaitersIfIdle() }
        let job: Job
        if let current = jobs[key], current.identifier == identifier {
            job = current
            jobs[key] = nil
        } else if let replaced = windingDown.removeValue(forKey: identifier) {
            job = replaced
        } else {
            return
        }
        record(result, of: job, for: key)
        var waiters = Array(job.waiters.values)
        job.waiters.removeAll()
        // A cancelled job that finished anyway still serves whoever asks now: the job that replaced
        // it ends with this result instead of fetching and decoding the same picture again.
        if case .success = result, job.epoch == epoch, let successor = jobs[key], successor !== job,
           !successor.isCancelled {
            waiters += successor.waiters.values
            successor.waiters.removeAll()
            cancel(successor, for: key)
            jobs[key] = nil
            windingDown[successor.identifier] = successor
        }
        let delivered = result.map(\.loaded)
        for continuation in waiters { continuation.resume(returning: delivered) }
    }

    /// Counts a job's result and keeps a current one in the caches.
    private func record(_ result: Result<Output, ImageLoadingError>, of job: Job, for key: ThumbnailKey) {
        switch result {
        case .success(let output):
            if output.wasDecoded {
                stats.decodes += 1
                if output.loaded.origin == .network { stats.downloads += 1 }
            } else {
                stats.diskHits += 1
            }
            guard job.epoch == epoch else { return }
            memoryCache.insert(output.loaded.image, for: key)
            if let diskCache, output.wasDecoded, let fingerprint = output.fingerprint {
                stats.pendingDiskWrites += 1
                let jobEpoch = job.epoch, image = output.loaded.image, generation = diskCache.generation
                Task.detached(priority: .utility) {
                    if await self.isCurrent(jobEpoch) {
                        await diskCache.store(image, for: key, fingerprint: fingerprint, generation: generation)
                    }
                    await self.diskWriteFinished()
                }
            }
        case .failure(.cancelled):
            stats.cancellations += 1
        case .failure:
            stats.failures += 1
        }
    }

    private func isCurrent(_ jobEpoch: Int) -> Bool { jobEpoch == epoch }

    private func diskWriteFinished() {
        stats.pendingDiskWrites -= 1
        resumeIdleWaitersIfIdle()
    }

    private func cancelWaiter(_ waiter: UInt64, for key: ThumbnailKey) {
        guard let job = jobs[key], let continuation = job.waiters.removeValue(forKey: waiter) else { return }
        continuation.resume(returning: .failure(.cancelled))
        // Under the cancel policy the last request going away ends the work, unless a plan put it in a
        // range that still wants it (behind, ahead, landing): the plan decides about those.
        if job.waiters.isEmpty, configuration.scrollAwayPolicy == .cancel, !job.isCancelled,
           job.priority.range == .visible || job.priority.range == .outside {
            cancel(job, for: key)
        }
    }

    // MARK: Slots

    /// Whether `job`'s work counts as urgent against a stage's limits.
    private func isUrgent(_ key: ThumbnailKey, job: UInt64) -> Bool {
        guard configuration.ordering == .priority else { return true }      // one plain limit for everything
        guard let current = jobs[key], current.identifier == job else { return false }
        return current.priority.isUrgent
    }

    /// Waits for a slot of `stage`; `nil` if the work was cancelled meanwhile.
    private func acquire(_ stage: Stage, for key: ThumbnailKey, job: UInt64) async -> Grant? {
        if Task.isCancelled { return nil }
        let grant: Grant?
        if slots(stage).waiting.isEmpty || isUrgent(key, job: job),
           let ready = slots(stage).grant(urgent: isUrgent(key, job: job)) {
            modifySlots(stage) { $0.take(ready) }
            grant = ready
        } else {
            grant = await withCheckedContinuation { continuation in
                modifySlots(stage) { $0.waiting.append((key, job, continuation)) }
            }
        }
        guard let grant else { return nil }
        if Task.isCancelled {
            release(stage, grant)
            return nil
        }
        return grant
    }

    /// Gives back what `acquire` handed out, and hands out what that frees.
    private func release(_ stage: Stage, _ grant: Grant) {
        modifySlots(stage) { $0.give(grant) }
        pump(stage)
    }

    /// Hands free slots to waiters: the most urgent one that may have a
    /// slot (then the oldest), or the oldest under ``Ordering/arrival``.
    private func pump(_ stage: Stage) {
        while true {
            let pool = slots(stage)
            var best: (index: Int, grant: Grant, priority: LoadPriority)?
            for (index, waiter) in pool.waiting.enumerated() {
                guard let grant = pool.grant(urgent: isUrgent(waiter.key, job: waiter.job)) else { continue }
                let priority = jobs[waiter.key]?.priority ?? .outside
                if let current = best {
                    let better = configuration.ordering == .priority
                        ? priority > current.priority || (priority == current.priority && waiter.job < pool.waiting[current.index].job)
                        : waiter.job < pool.waiting[current.index].job
                    if !better { continue }
                }
                best = (index, grant, priority)
            }
            guard let best else { return }
            var next: (key: ThumbnailKey, job: UInt64, continuation: CheckedContinuation<Grant?, Never>)?
            modifySlots(stage) { slots in
                next = slots.waiting.remove(at: best.index)
                slots.take(best.grant)
            }
            next?.continuation.resume(returning: best.grant)
        }
    }

    private func slots(_ stage: Stage) -> Slots { stage == .download ? downloadSlots : decodeSlots }
    private func modifySlots(_ stage: Stage, _ body: (inout Slots) -> Void) {
        if stage == .download { body(&downloadSlots) } else { body(&decodeSlots) }
        didChange()
    }
}
