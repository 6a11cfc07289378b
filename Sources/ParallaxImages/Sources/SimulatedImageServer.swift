import Foundation

/// A server that is slow, unreliable and changeable on purpose, to shake
/// out the races of loading images into recycled cells (RolfHendriks' UICollectionView-Demo's
/// `ImageDataProvider`, extended).
///
/// - The first download of a picture waits `min + U · (max − min)` (plus its
///   size over the bandwidth, if one is set); after that it comes from the
///   simulated disk, still asynchronously but at once.
/// - A configurable share of downloads fail.
/// - The delay and the failure of each download are drawn from the seed,
///   the picture and how many times it was downloaded before, not from the
///   order of requests: the same seed gives the same run however requests
///   interleave.
/// - ``reloadAll()`` forgets every download (each picture downloads again
///   with a new delay); ``eraseAll()`` removes everything and fetches the
///   list again. Both are safe in the middle of a fast scroll: downloads
///   already under way when everything is erased fail with
///   ``ImageSourceError/erased(_:)`` rather than delivering into a world
///   that no longer has them.
/// - Delays pass on the clock it is given: the wall clock by default, or a
///   manual clock a test advances by hand, so a test of loading order is
///   deterministic and never sleeps.
public actor SimulatedImageServer: ImageSource {
    /// How the server misbehaves.
    public struct Behavior: Sendable, Hashable {
        /// The range the first-download delay is drawn from (RolfHendriks' UICollectionView-Demo: 0…2 s).
        public var latency: ClosedRange<Duration>
        /// The share of downloads that fail, 0…1.
        public var failureRate: Double
        /// Bytes per second of a download, or `nil` for no limit.
        public var bandwidth: Int?
        /// The seed of every random draw.
        public var seed: UInt64

        /// A behaviour. The defaults are RolfHendriks' UICollectionView-Demo's: a
        /// first download takes 0 to 2 s, nothing fails, no bandwidth limit,
        /// seed 2015. A failure rate outside 0…1 is clamped into it (not finite:
        /// 0), and a bandwidth below 1 byte per second counts as 1.
        public init(latency: ClosedRange<Duration> = .zero ... .seconds(2), failureRate: Double = 0,
                    bandwidth: Int? = nil, seed: UInt64 = 2015) {
            self.latency = latency
            self.failureRate = failureRate.isFinite ? min(max(failureRate, 0), 1) : 0
            self.bandwidth = bandwidth.map { max($0, 1) }
            self.seed = seed
        }

        /// No delay, no failure: deterministic rendering and tests.
        public static let immediate = Behavior(latency: .zero ... .zero)
    }

    private let backing: any ImageSource
    /// Sleeps for a duration on the server's clock.
    private let sleep: @Sendable (Duration) async throws -> Void
    /// How the server misbehaves now (see ``setBehavior(_:)``).
    public private(set) var behavior: Behavior
    private var downloaded: Set<ImageID> = []
    private var downloadCounts: [ImageID: Int] = [:]
    /// Bumped by ``eraseAll()``; downloads remember the epoch they started in.
    private var epoch = 0
    private var catalog: [ImageID]?
    private var inFlight = 0
    /// How many downloads were started in all (for tests and the HUD).
    public private(set) var downloadCount = 0

    /// A server in front of `backing`, misbehaving as `behavior` says, its
    /// delays measured on `clock`.
    public init(backing: any ImageSource, behavior: Behavior = Behavior(), clock: any Clock<Duration> = ContinuousClock()) {
        self.backing = backing
        self.behavior = behavior
        self.sleep = sleeper(on: clock)
    }

    /// Changes the delay, failure rate or bandwidth from now on.
    public func setBehavior(_ behavior: Behavior) { self.behavior = behavior }

    /// How many downloads are under way.
    public var downloadsInFlight: Int { inFlight }

    /// Returns once at least `count` downloads are under way at the same
    /// time (at once if they already are): an event to await, for tests and
    /// tools that must act while a download runs.
    public func waitUntilDownloading(atLeast count: Int = 1) async {
        guard inFlight < count else { return }
        await withCheckedContinuation { downloadWaiters.append((count, $0)) }
    }

    private var downloadWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// The backing source's header of `id`, at once: the server is taken to
    /// list each photo's size with its name, as a photo service's API does,
    /// so no download (and no latency or failure) is involved.
    public func header(for id: ImageID) async throws(ImageSourceError) -> ImageHeader {
        try await backing.header(for: id)
    }

    /// The backing source's header and capture date (no delay: see ``header(for:)``).
    public func headerAndCaptureDate(for id: ImageID) async throws(ImageSourceError) -> (header: ImageHeader, date: CaptureDate?) {
        try await backing.headerAndCaptureDate(for: id)
    }

    /// The backing source's batch size for header reads.
    public nonisolated var headerBatchSize: Int { backing.headerBatchSize }

    /// The backing source's headers and dates, read in one go (no delay).
    public func headersAndCaptureDates(for ids: [ImageID]) async -> [Result<(header: ImageHeader, date: CaptureDate?), ImageSourceError>] {
        await backing.headersAndCaptureDates(for: ids)
    }

    /// The backing source's listed headers, passed on as the list is.
    public func listedHeaders() async -> [ImageID: ImageHeader] { await backing.listedHeaders() }

    /// The backing source's listed previews, passed on as the list is.
    public func listedPreviews() async -> [ImageID: ThumbHash] { await backing.listedPreviews() }

    /// The backing source's embedded thumbnail when the server adds no
    /// latency (it then stands for the backing source as it is); none
    /// otherwise: a server sends nothing of a photo before its delay.
    public func embeddedThumbnail(for id: ImageID) async -> EmbeddedThumbnail? {
        guard behavior.latency.upperBound <= .zero else { return nil }
        return await backing.embeddedThumbnail(for: id)
    }

    /// The backing source's list, fetched once and kept until ``eraseAll()``.
    public func imageIDs() async throws(ImageSourceError) -> [ImageID] {
        if let catalog { return catalog }
        let fetched = try await backing.imageIDs()
        catalog = fetched
        return fetched
    }

    /// Whether `id` was downloaded since the last ``reloadAll()`` or
    /// ``eraseAll()``: it is then on the simulated disk.
    public func isStoredLocally(_ id: ImageID) async -> Bool { downloaded.contains(id) }

    /// The backing source's fingerprint, at once: the simulated server's
    /// listing carries it, as a manifest would, so it costs no round trip.
    public func fingerprint(for id: ImageID) async -> String? { await backing.fingerprint(for: id) }

    /// The backing source's answer.
    public nonisolated var fingerprintNeedsRequest: Bool { backing.fingerprintNeedsRequest }

    /// The bytes of `id`, delayed and failed as the behaviour says (see
    /// ``versionedData(for:)``).
    public func data(for id: ImageID) async throws(ImageSourceError) -> Data {
        try await versionedData(for: id).data
    }

    /// The backing source's bytes (and their fingerprint, if it gives one), delayed and failed as the behaviour says.
    public func versionedData(for id: ImageID) async throws(ImageSourceError) -> (data: Data, fingerprint: String?) {
        let startEpoch = epoch
        if downloaded.contains(id) {
            await Task.yield()                   // the simulated disk: asynchronous, but at once
            guard epoch == startEpoch else { throw .erased(id) }
            return try await backing.versionedData(for: id)
        }
        let attempt = downloadCounts[id, default: 0]
        downloadCounts[id] = attempt + 1
        downloadCount += 1
        inFlight += 1
        defer { inFlight -= 1 }
        if !downloadWaiters.isEmpty {
            let ready = downloadWaiters.filter { $0.count <= inFlight }
            downloadWaiters.removeAll { $0.count <= inFlight }
            for waiter in ready { waiter.continuation.resume() }
        }
        let seed = behavior.seed ^ UInt64(truncatingIfNeeded: id.rawValue.hashValueStable) ^ (UInt64(attempt) &* 0x9E37_79B9_7F4A_7C15)
        let unit = Double(Self.splitMix(seed, draw: 1) >> 11) / Double(1 << 53)
        let fails = Double(Self.splitMix(seed, draw: 2) >> 11) / Double(1 << 53) < behavior.failureRate
        let low = behavior.latency.lowerBound, high = behavior.latency.upperBound
        var delay = low + (high - low) * unit
        let fetched = try await backing.versionedData(for: id)
        if let bandwidth = behavior.bandwidth { delay += .seconds(Double(fetched.data.count) / Double(bandwidth)) }
        if delay > .zero {
            do { try await sleep(delay) } catch { throw .cancelled }
        } else {
            await Task.yield()
        }
        guard epoch == startEpoch else { throw .erased(id) }
        if fails { throw .simulatedFailure(id) }
        downloaded.insert(id)
        return fetched
    }

    /// Forgets every download: each picture downloads again, with a new delay.
    public func reloadAll() {
        downloaded.removeAll()
    }

    /// Removes everything: downloads are forgotten, downloads under way fail
    /// with ``ImageSourceError/erased(_:)``, and the list is fetched again.
    public func eraseAll() {
        downloaded.removeAll()
        catalog = nil
        epoch += 1
    }
}

extension SimulatedImageServer {
    /// The `draw`th number of Sebastiano Vigna's SplitMix64 sequence from
    /// `seed` (the sequence ParallaxCore's `SplitMix64` generates), in
    /// closed form: the pipeline needs no dependency for two random draws.
    static func splitMix(_ seed: UInt64, draw: UInt64) -> UInt64 {
        var z = seed &+ draw &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension String {
    /// A hash that is the same in every process (Swift's `hashValue` is
    /// seeded per process), so simulated runs replay exactly.
    var hashValueStable: UInt64 { fnv1a64(Array(utf8)) }
}
