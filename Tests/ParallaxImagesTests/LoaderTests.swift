import Foundation
import Testing
@testable import ParallaxImages

/// Picture `n` is a flat PNG whose colour spells its number, so any
/// thumbnail tells exactly which picture it was made from.
enum Numbered {
    static func colour(_ n: Int) -> (UInt8, UInt8, UInt8) { (UInt8(n % 251), UInt8(n / 251 % 251), 77) }
    static func id(_ n: Int) -> ImageID { ImageID("photo-\(n).png") }
    static func number(of id: ImageID) -> Int { Int(id.rawValue.dropFirst(6).dropLast(4))! }

    static func source(count: Int) -> InMemoryImageSource {
        InMemoryImageSource(images: (0..<count).map { n in
            let (r, g, b) = colour(n)
            return (id(n), PixelImage(width: 8, height: 8, filledWith: (r, g, b, 255)).pngData() ?? Data())
        })
    }

    /// Whether `image` shows picture `n`.
    static func shows(_ image: PixelImage, _ n: Int) -> Bool {
        let (r, g, b) = colour(n)
        guard let p = image.pixel(x: image.width / 2, y: image.height / 2) else { return false }
        return p.r == r && p.g == g && p.b == b && p.a == 255
    }

    static func key(_ n: Int, side: Int = 4) -> ThumbnailKey {
        ThumbnailKey(id: id(n), size: try! ThumbnailSize(width: side, height: side))
    }
}

extension Array {
    func repeated(_ times: Int) -> [Element] { Array([[Element]](repeating: self, count: times).joined()) }
}

@Suite("Image loader")
struct LoaderTests {
    @Test func coalescesConcurrentRequestsIntoOneDownloadAndDecode() async throws {
        let server = SimulatedImageServer(backing: Numbered.source(count: 3), behavior: .init(latency: .milliseconds(30) ... .milliseconds(30)))
        let loader = ImageLoader(source: server, decoder: PlatformImageDecoder())
        let results = try await withThrowingTaskGroup(of: LoadedImage.self) { group in
            for _ in 0..<25 { group.addTask { try await loader.image(for: Numbered.key(1)) } }
            return try await group.reduce(into: [LoadedImage]()) { $0.append($1) }
        }
        #expect(results.count == 25 && results.allSatisfy { Numbered.shows($0.image, 1) && $0.origin == .network })
        let stats = await loader.statistics
        #expect(stats.downloads == 1 && stats.decodes == 1)
        #expect(await server.downloadCount == 1)
        // Afterwards: memory.
        #expect(try await loader.image(for: Numbered.key(1)).origin == .memory)
    }

    @Test func reportsWhereEachImageCameFrom() async throws {
        let directory = temporaryDirectory()
        let server = SimulatedImageServer(backing: Numbered.source(count: 3), behavior: .immediate)
        // Raw entries: pictures are told apart by exact colour, which a JPEG entry only approximates.
        let disk = try DiskImageCache(directory: directory, format: .raw)
        let loader = ImageLoader(source: server, decoder: PlatformImageDecoder(), diskCache: disk)
        #expect(try await loader.image(for: Numbered.key(0)).origin == .network)
        #expect(try await loader.image(for: Numbered.key(0)).origin == .memory)
        await loader.waitUntilIdle()
        loader.memoryCache.removeAll()
        let fromDisk = try await loader.image(for: Numbered.key(0))
        #expect(fromDisk.origin == .disk && Numbered.shows(fromDisk.image, 0))
        // A downloaded picture at a new size decodes from the server's "disk": still .disk, not .network.
        let resized = try await loader.image(for: Numbered.key(0, side: 2))
        #expect(resized.origin == .disk && Numbered.shows(resized.image, 0))
        #expect(await loader.statistics.diskHits == 1)
    }

