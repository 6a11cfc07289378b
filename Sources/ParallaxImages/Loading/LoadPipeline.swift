import Foundation

/// A stage of the pipeline whose concurrency the loader limits.
enum LoadStage: Sendable, Hashable {
    /// Fetching a picture's bytes from the source (or asking it for the
    /// picture's version, where that is a request of its own).
    case download
    /// Decoding, resampling and orienting a thumbnail.
    case decode
}

/// Where a pipeline run takes its slots: the loader's ``StageLimiter``s
/// for one job, or a test's stand-in.
protocol LoadSlots: Sendable {
    /// Waits for a slot of `stage`; `nil` if the work was cancelled meanwhile.
    func acquire(_ stage: LoadStage) async -> SlotGrant?
    /// Gives back a slot `acquire` handed out.
    func release(_ stage: LoadStage, _ grant: SlotGrant) async
}

/// What the pipeline produced for a key.
struct LoadOutput: Sendable {
    /// The thumbnail and where it came from.
    var loaded: LoadedImage
    /// Whether it was decoded (rather than read from the thumbnail disk cache).
    var wasDecoded: Bool
    /// The picture's fingerprint, when the disk cache may keep the thumbnail.
    var fingerprint: String?
    /// A thumbnail the disk cache kept of a photo on a server, shown
    /// before its version was asked: the version it was made from, which
    /// the loader checks next (``ImageLoader/KeptThumbnailCheck/afterShowing``).
    var uncheckedVersion: String? = nil

    /// A thumbnail the disk cache kept of `key`, made from the picture's `version`.
    static func kept(_ image: PixelImage, key: ThumbnailKey, version: String) -> LoadOutput {
        LoadOutput(loaded: LoadedImage(key: key, image: image, origin: .disk), wasDecoded: false, fingerprint: version)
    }
}

/// Everything between the memory cache and a result: disk cache → fetch →
/// decode, each a small function of its own.
///
/// Owns no state of its own beyond what it was given (the source, decoder,
/// disk cache, the clock's stopwatch, the load-time average it feeds and
/// the preview store it files a hash in for each photo it decodes first),
/// so it runs off the loader's actor, in the job's task, and asks the
/// loader for slots through ``LoadSlots``: a download slot around the fetch
/// (and around a fingerprint that costs a request), a decode slot around
/// the decode. Every slot taken is given back on every path.
struct LoadPipeline: Sendable {
    let source: any ImageSource
    let decoder: any ImageDecoding
    let diskCache: DiskImageCache?
    /// Starts a stopwatch on the loader's clock; calling what it returns reads it.
    let startStopwatch: @Sendable () -> @Sendable () -> Duration
    /// Where each load's fetch-plus-decode time is counted.
    let loadTime: LoadTimeAverage
    /// Where a hash made from a decoded thumbnail goes; `nil`: none is made.
    let previews: PreviewStore?
    /// When a thumbnail kept of a photo on a server is checked.
    let keptThumbnailCheck: ImageLoader.KeptThumbnailCheck

    /// A pipeline timing its stages on `clock`.
    init(source: any ImageSource, decoder: any ImageDecoding, diskCache: DiskImageCache?,
         clock: any Clock<Duration>, loadTime: LoadTimeAverage, previews: PreviewStore? = nil,
         keptThumbnailCheck: ImageLoader.KeptThumbnailCheck = .beforeShowing) {
        self.source = source
        self.decoder = decoder
        self.diskCache = diskCache
        self.startStopwatch = Self.stopwatch(on: clock)
        self.loadTime = loadTime
        self.previews = previews
        self.keptThumbnailCheck = keptThumbnailCheck
    }

    /// Loads `key`'s thumbnail: from the disk cache if it has a current
    /// one, else fetched and decoded, taking `slots` around each stage.
    /// `version`, when given, is the picture's version as just asked (a
    /// kept thumbnail found out of date): only a thumbnail of it is taken
    /// from the disk cache, and nothing is asked again.
    func run(_ key: ThumbnailKey, version: String? = nil, slots: some LoadSlots) async -> Result<LoadOutput, ImageLoadingError> {
        let local = await source.isStoredLocally(key.id)
        var fingerprint: String?
        var heldDownload: SlotGrant?
        let lookup = if let version { await lookUpDiskCache(key, version: version) }
                     else { await lookUpDiskCache(key, isStoredLocally: local, slots: slots) }
        switch lookup {
        case .hit(let output):
            return .success(output)
        case .cancelled:
            return .failure(.cancelled)
        case .miss(let known, let grant):
            fingerprint = known
            heldDownload = grant
        }
        let downloadGrant: SlotGrant
        if let heldDownload {
            downloadGrant = heldDownload
        } else {
            guard let acquired = await slots.acquire(.download) else { return .failure(.cancelled) }
            downloadGrant = acquired
        }
        let fetched = await fetch(key.id)
        let data: Data
        switch fetched.result {
        case .success(let answer):
            data = answer.data
            // The thumbnail is filed under the version of the bytes it is made from.
            if diskCache != nil, let exact = answer.fingerprint { fingerprint = exact }
        case .failure(let error):
            await slots.release(.download, downloadGrant)
            return .failure(error)
        }
        // The download slot is kept until a decode slot is granted: fetched bytes waiting for a decode
        // count against the downloads, so a fast source (a local disk) never piles up whole files in
        // memory faster than they are decoded (seen: 800 MB of 10 MB photos waiting, at 100,000 photos).
        let decodeGrant = await slots.acquire(.decode)
        await slots.release(.download, downloadGrant)
        guard let decodeGrant else { return .failure(.cancelled) }
        let decoded = await decode(data, size: key.size, makingPreviewOf: previews?.contains(key.id) == false ? key.id : nil)
        loadTime.record(fetched.duration + decoded.duration)
        await slots.release(.decode, decodeGrant)
        switch decoded.result {
        case .success(let thumbnail):
            let loaded = LoadedImage(key: key, image: thumbnail.image, origin: local ? .disk : .network)
            return .success(LoadOutput(loaded: loaded, wasDecoded: true, fingerprint: fingerprint))
        case .failure(let error):
            return .failure(error)
        }
    }

