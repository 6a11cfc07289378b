import Foundation

// One file over 400 lines: the actor's public API, its request merging, the glue that hands jobs to the
// stage limiters and the checks of kept thumbnails (which start jobs and take slots like any request)
// share the actor's private state (the job table, the limiters, the epoch); split further, that state
// would need wider access than the concept should give it. What can stand alone does, in its own file:
// the job table, the limiters, the pipeline, the checks' bookkeeping (`KeptThumbnailChecks`).

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
///   rest), on the pipeline's own decoding threads (urgent work at normal
///   priority, the rest at low priority): never on the caller's thread,
///   never on Swift's cooperative pool. At most
///   ``Configuration/maximumConcurrentDownloads`` downloads run for work
///   that is not urgent; urgent work (on screen, or where a fling lands)
///   passes them, as browsers never hold back the requests a page needs
///   to show (Chromium's resource scheduler limits only "delayable"
///   requests), so a latency-bound source fills a screen in one round
///   trip. All downloads together stop at
///   ``Configuration/maximumConcurrentUrgentDownloads``: a download keeps
///   its slot, and its whole photo, until a decode takes it, so photos
///   read faster than they are decoded never pile up in memory.
/// - **Scrolling away**: by default work whose item left every range
///   keeps going at the lowest priority (RolfHendriks' UICollectionView-Demo's choice: scrolling back
///   finds the picture ready); with ``ScrollAwayPolicy/cancel`` it is
///   cancelled once no one waits for it.
/// - **Reload and erase** are safe mid-scroll: results of work started
///   before them are never cached.
/// - **Photos on a server show their kept thumbnails at once**: a
///   thumbnail the disk cache kept is shown before the photo's version is
///   asked (a request each), then checked at the lowest priority; one
///   found out of date is loaded again and replaces the old one under
///   whoever shows it (``replacedThumbnails()``, which `ImageRequester`
///   follows). See ``KeptThumbnailCheck``.
///
/// Reuse safety (never the wrong photo in a recycled cell) is the
/// surface's half of the contract: see ``ImageBindingTable``.
///
/// How it is built: as Nuke splits its pipeline, each concept has one
/// owner; the actor holds the public API and request merging, and composes:
/// - `LoadJobTable` and `LoadJob`: the work for each key and the requests
///   waiting for it (merging, cancellation when the last request leaves);
/// - `StageLimiter`, one per stage: the download and decode slots, whose
///   waiters wait in priority queues (a grant, a cancellation or a change
///   of priority costs O(log n), never a rescan of every waiter);
/// - `LoadPipeline`: disk cache → fetch → decode as small functions, run
///   off the actor in each job's task;
/// - ``Statistics`` and `LoaderObservers`: the counters and who waits on
///   them (or for the loader to be idle); `LoadTimeAverage`: the typical
///   load time.
public actor ImageLoader {
    /// The decoded thumbnails in memory; surfaces may read it directly.
    public nonisolated let memoryCache: MemoryImageCache
    /// The photos' previews (their ThumbHashes and the pictures rendered
    /// from them), which surfaces show until a thumbnail arrives: filled by
    /// the app or a source's listing, and by the loader from each photo's
    /// first decoded thumbnail.
    public nonisolated let previews: PreviewStore
    /// How much runs at once, and in which order.
    public nonisolated let configuration: Configuration
    /// Disk cache → fetch → decode; runs in each job's task, off the actor.
    private nonisolated let pipeline: LoadPipeline
    private nonisolated let loadTime = LoadTimeAverage()
    private var jobs = LoadJobTable()
    private var downloadSlots: StageLimiter<CheckedContinuation<SlotGrant?, Never>>
    private var decodeSlots: StageLimiter<CheckedContinuation<SlotGrant?, Never>>
    /// The last identifier handed to a request or a job.
    private var counter: UInt64 = 0
    /// Raised by a reload or an erase: work started before is never cached.
    private var epoch = 0
    /// The counters of what happened; the gauges of what is under way are
    /// read from their owners when a snapshot is taken.
    private var stats = Statistics()
    private var observers = LoaderObservers()
    /// The kept thumbnails shown before their photo's version was asked, and the answers.
    private var checks = KeptThumbnailChecks()
    private nonisolated let replacements = ThumbnailReplacementFeed()
    // Giving memory back (ImageLoader+MemoryPressure.swift): decodes since the last return, and
    // whether one waits for an idle moment.
    var decodesSinceMemoryReturn = 0
    var memoryReturnScheduled = false

    /// A loader over `source`, decoding with `decoder` (this platform's
    /// ``PlatformImageDecoder`` unless another is given), timing its loads
    /// on `clock` (a test may pass a manual one).
    public init(source: any ImageSource, decoder: any ImageDecoding = PlatformImageDecoder(),
                memoryCache: MemoryImageCache = MemoryImageCache(), diskCache: DiskImageCache? = nil,
                previews: PreviewStore = PreviewStore(),
                configuration: Configuration = Configuration(), clock: any Clock<Duration> = ContinuousClock()) {
        pipeline = LoadPipeline(source: source, decoder: decoder, diskCache: diskCache, clock: clock, loadTime: loadTime,
                                previews: configuration.makesPreviews ? previews : nil,
                                keptThumbnailCheck: configuration.keptThumbnailCheck)
        self.memoryCache = memoryCache
        self.previews = previews
        self.configuration = configuration
        let ordering = configuration.ordering
        switch ordering {
        case .priority:
            downloadSlots = StageLimiter(limit: configuration.maximumConcurrentUrgentDownloads,
                                         backgroundLimit: configuration.maximumConcurrentDownloads,
                                         ordering: ordering)
            decodeSlots = StageLimiter(limit: configuration.maximumConcurrentDecodes,
                                       backgroundLimit: configuration.maximumConcurrentBackgroundDecodes, ordering: ordering)
        case .arrival:
            downloadSlots = StageLimiter(limit: configuration.maximumConcurrentDownloads,
                                         backgroundLimit: configuration.maximumConcurrentDownloads, ordering: ordering)
            decodeSlots = StageLimiter(limit: configuration.maximumConcurrentDecodes,
                                       backgroundLimit: configuration.maximumConcurrentDecodes, ordering: ordering)
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
        let request = counter
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: LoadJob.Continuation) in
                if Task.isCancelled {
                    continuation.resume(returning: .failure(.cancelled))
                    return
                }
                let job = jobs.live(for: key) ?? start(key, priority: priority)
                job.addWaiter(request, continuation)
                if priority > job.priority { reprioritize(job, to: priority) }
            }
        } onCancel: {
            Task { await self.cancelRequest(request, for: key) }
        }
        // A switch rather than `result.get()`: the typed-throws `get()` is newer than the
        // iOS 16 SDK's standard library, which `make check-apple` type-checks against.
        switch result {
        case .success(let loaded): return loaded
        case .failure(let error): throw error
        }
    }

    /// A preview of `key`'s photo from the thumbnail its file embeds (a
    /// camera's or phone's, ``EmbeddedThumbnail``), when the source can
    /// read it cheaply and it is at least a quarter of the key's longer
    /// side; `nil` otherwise. Read and decoded on the file threads (a few
    /// kilobytes: it never waits behind the photos' decodes), turned
    /// upright, and filed in ``previews`` (with its hash, for an app to
    /// keep), so the next request for the photo shows it at once.
    ///
    /// A surface asks for it beside the photo itself, and shows it if it
    /// comes first (`ImageRequester` does).
    public nonisolated func embeddedPreview(for key: ThumbnailKey) async -> PixelImage? {
        if let known = previews.image(for: key.id) { return known }
        guard let embedded = await pipeline.source.embeddedThumbnail(for: key.id) else { return nil }
        let decoder = pipeline.decoder, makesHash = configuration.makesPreviews
        let picture = embedded.isWholeFile
            // A HEIF thumbnail item is a real decode (HEVC, a few milliseconds): on the decoding threads.
            ? await BlockingWorkQueue.decoding.run(urgent: true) { try? decoder.embeddedThumbnail(in: embedded.data) }
            : await BlockingWorkQueue.fileIO.run { () -> PixelImage? in
            // At its own size (a few hundred pixels at most), then turned upright by the photo's orientation:
            // the thumbnail has no Exif of its own.
            guard let header = try? ImageHeader.read(from: embedded.data), max(header.width, header.height) <= 1_024,
                  let size = try? ThumbnailSize(width: header.width, height: header.height, mode: .fit),
                  let decoded = try? decoder.thumbnail(from: embedded.data, size: size).image else { return nil }
            return embedded.orientation.apply(to: decoded)
        }
        guard let picture, 4 * max(picture.width, picture.height) >= max(key.size.width, key.size.height) else { return nil }
        previews.insertPicture(picture, for: key.id, makingHash: makesHash)
        return picture
    }

    /// Starts loading `keys` at prefetch priority (those already cached or
    /// under way are left alone). Nothing waits for them; they fill the caches.
    public func prefetch(_ keys: [ThumbnailKey]) {
        for key in keys where jobs.live(for: key) == nil && !memoryCache.contains(key) {
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
    /// Complexity: O(plan entries + work under way), times O(log n) in the
    /// work waiting for each job whose priority changes (it is re-ranked
    /// where it waits).
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
            if let job = jobs.live(for: key) {
                if job.priority != priority { reprioritize(job, to: priority) }
            } else if priority.range != .outside, !memoryCache.contains(key) {
                start(key, priority: priority)
            }
        }
        for (key, job) in jobs.current where !job.isCancelled && job.hasNoWaiters {
            let priority = planned[key] ?? .outside
            guard priority.range == .outside else { continue }
            if configuration.scrollAwayPolicy == .cancel {
                cancel(job)
            } else if job.priority != priority {
                reprioritize(job, to: priority)
            }
        }
    }

    /// Sets the priority of work under way for `key`.
    public func setPriority(_ priority: LoadPriority, for key: ThumbnailKey) {
        guard let job = jobs.live(for: key) else { return }
        reprioritize(job, to: priority)
    }

    /// The priority of the work under way for `key`, if any.
    public func priority(for key: ThumbnailKey) -> LoadPriority? { jobs.live(for: key)?.priority }

    /// The keys whose thumbnail the loader replaced from now on: a kept
    /// thumbnail of a photo on a server, shown before its version was
    /// asked, that the answer found out of date (``KeptThumbnailCheck``).
    /// The new thumbnail is in ``memoryCache`` when its key comes; a
    /// surface shows it wherever it shows the key's old one
    /// (`ImageRequester` does). Each call is a new subscriber; the stream
    /// ends when its consumer stops listening.
    public nonisolated func replacedThumbnails() -> AsyncStream<ThumbnailKey> {
        replacements.subscribe()
    }

    /// Forgets every download and cached thumbnail, so every picture loads
    /// again; work under way finishes for its waiters but is not cached.
    public func reloadAll() async {
        epoch += 1
        checks.removeAll()
        memoryCache.removeAll()
        await pipeline.diskCache?.removeAll()
        if let resettable = pipeline.source as? any ResettableImageSource { await resettable.reloadAll() }
    }

    /// Erases everything: caches, previews, the source's downloads and
    /// list. Work under way fails (the source reports it erased) and is
    /// not cached.
    public func eraseAll() async {
        epoch += 1
        checks.removeAll()
        memoryCache.removeAll()
        previews.removeAll()
        await pipeline.diskCache?.removeAll()
        if let resettable = pipeline.source as? any ResettableImageSource { await resettable.eraseAll() }
    }

    // MARK: State

    /// The counters.
    public var statistics: Statistics {
        var snapshot = stats
        snapshot.jobsInFlight = jobs.count
        snapshot.downloadsInFlight = downloadSlots.running
        snapshot.decodesInFlight = decodeSlots.running
        snapshot.downloadsWaiting = downloadSlots.waitingCount
        snapshot.decodesWaiting = decodeSlots.waitingCount
        snapshot.keptThumbnailChecksInFlight = checks.pendingCount
        return snapshot
    }

    /// How long a load has typically taken lately, from its fetch starting
    /// to its thumbnail decoded (slot waits left out): an exponentially
    /// weighted mean, `nil` before the first load. A surface uses it to
    /// tell which tiles a fling carries past too fast to be shown.
    public nonisolated var typicalLoadTime: Duration? { loadTime.value }

    /// Returns once no work is under way and no disk write is pending. Await
    /// it before an app quits so that thumbnails on their way to the disk
    /// cache land there, or before measuring something that should start
    /// from a quiet pipeline.
    public func waitUntilIdle() async {
        guard !isIdle else { return }
        await withCheckedContinuation { observers.waitUntilIdle($0) }
    }

    /// Returns the counters as soon as they satisfy `condition`: a test's
    /// way to wait for a state ("five loads waiting for a decode") without
    /// sleeping or polling.
    func statistics(when condition: @escaping @Sendable (Statistics) -> Bool) async -> Statistics {
        let now = statistics
        if condition(now) { return now }
        return await withCheckedContinuation { observers.wait(until: condition, $0) }
    }

    private var isIdle: Bool { jobs.isEmpty && stats.pendingDiskWrites == 0 && checks.pendingCount == 0 }

    /// Resumes the observers whose condition now holds. Called after every
    /// change to the counters; free when no one observes.
    private func didChange() {
        guard observers.watchStatistics else { return }
        observers.statisticsChanged(to: statistics)
    }

    /// `didChange()`, and resumes the idle waiters if work just ended.
    private func didChangeMaybeToIdle() {
        didChange()
        guard isIdle else { return }
        observers.becameIdle()
        scheduleMemoryReturn()
    }

    func returnMemoryIfStillIdle() async {
        memoryReturnScheduled = false
        guard isIdle else { return }                   // busy again: its own idle moment comes
        await returnMemoryToSystem()
    }

    /// Returns the memory the allocator keeps free to the system, on the
    /// file threads' background lane, where the platform allows it.
    func returnMemoryToSystem() async {
        guard FreeMemory.isAvailable else { return }
        decodesSinceMemoryReturn = 0
        await BlockingWorkQueue.fileIO.run(urgent: false) { FreeMemory.returnToSystem() }
        stats.memoryReturns += 1
        didChange()
    }

    // MARK: Jobs

    /// Starts the work for `key`; `version`: the picture's version, just
    /// asked (a kept thumbnail found out of date: the result replaces it).
    @discardableResult
    private func start(_ key: ThumbnailKey, priority: LoadPriority, version: String? = nil) -> LoadJob {
        counter += 1
        let identifier = counter
        let job = LoadJob(identifier: identifier, priority: priority, epoch: epoch)
        job.replacesShownThumbnail = version != nil
        jobs.insert(job, for: key)
        job.task = Task.detached(priority: priority.isUrgent ? .userInitiated : .utility) {
            let result = await self.pipeline.run(key, version: version, slots: JobSlots(loader: self, key: key, job: identifier))
            await self.finish(key, job: identifier, result: result)
        }
        didChange()
        return job
    }

    private func reprioritize(_ job: LoadJob, to priority: LoadPriority) {
        let wasUrgent = job.priority.isUrgent
        job.priority = priority
        downloadSlots.reprioritize(job.identifier, to: priority)
        decodeSlots.reprioritize(job.identifier, to: priority)
        guard priority.isUrgent, !wasUrgent else { return }
        // Work that became urgent runs at the priority urgent work starts with (the slot queues
        // already rank it by its new priority; this makes the task's own hops as prompt), and may
        // take a slot kept for urgent work now.
        job.task.map(Self.escalate)
        grantFreeSlots(.download)
        grantFreeSlots(.decode)
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

    private func cancel(_ job: LoadJob) {
        job.cancel()
        // Work waiting for a slot leaves the queue at once rather than waiting for its turn to give it up.
        for stage in [LoadStage.download, .decode] {
            modifySlots(stage) { $0.remove(job.identifier) }?.resume(returning: nil)
        }
    }

    private func cancelRequest(_ request: UInt64, for key: ThumbnailKey) {
        guard let job = jobs.current[key], let continuation = job.removeWaiter(request) else { return }
        continuation.resume(returning: .failure(.cancelled))
        // Under the cancel policy the last request going away ends the work, unless a plan put it in a
        // range that still wants it (behind, ahead, landing): the plan decides about those.
        if job.hasNoWaiters, configuration.scrollAwayPolicy == .cancel, !job.isCancelled, job.endsWithItsLastRequest {
            cancel(job)
        }
    }

    private func finish(_ key: ThumbnailKey, job identifier: UInt64, result: Result<LoadOutput, ImageLoadingError>) {
        defer { didChangeMaybeToIdle() }
        guard let job = jobs.removeFinished(key, identifier: identifier) else { return }
        record(result, of: job, for: key)
        var waiters = job.takeWaiters()
        // A cancelled job that finished anyway still serves whoever asks now: the job that replaced
        // it ends with this result instead of fetching and decoding the same picture again.
        if case .success = result, job.epoch == epoch, let successor = jobs.live(for: key) {
            waiters += successor.takeWaiters()
            cancel(successor)
            jobs.windDown(key)
        }
        let delivered = result.map(\.loaded)
        for continuation in waiters { continuation.resume(returning: delivered) }
        guard case .success(let output) = result, job.epoch == epoch else { return }
        if let kept = output.uncheckedVersion {
            check(key, madeFrom: kept, priority: job.priority)
        } else if job.replacesShownThumbnail {
            stats.keptThumbnailsReplaced += 1
            replacements.announce(key)
        }
    }

    // MARK: Kept thumbnails

    /// Judges a kept thumbnail of `key` made from `version`, just shown:
    /// asks the photo's version if no one has, loads it again if an answer
    /// says the photo changed since.
    private func check(_ key: ThumbnailKey, madeFrom version: String, priority: LoadPriority) {
        switch checks.shown(key, madeFrom: version) {
        case .current, .wait:
            return
        case .changed(let now):
            replace(key, version: now, priority: priority)
        case .ask:
            // After all other work (outside every range), a slot of the downloads for work no one waits for;
            // among the checks, those of what is on screen first, as their thumbnails were ranked when shown.
            counter += 1
            let identifier = counter, asked = epoch, source = pipeline.source
            let rank = LoadPriority(.outside, distance: Double(LoadPriority.Range.visible.rawValue - priority.range.rawValue)
                                        * Self.checkRankStep + min(priority.distance, Self.checkRankStep / 2))
            Task.detached(priority: .utility) {
                let now: String?
                if let grant = await self.acquire(.download, priority: rank, job: identifier) {
                    now = await source.fingerprint(for: key.id)
                    await self.release(.download, grant)
                } else {
                    now = nil
                }
                await self.answer(key.id, version: now, priority: priority, epoch: asked)
            }
        }
    }

    /// How far apart (in the distance of ``LoadPriority``) the checks of
    /// thumbnails shown from one range are ranked from the next range's.
    private static let checkRankStep = 1e12

    /// Takes the answer of a check: the thumbnails shown of another version load again.
    private func answer(_ id: ImageID, version: String?, priority: LoadPriority, epoch asked: Int) {
        defer { didChangeMaybeToIdle() }
        guard asked == epoch else { return }                  // reloaded or erased meanwhile: forgotten
        let outdated = checks.answered(id, version: version)
        guard let version else { return }
        for key in outdated { replace(key, version: version, priority: priority) }
    }

    /// Loads `key` again from the photo at `version`, its old thumbnail
    /// dropped from memory (no new request is given it) and its old
    /// preview forgotten (the new thumbnail makes the new one); the work
    /// announces the new thumbnail. Work already under way for the key
    /// does, when it ends with a thumbnail of the photo as it is now.
    private func replace(_ key: ThumbnailKey, version: String, priority: LoadPriority) {
        memoryCache.removeImage(for: key)
        previews.forget(key.id)
        if let job = jobs.live(for: key) {
            job.replacesShownThumbnail = true
        } else {
            start(key, priority: priority, version: version)
        }
    }

    /// Counts a job's result and keeps a current one in the caches.
    private func record(_ result: Result<LoadOutput, ImageLoadingError>, of job: LoadJob, for key: ThumbnailKey) {
        stats.count(result)
        if case .success(let output) = result, output.wasDecoded { countDecodeForMemoryReturn() }
        guard case .success(let output) = result, job.epoch == epoch else { return }
        memoryCache.insert(output.loaded.image, for: key)
        if output.wasDecoded, let fingerprint = output.fingerprint {
            store(output.loaded.image, for: key, fingerprint: fingerprint, epoch: job.epoch)
        }
    }

    /// Writes a decoded thumbnail to the disk cache in the background,
    /// unless a reload or erase comes first; the loader is not idle until
    /// the write has landed.
    private func store(_ image: PixelImage, for key: ThumbnailKey, fingerprint: String, epoch jobEpoch: Int) {
        guard let diskCache = pipeline.diskCache else { return }
        stats.pendingDiskWrites += 1
        let generation = diskCache.generation
        Task.detached(priority: .utility) {
            if await self.isCurrent(jobEpoch) {
                await diskCache.store(image, for: key, fingerprint: fingerprint, generation: generation)
            }
            await self.diskWriteFinished()
        }
    }

    private func isCurrent(_ jobEpoch: Int) -> Bool { jobEpoch == epoch }

    private func diskWriteFinished() {
        stats.pendingDiskWrites -= 1
        didChangeMaybeToIdle()
    }

    // MARK: Slots

    /// One job's way to its stages' slots, handed to the pipeline.
    private struct JobSlots: LoadSlots {
        let loader: ImageLoader
        let key: ThumbnailKey
        let job: UInt64

        func acquire(_ stage: LoadStage) async -> SlotGrant? { await loader.acquire(stage, for: key, job: job) }
        func release(_ stage: LoadStage, _ grant: SlotGrant) async { await loader.release(stage, grant) }
    }

    /// Waits for a slot of `stage`; `nil` if the work was cancelled meanwhile.
    private func acquire(_ stage: LoadStage, for key: ThumbnailKey, job: UInt64) async -> SlotGrant? {
        // A job replaced since it started was cancelled, and returns at once below: only current jobs wait.
        await acquire(stage, priority: jobs.job(for: key, identifier: job)?.priority ?? .outside, job: job)
    }

    /// Waits for a slot of `stage` at `priority`, ranked as `job`.
    private func acquire(_ stage: LoadStage, priority: LoadPriority, job: UInt64) async -> SlotGrant? {
        if Task.isCancelled { return nil }
        let grant: SlotGrant?
        if let ready = modifySlots(stage, { $0.acquireNow(priority: priority) }) {
            grant = ready
        } else {
            grant = await withCheckedContinuation { continuation in
                modifySlots(stage) { $0.enqueue(continuation, job: job, priority: priority) }
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
    private func release(_ stage: LoadStage, _ grant: SlotGrant) {
        modifySlots(stage) { $0.release(grant) }
        grantFreeSlots(stage)
    }

    /// Hands free slots of `stage` to its most urgent waiters (the oldest
    /// among equals; the oldest whatever the priority under
    /// ``Ordering/arrival``). O(log n) per slot granted.
    private func grantFreeSlots(_ stage: LoadStage) {
        while let next = modifySlots(stage, { $0.nextGrant() }) {
            next.waiter.resume(returning: next.grant)
        }
    }

    /// Runs `body` on `stage`'s limiter, then tells the observers.
    @discardableResult
    private func modifySlots<R>(_ stage: LoadStage,
                                _ body: (inout StageLimiter<CheckedContinuation<SlotGrant?, Never>>) -> R) -> R {
        defer { didChange() }
        return stage == .download ? body(&downloadSlots) : body(&decodeSlots)
    }
}