    @Test func aPictureEditedSinceItsThumbnailWasCachedIsDecodedAgain() async throws {
        // One folder, one photo; a second launch (a new loader over the same disk cache) after the photo changed.
        let photos = temporaryDirectory(), cache = temporaryDirectory()
        let file = photos.appendingPathComponent(Numbered.id(0).rawValue)
        try PixelImage(width: 8, height: 8, filledWith: (200, 10, 10, 255)).pngData()!.write(to: file)
        let key = Numbered.key(0)
        func launch() throws -> ImageLoader {
            ImageLoader(source: FolderImageSource(directory: photos), decoder: PlatformImageDecoder(),
                        diskCache: try DiskImageCache(directory: cache, format: .raw))
        }
        let first = try launch()
        #expect(try await first.image(for: key).image.pixels.prefix(3) == [200, 10, 10])
        await first.waitUntilIdle()
        let second = try launch()
        #expect(try await second.image(for: key).image.pixels.prefix(3) == [200, 10, 10])
        let secondStats = await second.statistics
        #expect(secondStats.diskHits == 1 && secondStats.decodes == 0)
        // Edited, as editors save: a new file renamed over the old one (a new inode, whatever the clock says).
        try PixelImage(width: 8, height: 8, filledWith: (10, 10, 200, 255)).pngData()!.write(to: file, options: .atomic)
        let third = try launch()
        #expect(try await third.image(for: key).image.pixels.prefix(3) == [10, 10, 200])
        let thirdStats = await third.statistics
        #expect(thirdStats.diskHits == 0 && thirdStats.decodes == 1)
        await third.waitUntilIdle()
        let fourth = try launch()
        #expect(try await fourth.image(for: key).image.pixels.prefix(3) == [10, 10, 200])
        #expect(await fourth.statistics.diskHits == 1)
    }