    // MARK: Stages

    /// What the disk-cache stage found.
    enum DiskLookup {
        /// A thumbnail of the picture as it is now, or, not yet checked, as
        /// it was when kept (its `uncheckedVersion`).
        case hit(LoadOutput)
        /// None: go on to fetch, with the fingerprint learned (if any) and
        /// the download slot taken to learn it (if it cost a request).
        case miss(fingerprint: String?, heldDownload: SlotGrant?)
        /// The work was cancelled while waiting for a slot.
        case cancelled
    }

    /// Looks for a current thumbnail of `key` in the disk cache. The cache
    /// serves a thumbnail only of the picture as it is now; a source that
    /// cannot tell its version (no fingerprint) goes without it.
    ///
    /// Where asking the version is a request of its own (an HTTP `HEAD`),
    /// it is asked only of a picture the cache keeps a thumbnail of (a
    /// download's answer gives the version of what it brings); under
    /// ``ImageLoader/KeptThumbnailCheck/afterShowing`` not even then: the
    /// kept thumbnail is the hit, with its version to check. Asked first,
    /// the request takes the download slot the download would take, and
    /// on a miss keeps it for that.
    func lookUpDiskCache(_ key: ThumbnailKey, isStoredLocally local: Bool,
                         slots: some LoadSlots) async -> DiskLookup {
        guard let diskCache else { return .miss(fingerprint: nil, heldDownload: nil) }
        guard !local, source.fingerprintNeedsRequest else {
            // A stat, a manifest: asked every time.
            let fingerprint = await source.fingerprint(for: key.id)
            if let fingerprint, let image = await diskCache.image(for: key, fingerprint: fingerprint) {
                return .hit(.kept(image, key: key, version: fingerprint))
            }
            return .miss(fingerprint: fingerprint, heldDownload: nil)
        }
        guard let (image, kept) = await diskCache.latestImage(for: key) else { return .miss(fingerprint: nil, heldDownload: nil) }
        let hit = LoadOutput.kept(image, key: key, version: kept)
        if keptThumbnailCheck == .afterShowing {
            var unchecked = hit
            unchecked.uncheckedVersion = kept
            return .hit(unchecked)
        }
        guard let grant = await slots.acquire(.download) else { return .cancelled }
        let fingerprint = await source.fingerprint(for: key.id)
        guard let fingerprint, fingerprint == kept else { return .miss(fingerprint: fingerprint, heldDownload: grant) }
        await slots.release(.download, grant)
        return .hit(hit)
    }

    /// Looks for a thumbnail of `key` made from the picture version
    /// `version`, known already.
    private func lookUpDiskCache(_ key: ThumbnailKey, version: String) async -> DiskLookup {
        if let image = await diskCache?.image(for: key, fingerprint: version) {
            return .hit(.kept(image, key: key, version: version))
        }
        return .miss(fingerprint: version, heldDownload: nil)
    }

    /// The bytes of picture `id` and their version, and how long the fetch
    /// took on the loader's clock. A source's cancellation is reported as
    /// the load's.
    func fetch(_ id: ImageID) async -> (result: Result<(data: Data, fingerprint: String?), ImageLoadingError>, duration: Duration) {
        let stopwatch = startStopwatch()
        let result: Result<(data: Data, fingerprint: String?), ImageLoadingError>
        do throws(ImageSourceError) {
            result = .success(try await source.versionedData(for: id))
        } catch {
            result = .failure(error == .cancelled ? .cancelled : .source(error))
        }
        return (result, stopwatch())
    }

    /// Decodes `data` into a thumbnail of `size` on the pipeline's decoding
    /// threads (never the caller's, never Swift's cooperative pool), and how
    /// long that took on the loader's clock. The calling task's priority
    /// picks the threads' lane: urgent work decodes first. Given a photo
    /// whose preview is not known, it files the thumbnail's ``ThumbHash``
    /// for it too (a fraction of a millisecond beside the decode).
    func decode(_ data: Data, size: ThumbnailSize,
                makingPreviewOf id: ImageID? = nil) async -> (result: Result<DecodedThumbnail, ImageLoadingError>, duration: Duration) {
        let decoder = self.decoder, previews = self.previews
        let stopwatch = startStopwatch()
        let result = await BlockingWorkQueue.decoding.run { () -> Result<DecodedThumbnail, ImageLoadingError> in
            do throws(ImageDecodingError) {
                let thumbnail = try decoder.thumbnail(from: data, size: size)
                if let id, let previews { previews.insertMade(ThumbHash(encoding: thumbnail.image), for: id) }
                return .success(thumbnail)
            } catch {
                return .failure(.decoding(error))
            }
        }
        return (result, stopwatch())
    }

    private static func stopwatch<C: Clock>(on clock: C) -> @Sendable () -> @Sendable () -> Duration where C.Duration == Duration {
        {
            let start = clock.now
            return { start.duration(to: clock.now) }
        }
    }
}
