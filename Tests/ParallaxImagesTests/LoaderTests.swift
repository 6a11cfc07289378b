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
        let disk = try DiskImageCache(directory: directory)
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

    @Test func visibleRequestsJumpThePrefetchQueue() async throws {
        // Downloads pass a gate the test opens one at a time, so the order is the loader's, not the scheduler's.
        let source = GatedSource(backing: Numbered.source(count: 10))
        let loader = ImageLoader(source: source, decoder: PlatformImageDecoder(),
                                 configuration: .init(maximumConcurrentDecodes: 1, maximumConcurrentDownloads: 1))
        await loader.prefetch([Numbered.key(1)])
        while await source.waiting < 1 { try await Task.sleep(for: .milliseconds(1)) }
        // Prefetch 1 holds the only download slot at the gate; 2…6, then the visible request, queue behind it.
        await loader.prefetch((2...6).map { Numbered.key($0) })
        while await loader.statistics.downloadsWaiting < 5 { try await Task.sleep(for: .milliseconds(1)) }
        let visible = Task { try await loader.image(for: Numbered.key(9), priority: .visible) }
        while await loader.statistics.downloadsWaiting < 6 { try await Task.sleep(for: .milliseconds(1)) }
        await source.open()                                       // prefetch 1 passes
        try await source.openWhenWaiting()                        // then the visible request, ahead of 2…6
        _ = try await visible.value
        // One prefetch took the slot when the visible download finished. Raising a waiting
        // prefetch's priority moves it ahead of the others: 6 goes next.
        while await source.waiting < 1 { try await Task.sleep(for: .milliseconds(1)) }
        await loader.setPriority(.visible, for: Numbered.key(6))
        for _ in 0..<5 { try await source.openWhenWaiting() }
        await loader.waitUntilIdle()
        let order = await source.order.map(Numbered.number(of:))
        #expect(order.count == 7 && Set(order) == [1, 2, 3, 4, 5, 6, 9])
        #expect(order[0] == 1 && order[1] == 9)
        #expect((2...5).contains(order[2]) && order[3] == 6, "\(order)")
        #expect((1...6).allSatisfy { loader.memoryCache.contains(Numbered.key($0)) })
    }

    @Test func scrollAwayPolicies() async throws {
        for policy in [ImageLoader.ScrollAwayPolicy.keepDownloading, .cancel] {
            let server = SimulatedImageServer(backing: Numbered.source(count: 2), behavior: .init(latency: .milliseconds(600) ... .milliseconds(600)))
            let loader = ImageLoader(source: server, decoder: PlatformImageDecoder(), configuration: .init(scrollAwayPolicy: policy))
            let request = Task { try await loader.image(for: Numbered.key(1)) }
            try await Task.sleep(for: .milliseconds(20))
            request.cancel()
            await #expect(throws: ImageLoadingError.cancelled) { try await request.value }
            await loader.waitUntilIdle()
            let kept = loader.memoryCache.contains(Numbered.key(1))
            #expect(kept == (policy == .keepDownloading), "\(policy)")
            #expect(await server.downloadsInFlight == 0)
        }
    }

    @Test func aRequestAfterCancelledWorkStartsAfreshUnderTheCancelPolicy() async throws {
        // The cell scrolls away (its work is cancelled) and straight back: the new request must not join the doomed work.
        let source = GatedSource(backing: Numbered.source(count: 3))
        let loader = ImageLoader(source: source, decoder: PlatformImageDecoder(),
                                 configuration: .init(maximumConcurrentDownloads: 1, scrollAwayPolicy: .cancel))
        let blocker = Task { try await loader.image(for: Numbered.key(0)) }       // holds the only download slot
        while await source.waiting < 1 { try await Task.sleep(for: .milliseconds(1)) }
        let first = Task { try await loader.image(for: Numbered.key(1)) }
        while await loader.statistics.downloadsWaiting < 1 { try await Task.sleep(for: .milliseconds(1)) }
        first.cancel()
        await #expect(throws: ImageLoadingError.cancelled) { try await first.value }
        let second = Task { try await loader.image(for: Numbered.key(1)) }
        try await Task.sleep(for: .milliseconds(20))
        try await source.openWhenWaiting()                     // the blocker's download; the cancelled work then gives up its turn
        try await source.openWhenWaiting()                     // the new request's own download
        let image = try await second.value
        #expect(Numbered.shows(image.image, 1))
        _ = try await blocker.value
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
        let server = SimulatedImageServer(backing: Numbered.source(count: 2), behavior: .init(latency: .milliseconds(600) ... .milliseconds(600)))
        let loader = ImageLoader(source: server, decoder: PlatformImageDecoder())
        let request = Task { try await loader.image(for: Numbered.key(1)) }
        try await Task.sleep(for: .milliseconds(15))
        await loader.eraseAll()
        await #expect(throws: ImageLoadingError.source(.erased(Numbered.id(1)))) { try await request.value }
        await loader.waitUntilIdle()
        #expect(loader.memoryCache.count == 0)
        // Reload: cached images go, and the next load downloads again.
        _ = try await loader.image(for: Numbered.key(0))
        await loader.reloadAll()
        #expect(loader.memoryCache.count == 0)
        #expect(try await loader.image(for: Numbered.key(0)).origin == .network)
    }
}

@Suite("Image bindings")
struct ImageBindingsTests {
    @Test func onlyTheCurrentTicketIsAccepted() throws {
        var bindings = ImageBindings<Int>()
        let first = bindings.bind(7, to: Numbered.key(1))
        let second = bindings.bind(7, to: Numbered.key(2))
        #expect(!bindings.accepts(first, for: 7) && bindings.accepts(second, for: 7))
        let again = bindings.bind(7, to: Numbered.key(2))                  // same key, new bind
        #expect(!bindings.accepts(second, for: 7) && bindings.accepts(again, for: 7))
        #expect(!bindings.accepts(again, for: 8))
        bindings.unbind(7)
        #expect(!bindings.accepts(again, for: 7) && bindings.ticket(for: 7) == nil)
    }
}

/// A source whose downloads wait at a gate until the test opens it, and
/// which records the order they passed in.
actor GatedSource: ImageSource {
    let backing: InMemoryImageSource
    private var gates: [CheckedContinuation<Void, Never>] = []
    private(set) var order: [ImageID] = []

    init(backing: InMemoryImageSource) { self.backing = backing }

    var waiting: Int { gates.count }

    func imageIDs() async throws(ImageSourceError) -> [ImageID] { try await backing.imageIDs() }
    func isStoredLocally(_ id: ImageID) async -> Bool { false }

    func data(for id: ImageID) async throws(ImageSourceError) -> Data {
        await withCheckedContinuation { gates.append($0) }
        order.append(id)
        return try await backing.data(for: id)
    }

    /// Lets the oldest waiting download through.
    func open() {
        if !gates.isEmpty { gates.removeFirst().resume() }
    }

    struct NothingArrived: Error {}

    /// Waits (at most 5 s) for a download to reach the gate, then lets it through.
    func openWhenWaiting() async throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while gates.isEmpty {
            guard ContinuousClock.now < deadline else { throw NothingArrived() }
            try await Task.sleep(for: .milliseconds(1))
        }
        open()
    }
}