    @Test func aCacheFolderThatCannotBeWrittenOnlyMeansNothingIsKept() async throws {
        // The folder disappears under the cache (as a full or read-only disk, every write fails).
        let cache = temporaryDirectory()
        let loader = ImageLoader(source: Numbered.source(count: 3), decoder: PlatformImageDecoder(),
                                 diskCache: try DiskImageCache(directory: cache))
        try FileManager.default.removeItem(at: cache)
        for n in 0..<3 { #expect(Numbered.shows(try await loader.image(for: Numbered.key(n)).image, n)) }
        await loader.waitUntilIdle()
        #expect(!FileManager.default.fileExists(atPath: cache.path))
    }

    @Test func urgentWorkNeverWaitsForADownloadSlot() async throws {
        // One download slot for work that is not urgent, held at the gate by prefetch 1.
        let source = GatedSource(backing: Numbered.source(count: 10))
        let loader = ImageLoader(source: source, configuration: .init(maximumConcurrentDownloads: 1))
        await loader.prefetch([Numbered.key(1)])
        await source.waitForArrivals(1)
        await loader.prefetch([Numbered.key(2), Numbered.key(3)])
        _ = await loader.statistics(when: { $0.downloadsWaiting == 2 })
        // A visible request passes the waiting prefetches without any slot opening...
        let visible = Task { try await loader.image(for: Numbered.key(9), priority: .visible) }
        await source.waitForArrivals(2)
        // ...and one that joins a waiting prefetch makes that work urgent: it leaves the queue at once.
        let joining = Task { try await loader.image(for: Numbered.key(3), priority: .visible) }
        await source.waitForArrivals(3)
        #expect(await loader.priority(for: Numbered.key(3)) == .visible)
        #expect(await loader.statistics.downloadsWaiting == 1)
        await source.open(Numbered.id(9))
        await source.open(Numbered.id(3))
        #expect(Numbered.shows(try await visible.value.image, 9))
        #expect(Numbered.shows(try await joining.value.image, 3))
        await source.open(Numbered.id(1))                      // frees the slot: prefetch 2 takes it
        await source.waitForArrivals(4)
        await source.open(Numbered.id(2))
        await loader.waitUntilIdle()
        #expect(await source.arrivals.map(Numbered.number(of:)) == [1, 9, 3, 2])
        #expect([1, 2, 3, 9].allSatisfy { loader.memoryCache.contains(Numbered.key($0)) })
    }

    @Test func photosWaitingForADecodeAreBoundedByTheDownloadLimitWhateverTheirUrgency() async throws {
        // One decode at a time, held shut; two downloads at once in all. Eight cells on screen ask at once.
        let source = GatedSource(backing: Numbered.source(count: 10))
        let decoder = GatedDecoder()
        let loader = ImageLoader(source: source, decoder: decoder,
                                 configuration: .init(maximumConcurrentDecodes: 1, maximumConcurrentDownloads: 1,
                                                      maximumConcurrentUrgentDownloads: 2))
        let visible = (0..<8).map { n in Task { try await loader.image(for: Numbered.key(n), priority: .visible) } }
        await source.waitForArrivals(2)
        _ = await loader.statistics(when: { $0.downloadsInFlight == 2 && $0.downloadsWaiting == 6 })
        // Both photos arrive: one decodes, the other waits for the decode keeping its download slot,
        // so only one more photo is read.
        await source.openAll()
        await source.waitForArrivals(3)
        _ = await loader.statistics(when: { $0.decodesInFlight == 1 && $0.decodesWaiting == 1 && $0.downloadsInFlight == 2 })
        await source.openAll()
        _ = await loader.statistics(when: { $0.decodesWaiting == 2 && $0.downloadsInFlight == 2 && $0.downloadsWaiting == 5 })
        #expect(await source.arrivals.count == 3)
        // A decode ends: the next photo decodes, its download slot opens, and a fourth photo is read.
        decoder.allow(1)
        await source.waitForArrivals(4)
        #expect(await loader.statistics.downloadsInFlight == 2)
        decoder.allow(7)
        for count in 4...8 {
            await source.waitForArrivals(count)
            await source.openAll()
        }
        for (n, request) in visible.enumerated() { #expect(Numbered.shows(try await request.value.image, n)) }
        #expect(await source.arrivals.count == 8)
    }

    @Test func theUrgentDownloadLimitIsNeverBelowTheOtherOne() {
        let configuration = ImageLoader.Configuration(maximumConcurrentDownloads: 6, maximumConcurrentUrgentDownloads: 2)
        #expect(configuration.maximumConcurrentUrgentDownloads == 6)
        #expect(ImageLoader.Configuration().maximumConcurrentUrgentDownloads == 24)
    }

    @Test func arrivalOrderingServesOldestFirstWhateverThePriority() async throws {
        // The session benchmark's baseline: one queue, first come first served.
        let source = GatedSource(backing: Numbered.source(count: 10))
        let loader = ImageLoader(source: source, configuration: .init(maximumConcurrentDownloads: 1, ordering: .arrival))
        await loader.prefetch([Numbered.key(1)])
        await source.waitForArrivals(1)
        await loader.prefetch([Numbered.key(2), Numbered.key(3)])
        let visible = Task { try await loader.image(for: Numbered.key(9), priority: .visible) }
        _ = await loader.statistics(when: { $0.downloadsWaiting == 3 })
        for count in 1...4 {
            await source.waitForArrivals(count)
            await source.openAll()
        }
        _ = try await visible.value
        await loader.waitUntilIdle()
        #expect(await source.arrivals.map(Numbered.number(of:)) == [1, 2, 3, 9])
    }

    @Test func afterAFastScrollTheNewScreenDecodesBeforeTheOldOne() async throws {
        let decoder = GatedDecoder()
        let loader = ImageLoader(source: Numbered.source(count: 20), decoder: decoder,
                                 configuration: .init(maximumConcurrentDecodes: 1))
        // The screen the user is leaving: six cells asked for their pictures; one decodes, five wait.
        let old = (0..<6).map { n in Task { try await loader.image(for: Numbered.key(n)) } }
        _ = await loader.statistics(when: { $0.decodesInFlight == 1 && $0.decodesWaiting == 5 })
        // A fast scroll: the cells were reused (their requests cancelled) and the plan is the new screen.
        for request in old {
            request.cancel()
            _ = await request.result
        }
        var plan = LoadPlan()
        for n in 10..<16 { plan.append(Numbered.key(n), priority: .visible) }
        await loader.follow(plan)
        // What was scrolled past is demoted, not forgotten (the keep policy, RolfHendriks' UICollectionView-Demo's choice).
        for n in 0..<6 { #expect(await loader.priority(for: Numbered.key(n)) == .outside) }
        _ = await loader.statistics(when: { $0.decodesWaiting == 11 })
        decoder.allow(12)
        await loader.waitUntilIdle()
        let order = decoder.order
        #expect(order.count == 12)
        #expect(Set(order.dropFirst().prefix(6)) == Set(10..<16), "\(order)")
        #expect(Set(order.dropFirst(7)) == Set(0..<6).subtracting([order.first ?? -1]), "\(order)")
        #expect([0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15].allSatisfy { loader.memoryCache.contains(Numbered.key($0)) })
    }

    @Test func theLandingZoneLoadsBeforeWhatTheFlingPasses() async throws {
        let decoder = GatedDecoder()
        let loader = ImageLoader(source: Numbered.source(count: 10), decoder: decoder,
                                 configuration: .init(maximumConcurrentDecodes: 1))
        let onScreen = Task { try await loader.image(for: Numbered.key(0)) }      // holds the only decode slot
        _ = await loader.statistics(when: { $0.decodesInFlight == 1 })
        var plan = LoadPlan()
        plan.append(Numbered.key(0), priority: .visible)
        plan.append(Numbered.key(1), priority: LoadPriority(.behind, distance: 10))
        plan.append(Numbered.key(2), priority: LoadPriority(.ahead, distance: 400))
        plan.append(Numbered.key(3), priority: LoadPriority(.ahead, distance: 100))
        plan.append(Numbered.key(4), priority: LoadPriority(.landing))
        plan.append(Numbered.key(5), priority: .outside)                          // planned outside: never started
        await loader.follow(plan)
        _ = await loader.statistics(when: { $0.decodesWaiting == 4 })
        decoder.allow(5)
        _ = try await onScreen.value
        await loader.waitUntilIdle()
        #expect(decoder.order == [0, 4, 3, 2, 1])
        #expect(!loader.memoryCache.contains(Numbered.key(5)))
    }

    @Test func workThatLeavesEveryRangeIsDemotedOrCancelled() async throws {
        for policy in [ImageLoader.ScrollAwayPolicy.keepDownloading, .cancel] {
            let clock = ManualClock()
            let server = SimulatedImageServer(backing: Numbered.source(count: 4),
                                              behavior: .init(latency: .seconds(1) ... .seconds(1)), clock: clock)
            let loader = ImageLoader(source: server, configuration: .init(scrollAwayPolicy: policy), clock: clock)
            var plan = LoadPlan()
            plan.append(Numbered.key(1), priority: LoadPriority(.ahead, distance: 50))
            plan.append(Numbered.key(2), priority: LoadPriority(.behind, distance: 20))
            await loader.follow(plan)
            #expect(await loader.priority(for: Numbered.key(1)) == LoadPriority(.ahead, distance: 50))
            await clock.waitForSleepers(2)
            // The viewport moved on: 1 is nearer, 2 left every range.
            await loader.follow(LoadPlan(entries: [.init(key: Numbered.key(1), priority: LoadPriority(.ahead, distance: 10))]))
            #expect(await loader.priority(for: Numbered.key(1)) == LoadPriority(.ahead, distance: 10))
            let left = await loader.priority(for: Numbered.key(2))
            clock.advance(by: .seconds(1))
            await loader.waitUntilIdle()
            #expect(loader.memoryCache.contains(Numbered.key(1)))
            let stats = await loader.statistics
            switch policy {
            case .keepDownloading:
                #expect(left == .outside)
                #expect(loader.memoryCache.contains(Numbered.key(2)))
                #expect(stats.cancellations == 0 && stats.downloads == 2)
            case .cancel:
                #expect(left == nil)
                #expect(!loader.memoryCache.contains(Numbered.key(2)))
                #expect(stats.cancellations == 1 && stats.downloads == 1)
            }
            #expect(await server.downloadsInFlight == 0)
        }
    }

    @Test func aCancelledRequestLeavesItsWorkToThePolicy() async throws {
        for policy in [ImageLoader.ScrollAwayPolicy.keepDownloading, .cancel] {
            let clock = ManualClock()
            let server = SimulatedImageServer(backing: Numbered.source(count: 2),
                                              behavior: .init(latency: .milliseconds(600) ... .milliseconds(600)), clock: clock)
            let loader = ImageLoader(source: server, configuration: .init(scrollAwayPolicy: policy), clock: clock)
            let request = Task { try await loader.image(for: Numbered.key(1)) }
            await clock.waitForSleepers(1)
            request.cancel()
            await #expect(throws: ImageLoadingError.cancelled) { try await request.value }
            #expect(clock.sleeperCount == (policy == .keepDownloading ? 1 : 0), "\(policy)")
            clock.advance(by: .milliseconds(600))
            await loader.waitUntilIdle()
            #expect(loader.memoryCache.contains(Numbered.key(1)) == (policy == .keepDownloading), "\(policy)")
            #expect(await server.downloadsInFlight == 0)
        }
    }

    @Test func aRequestAfterCancelledWorkStartsAfreshUnderTheCancelPolicy() async throws {
        // The cell scrolls away (its work is cancelled) and straight back: the new request must not join the doomed work.
        let clock = ManualClock()
        let server = SimulatedImageServer(backing: Numbered.source(count: 3),
                                          behavior: .init(latency: .seconds(1) ... .seconds(1)), clock: clock)
        let loader = ImageLoader(source: server, configuration: .init(scrollAwayPolicy: .cancel), clock: clock)
        let first = Task { try await loader.image(for: Numbered.key(1)) }
        await clock.waitForSleepers(1)
        first.cancel()
        await #expect(throws: ImageLoadingError.cancelled) { try await first.value }
        let second = Task { try await loader.image(for: Numbered.key(1)) }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(Numbered.shows(try await second.value.image, 1))
        #expect(await server.downloadCount == 2)
    }

    @Test func cancelledWorkThatFinishesAnywayServesTheJobThatReplacedIt() async throws {
        // The first job is cancelled mid-decode; a new request starts a second job, held at the download gate.
        // The first decode then finishes: its thumbnail serves the new request, the second job stands down,
        // and the loader is idle only once both have ended.
        let source = GatedSource(backing: Numbered.source(count: 2))
        let decoder = GatedDecoder()
        let loader = ImageLoader(source: source, decoder: decoder, configuration: .init(scrollAwayPolicy: .cancel))
        let first = Task { try await loader.image(for: Numbered.key(1)) }
        await source.waitForArrivals(1)
        await source.open(Numbered.id(1))
        _ = await loader.statistics(when: { $0.decodesInFlight == 1 })
        first.cancel()
        await #expect(throws: ImageLoadingError.cancelled) { try await first.value }
        let second = Task { try await loader.image(for: Numbered.key(1)) }
        await source.waitForArrivals(2)
        decoder.allow(1)
        let served = try await second.value
        #expect(Numbered.shows(served.image, 1) && served.origin == .network)
        #expect(loader.memoryCache.contains(Numbered.key(1)))
        let idle = Task { await loader.waitUntilIdle() }
        await source.open(Numbered.id(1))                        // the stood-down job ends; nothing decodes again
        await idle.value
        let stats = await loader.statistics
        #expect(stats.decodes == 1 && decoder.order == [1] && stats.jobsInFlight == 0)
    }

    @Test func workLeftOutsideStillFinishesWhileScreensKeepComing() async throws {
        // Fairness: outside work is last, never lost. Screens of urgent work keep arriving meanwhile.
        let loader = ImageLoader(source: Numbered.source(count: 40),
                                 configuration: .init(maximumConcurrentDecodes: 1, maximumConcurrentDownloads: 1))
        var plan = LoadPlan()
        for n in 0..<20 { plan.append(Numbered.key(n), priority: LoadPriority(.ahead, distance: Double(n) * 100)) }
        await loader.follow(plan)
        await loader.follow(LoadPlan())                                             // scrolled away from all of it
        for screen in 0..<4 {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for n in (20 + screen * 5)..<(25 + screen * 5) {
                    group.addTask { _ = try await loader.image(for: Numbered.key(n)) }
                }
                try await group.waitForAll()
            }
        }
        await loader.waitUntilIdle()
        #expect((0..<40).allSatisfy { loader.memoryCache.contains(Numbered.key($0)) })
        #expect(await loader.statistics.cancellations == 0)
    }

    @Test func theTypicalLoadTimeIsAnAverageOnTheLoadersClock() async throws {
        let clock = ManualClock()
        let server = SimulatedImageServer(backing: Numbered.source(count: 3),
                                          behavior: .init(latency: .milliseconds(300) ... .milliseconds(300)), clock: clock)
        let loader = ImageLoader(source: server, clock: clock)
        #expect(loader.typicalLoadTime == nil)
        func load(_ n: Int, taking latency: Duration) async throws {
            let request = Task { try await loader.image(for: Numbered.key(n)) }
            await clock.waitForSleepers(1)
            clock.advance(by: latency)
            _ = try await request.value
        }
        try await load(1, taking: .milliseconds(300))
        #expect(seconds(loader.typicalLoadTime) == 0.3)
        await server.setBehavior(.init(latency: .milliseconds(800) ... .milliseconds(800)))
        try await load(2, taking: .milliseconds(800))
        // Exponentially weighted, a fifth of the way to each new load: 0.3 + 0.2 · (0.8 − 0.3).
        #expect(abs(seconds(loader.typicalLoadTime) - 0.4) < 1e-12)
    }

    private func seconds(_ duration: Duration?) -> Double {
        guard let duration else { return .nan }
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    @Test func failuresAreTypedAndNotCached() async throws {
        let broken = InMemoryImageSource(images: [("bad.jpg", Data([0xFF, 0xD8, 0xFF, 0x00, 1, 2, 3]))])
        let loader = ImageLoader(source: broken, decoder: PlatformImageDecoder())
        let size = try ThumbnailSize(width: 4, height: 4)
        await #expect(throws: ImageLoadingError.self) { try await loader.image(for: ThumbnailKey(id: "bad.jpg", size: size)) }
        await #expect(throws: ImageLoadingError.source(.notFound("nope.jpg"))) {
            try await loader.image(for: ThumbnailKey(id: "nope.jpg", size: size))
        }
        #expect(loader.memoryCache.count == 0)
        #expect(await loader.statistics.failures == 2)
    }

    @Test func eraseAllMidDownloadFailsItAndCachesNothing() async throws {
        let clock = ManualClock()
        let server = SimulatedImageServer(backing: Numbered.source(count: 2),
                                          behavior: .init(latency: .milliseconds(600) ... .milliseconds(600)), clock: clock)
        let loader = ImageLoader(source: server, clock: clock)
        func load(_ n: Int) async throws -> LoadedImage {
            let request = Task { try await loader.image(for: Numbered.key(n)) }
            await clock.waitForSleepers(1)
            clock.advance(by: .milliseconds(600))
            return try await request.value
        }
        let request = Task { try await loader.image(for: Numbered.key(1)) }
        await clock.waitForSleepers(1)
        await loader.eraseAll()
        clock.advance(by: .milliseconds(600))
        await #expect(throws: ImageLoadingError.source(.erased(Numbered.id(1)))) { try await request.value }
        await loader.waitUntilIdle()
        #expect(loader.memoryCache.count == 0)
        // Reload: cached images go, and the next load downloads again.
        _ = try await load(0)
        await loader.reloadAll()
        #expect(loader.memoryCache.count == 0)
        #expect(try await load(0).origin == .network)
    }
}

/// A source whose downloads wait at a gate until the test opens it, and
/// which records the order they arrived in: the order is the loader's.
actor GatedSource: ImageSource {
    let backing: InMemoryImageSource
    private var gates: [(id: ImageID, continuation: CheckedContinuation<Void, Never>)] = []
    private var arrivalWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    /// The downloads that reached the gate, in order.
    private(set) var arrivals: [ImageID] = []

    init(backing: InMemoryImageSource) { self.backing = backing }

    func imageIDs() async throws(ImageSourceError) -> [ImageID] { try await backing.imageIDs() }
    func isStoredLocally(_ id: ImageID) async -> Bool { false }

    func data(for id: ImageID) async throws(ImageSourceError) -> Data {
        await withCheckedContinuation { continuation in
            gates.append((id, continuation))
            arrivals.append(id)
            let count = arrivals.count
            for waiter in arrivalWaiters where waiter.count <= count { waiter.continuation.resume() }
            arrivalWaiters.removeAll { $0.count <= count }
        }
        return try await backing.data(for: id)
    }

    /// Returns once `count` downloads in all have reached the gate.
    func waitForArrivals(_ count: Int) async {
        guard arrivals.count < count else { return }
        await withCheckedContinuation { arrivalWaiters.append((count, $0)) }
    }

    /// Lets the download of `id` through.
    func open(_ id: ImageID) {
        guard let index = gates.firstIndex(where: { $0.id == id }) else {
            Issue.record("no download of \(id) at the gate")
            return
        }
        gates.remove(at: index).continuation.resume()
    }

    /// Lets every waiting download through.
    func openAll() {
        let waiting = gates
        gates.removeAll()
        for gate in waiting { gate.continuation.resume() }
    }
}

/// A decoder that decodes, notes which numbered picture it decoded, then
/// holds the decode until the test allows it: with one decode at a time,
/// the notes are the order the loader chose.
final class GatedDecoder: ImageDecoding {
    private let decoder = PlatformImageDecoder()
    private let permits = DispatchSemaphore(value: 0)
    private let arrived = Locked<[Int]>([])

    /// The pictures decoded (or decoding), in the order they started.
    var order: [Int] { arrived.withLock { $0 } }

    /// Lets `count` more decodes finish.
    func allow(_ count: Int) {
        for _ in 0..<count { permits.signal() }
    }

    func thumbnail(from data: Data, size: ThumbnailSize) throws(ImageDecodingError) -> DecodedThumbnail {
        let decoded = try decoder.thumbnail(from: data, size: size)
        let number = (0..<1000).first { Numbered.shows(decoded.image, $0) } ?? -1
        arrived.withLock { $0.append(number) }
        permits.wait()
        return decoded
    }
}
