import Foundation
import ParallaxCore
import ParallaxHosting
import ParallaxImages
import Testing

/// Pictures that are one flat colour each, so a displayed image says which
/// picture it is.
enum Swatches {
    static func id(_ n: Int) -> ImageID { ImageID("swatch-\(n).png") }
    static func colour(_ n: Int) -> (UInt8, UInt8, UInt8) { (UInt8(n % 251), UInt8(n / 251 % 251), 99) }
    static func data(_ n: Int) -> Data {
        let (r, g, b) = colour(n)
        return PixelImage(width: 8, height: 8, filledWith: (r, g, b, 255)).pngData() ?? Data()
    }
    static func source(count: Int) -> InMemoryImageSource {
        InMemoryImageSource(images: (0..<count).map { (id($0), data($0)) })
    }
    static func key(_ n: Int) -> ThumbnailKey {
        ThumbnailKey(id: id(n), size: (try? ThumbnailSize(width: 4, height: 4)) ?? ThumbnailSize.fallback)
    }
    static func number(shownBy image: PixelImage) -> Int? {
        guard let p = image.pixel(x: 2, y: 2) else { return nil }
        return (0..<1000).first { colour($0) == (p.r, p.g, p.b) }
    }
}

extension ImageLoader.Configuration {
    /// No previews made from decodes: these tests are about the placeholders
    /// shown where no preview is known (ImageRequesterPreviewTests has the rest).
    static var placeholdersOnly: Self { .init(makesPreviews: false) }
}

extension ThumbnailSize {
    static var fallback: ThumbnailSize { try! ThumbnailSize(width: 1, height: 1) }
}

/// A source whose downloads each wait for the test to release them, by picture.
actor HeldSource: ImageSource {
    let backing: InMemoryImageSource
    var stored: Set<ImageID> = []
    private var held: [ImageID: [CheckedContinuation<Void, Never>]] = [:]
    private var released: Set<ImageID> = []
    private var waitingWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    init(backing: InMemoryImageSource) { self.backing = backing }

    func imageIDs() async throws(ImageSourceError) -> [ImageID] { try await backing.imageIDs() }
    func isStoredLocally(_ id: ImageID) async -> Bool { stored.contains(id) }
    func markStored(_ id: ImageID) { stored.insert(id) }

    /// Downloads waiting for release.
    var waitingCount: Int { held.values.reduce(0) { $0 + $1.count } }

    /// Returns once `count` downloads are waiting.
    func waitUntilWaiting(_ count: Int) async {
        guard waitingCount < count else { return }
        await withCheckedContinuation { waitingWaiters.append((count, $0)) }
    }

    func data(for id: ImageID) async throws(ImageSourceError) -> Data {
        if !released.contains(id) {
            await withCheckedContinuation { gate in
                held[id, default: []].append(gate)
                let waiting = waitingCount
                let ready = waitingWaiters.filter { $0.count <= waiting }
                waitingWaiters.removeAll { $0.count <= waiting }
                for waiter in ready { waiter.continuation.resume() }
            }
        }
        return try await backing.data(for: id)
    }

    func release(_ id: ImageID) {
        released.insert(id)
        for gate in held.removeValue(forKey: id) ?? [] { gate.resume() }
    }
}

/// A source whose one photo can be made to arrive broken.
actor FlakySource: ImageSource {
    let good: Data, broken: Data
    private var isBroken = false
    init(good: Data, broken: Data) { self.good = good; self.broken = broken }
    func breakIt() { isBroken = true }
    func imageIDs() async throws(ImageSourceError) -> [ImageID] { [Swatches.id(0)] }
    func isStoredLocally(_ id: ImageID) async -> Bool { false }
    func data(for id: ImageID) async throws(ImageSourceError) -> Data { isBroken ? broken : good }
}

/// Records what a target was told.
@MainActor
final class DisplayLog {
    private(set) var entries: [ImageDisplay] = []
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    func record(_ display: ImageDisplay) {
        entries.append(display)
        let count = entries.count
        let ready = waiters.filter { $0.count <= count }
        waiters.removeAll { $0.count <= count }
        for waiter in ready { waiter.continuation.resume() }
    }
    /// Returns once `count` entries are recorded.
    func waitForEntries(_ count: Int) async {
        guard entries.count < count else { return }
        await withCheckedContinuation { waiters.append((count, $0)) }
    }
    var last: ImageDisplay? { entries.last }
    var shownNumber: Int? {
        if case .image(let image, _) = last { return Swatches.number(shownBy: image) }
        return nil
    }
}

/// Every request has told its view its outcome: awaited, never polled, so
/// a busy machine makes the test slower, never wrong. A hang is turned into
/// a failure by the suite's time limit.
@MainActor
private func settle(_ requests: ImageRequester<Int>) async {
    await requests.waitUntilSettled()
}

@MainActor final class Wanted { var photos: [Int: Int] = [:] }
@MainActor final class Counter { var count = 0 }

@MainActor
@Suite("ImageRequester: photos into reused views", .timeLimit(.minutes(5)))
struct ImageRequesterTests {
    @Test("a download: the illustration first, then the photo with a 0.25 s cross-fade")
    func download() async {
        let loader = ImageLoader(source: Swatches.source(count: 4), decoder: PlatformImageDecoder(), configuration: .placeholdersOnly)
        let requests = ImageRequester<Int>(loader: loader)
        let log = DisplayLog()
        requests.load(Swatches.key(2), into: 0) { log.record($0) }
        #expect(log.entries == [.placeholder(.uncached)])
        await settle(requests)
        #expect(log.entries.count == 2)
        #expect(log.shownNumber == 2)
        if case .image(_, let fade) = log.last { #expect(fade == 0.25) } else { Issue.record("no image") }
    }

    @Test("a memory-cache hit is shown at once, with no placeholder and no fade")
    func memoryHit() async {
        let loader = ImageLoader(source: Swatches.source(count: 4), decoder: PlatformImageDecoder(), configuration: .placeholdersOnly)
        _ = try? await loader.image(for: Swatches.key(1))
        let requests = ImageRequester<Int>(loader: loader)
        let log = DisplayLog()
        requests.load(Swatches.key(1), into: 7) { log.record($0) }
        #expect(log.entries.count == 1)
        #expect(log.shownNumber == 1)
        if case .image(_, let fade) = log.last { #expect(fade == 0) } else { Issue.record("no image") }
        #expect(requests.pendingCount == 0)
    }

    @Test("with a source, the placeholder waits for its answer: black for a stored photo, the illustration for a download")
    func placeholderWaitsForTheSource() async {
        let source = HeldSource(backing: Swatches.source(count: 4))
        let requests = ImageRequester<Int>(loader: ImageLoader(source: source, decoder: PlatformImageDecoder(), configuration: .placeholdersOnly), source: source)
        let log = DisplayLog()
        requests.load(Swatches.key(2), into: 0) { log.record($0) }
        #expect(log.entries.isEmpty)
        await log.waitForEntries(1)
        #expect(log.entries == [.placeholder(.uncached)])
        await source.release(Swatches.id(2))
        await settle(requests)
        #expect(log.shownNumber == 2)
    }

    @Test("a photo stored on the device shows black, not the illustration")
    func storedPhoto() async {
        let source = HeldSource(backing: Swatches.source(count: 4))
        await source.markStored(Swatches.id(3))
        let requests = ImageRequester<Int>(loader: ImageLoader(source: source, decoder: PlatformImageDecoder(), configuration: .placeholdersOnly), source: source)
        let log = DisplayLog()
        requests.load(Swatches.key(3), into: 0) { log.record($0) }
        await source.release(Swatches.id(3))
        await settle(requests)
        // Nothing until the source answers, then black: the download illustration never flashes.
        #expect(log.entries.first == .placeholder(.cached))
        #expect(!log.entries.contains(.placeholder(.uncached)))
        #expect(log.entries.count == 2 && log.shownNumber == 3)
        // Once a photo has loaded, the next view asking for it at another size knows it is stored.
        let other = DisplayLog()
        let bigger = ThumbnailKey(id: Swatches.id(3), size: (try? ThumbnailSize(width: 6, height: 6)) ?? .fallback)
        requests.load(bigger, into: 1) { other.record($0) }
        #expect(other.entries.first == .placeholder(.cached))
        await settle(requests)
    }

    @Test("what is stored is learnt from the source, not from a download, and forgotten by reset")
    func storedKnowledge() async {
        let source = HeldSource(backing: Swatches.source(count: 4))
        await source.markStored(Swatches.id(1))
        for n in 0..<4 { await source.release(Swatches.id(n)) }
        let loader = ImageLoader(source: source, decoder: PlatformImageDecoder(), configuration: .placeholdersOnly)
        let requests = ImageRequester<Int>(loader: loader, source: source)
        let log = DisplayLog()
        requests.load(Swatches.key(1), into: 0) { log.record($0) }
        requests.load(Swatches.key(2), into: 1) { log.record($0) }
        await settle(requests)
        func size(_ side: Int) -> ThumbnailSize { (try? ThumbnailSize(width: side, height: side)) ?? .fallback }
        // Photo 1 is stored (the source said so): a new size knows at once. Photo 2 was only
        // downloaded: the source is asked again, nothing is shown before its answer.
        let first = DisplayLog(), second = DisplayLog()
        requests.load(ThumbnailKey(id: Swatches.id(1), size: size(5)), into: 2) { first.record($0) }
        requests.load(ThumbnailKey(id: Swatches.id(2), size: size(5)), into: 3) { second.record($0) }
        #expect(first.entries == [.placeholder(.cached)])
        #expect(second.entries.isEmpty)
        await settle(requests)
        // After a reset, photo 1 must be asked about again too.
        requests.reset()
        let third = DisplayLog()
        requests.load(ThumbnailKey(id: Swatches.id(1), size: size(6)), into: 4) { third.record($0) }
        #expect(third.entries.isEmpty)
        await settle(requests)
        #expect(third.entries.first == .placeholder(.cached) && third.shownNumber == 1)
    }

    @Test("a reused view never shows the photo it asked for before, whichever finishes first")
    func reuse() async {
        let source = HeldSource(backing: Swatches.source(count: 4))
        let loader = ImageLoader(source: source, decoder: PlatformImageDecoder(), configuration: .placeholdersOnly)
        let requests = ImageRequester<Int>(loader: loader)
        let log = DisplayLog()
        requests.load(Swatches.key(0), into: 5) { log.record($0) }
        requests.load(Swatches.key(1), into: 5) { log.record($0) }       // the cell is reused
        await source.release(Swatches.id(1))
        await settle(requests)
        #expect(log.shownNumber == 1)
        await source.release(Swatches.id(0))
        await loader.waitUntilIdle()
        await Task.yield()
        #expect(log.shownNumber == 1)
        #expect(log.entries.filter { if case .image = $0 { return true } else { return false } }.count == 1)
    }

    @Test("a cancelled view is told nothing more; reset cancels everything")
    func cancel() async {
        let source = HeldSource(backing: Swatches.source(count: 4))
        let loader = ImageLoader(source: source, decoder: PlatformImageDecoder(),
                                 configuration: .init(scrollAwayPolicy: .keepDownloading, makesPreviews: false))
        let requests = ImageRequester<Int>(loader: loader)
        let log = DisplayLog()
        requests.load(Swatches.key(2), into: 1) { log.record($0) }
        await source.waitUntilWaiting(1)                   // the download is under way…
        requests.cancel(1)                                 // …when the view is reused
        #expect(requests.pendingCount == 0 && requests.key(for: 1) == nil)
        await source.release(Swatches.id(2))
        await loader.waitUntilIdle()                       // the download finished (kept loading) and was cached…
        await Task.yield()
        #expect(loader.memoryCache.image(for: Swatches.key(2)) != nil)
        #expect(log.entries == [.placeholder(.uncached)])  // …but the cancelled view was told nothing

        requests.load(Swatches.key(3), into: 1) { log.record($0) }
        requests.load(Swatches.key(0), into: 2) { log.record($0) }
        requests.reset()
        #expect(requests.pendingCount == 0)
        await source.release(Swatches.id(3))
        await source.release(Swatches.id(0))
        await loader.waitUntilIdle()
        await Task.yield()
        #expect(log.entries.allSatisfy { if case .image = $0 { return false } else { return true } })
    }

    @Test("the same photo at a new size (rotation, layout switch) keeps showing the old one until the new one arrives")
    func resize() async {
        let source = HeldSource(backing: Swatches.source(count: 4))
        await source.release(Swatches.id(1))
        let requests = ImageRequester<Int>(loader: ImageLoader(source: source, decoder: PlatformImageDecoder(), configuration: .placeholdersOnly))
        let log = DisplayLog()
        requests.load(Swatches.key(1), into: 0) { log.record($0) }
        await settle(requests)
        let bigger = ThumbnailKey(id: Swatches.id(1), size: (try? ThumbnailSize(width: 7, height: 5)) ?? .fallback)
        requests.load(bigger, into: 0, replacing: Swatches.id(1)) { log.record($0) }
        await settle(requests)
        #expect(log.entries.count == 3)
        #expect(log.entries.filter { $0 == .placeholder(.uncached) }.count == 1)
        // The new size replaces the old one at once: a fade would blend the photo with itself.
        if case .image(let image, let fade) = log.last { #expect(image.width == 7 && image.height == 5 && fade == 0) } else { Issue.record("no image") }
        // Another photo in the same view does show a placeholder first.
        requests.load(Swatches.key(2), into: 0) { log.record($0) }
        #expect(log.entries.count == 4 && log.last == .placeholder(.uncached))
        await source.release(Swatches.id(2))
        await settle(requests)
    }

    @Test("a photo erased mid-download under a view that still wants it is asked for again, once")
    func erasedMidFlight() async {
        // A second per download: long enough that the erase comes while it is under way even on a busy
        // machine (an erase fails a download when its latency has passed, so the test waits that long).
        let server = SimulatedImageServer(backing: Swatches.source(count: 4),
                                          behavior: .init(latency: .seconds(1) ... .seconds(1), seed: 1))
        let loader = ImageLoader(source: server, decoder: PlatformImageDecoder(), configuration: .placeholdersOnly)
        let requests = ImageRequester<Int>(loader: loader, source: server)
        let log = DisplayLog()
        requests.load(Swatches.key(3), into: 0) { log.record($0) }
        await waitForDownload(on: server)
        await loader.eraseAll()
        await settle(requests)
        // Two placeholders: the first request's, and the retry's after the erase.
        #expect(log.entries.filter { if case .placeholder = $0 { return true } else { return false } }.count == 2)
        #expect(log.shownNumber == 3)
        #expect(!log.entries.contains { if case .failure = $0 { return true } else { return false } })
        #expect(requests.key(for: 0) == Swatches.key(3))

        // Erased again under the retry: once is all, then the failure shows, and nothing runs on.
        let again = DisplayLog()
        requests.load(Swatches.key(2), into: 1) { again.record($0) }
        await waitForDownload(on: server)
        await loader.eraseAll()
        // The retry's own placeholder, then its download.
        await again.waitForEntries(2)
        await waitForDownload(on: server)                 // the first one failed before the retry began
        await loader.eraseAll()
        await settle(requests)
        if case .failure = again.last {} else { Issue.record("expected the failure, got \(String(describing: again.last))") }
        #expect(requests.pendingCount == 0 && requests.key(for: 1) == Swatches.key(2))
    }

    /// Returns once `server` has a download under way.
    private func waitForDownload(on server: SimulatedImageServer) async {
        await server.waitUntilDownloading()
    }

    @Test("RolfHendriks' UICollectionView-Demo's resize: the placeholder again, then a fade (the gallery's behaviour)")
    func resizeShowingPlaceholder() async {
        let loader = ImageLoader(source: Swatches.source(count: 4), decoder: PlatformImageDecoder(), configuration: .placeholdersOnly)
        let requests = ImageRequester<Int>(loader: loader, resizeBehavior: .showsPlaceholder)
        let log = DisplayLog()
        requests.load(Swatches.key(1), into: 0) { log.record($0) }
        await settle(requests)
        let bigger = ThumbnailKey(id: Swatches.id(1), size: (try? ThumbnailSize(width: 7, height: 5)) ?? .fallback)
        requests.load(bigger, into: 0, replacing: Swatches.id(1)) { log.record($0) }
        // The placeholder again, although the view names the photo it shows: black, since the
        // in-memory source holds its photos on the device (the loader reported it read from there).
        #expect(log.last == .placeholder(.cached))
        await settle(requests)
        if case .image(let image, let fade) = log.last {
            #expect(image.width == 7 && fade == 0.25)
        } else {
            Issue.record("no image")
        }
    }

    @Test("a retry after a failure starts over with the placeholder, then shows the outcome once")
    func retryAfterFailure() async {
        let broken = InMemoryImageSource(images: [(Swatches.id(0), Data([0xFF, 0xD8, 0xFF, 0, 1, 2]))])
        let requests = ImageRequester<Int>(loader: ImageLoader(source: broken, decoder: PlatformImageDecoder(), configuration: .placeholdersOnly))
        let log = DisplayLog()
        requests.load(Swatches.key(0), into: 0) { log.record($0) }
        await settle(requests)
        if case .failure = log.last {} else { Issue.record("a broken photo fails") }
        let failures = log.entries.count
        requests.cancel(0)
        requests.load(Swatches.key(0), into: 0) { log.record($0) }
        #expect(log.last == .placeholder(.uncached))
        await settle(requests)
        if case .failure = log.last {} else { Issue.record("the retry fails again") }
        #expect(log.entries.count == failures + 2 && requests.pendingCount == 0)
    }

    @Test("a resize that fails keeps the photo at its old size, with no failure shown")
    func failedResize() async {
        let flaky = FlakySource(good: Swatches.data(0), broken: Data([0xFF, 0xD8, 0xFF, 0, 1, 2]))
        let requests = ImageRequester<Int>(loader: ImageLoader(source: flaky, decoder: PlatformImageDecoder(), configuration: .placeholdersOnly))
        let log = DisplayLog()
        requests.load(Swatches.key(0), into: 0) { log.record($0) }
        await settle(requests)
        #expect(log.shownNumber == 0)
        await flaky.breakIt()
        let bigger = ThumbnailKey(id: Swatches.id(0), size: (try? ThumbnailSize(width: 6, height: 6)) ?? .fallback)
        requests.load(bigger, into: 0, replacing: Swatches.id(0)) { log.record($0) }
        await settle(requests)
        #expect(log.entries.count == 2)                      // the placeholder and the first photo: nothing since
        #expect(log.shownNumber == 0)
        // A different photo in the same view is not a resize: its failure (the broken bytes) shows.
        requests.load(Swatches.key(1), into: 0) { log.record($0) }
        await settle(requests)
        if case .failure = log.last {} else { Issue.record("a missing photo fails") }
    }

    @Test("a picture that fails shows the failure, with the reason")
    func failure() async {
        let broken = InMemoryImageSource(images: [(Swatches.id(0), Data([0xFF, 0xD8, 0xFF, 0x00, 0x01]))])
        let requests = ImageRequester<Int>(loader: ImageLoader(source: broken, decoder: PlatformImageDecoder(), configuration: .placeholdersOnly))
        let log = DisplayLog()
        requests.load(Swatches.key(0), into: 0) { log.record($0) }
        await settle(requests)
        guard case .failure(let message) = log.last else {
            Issue.record("expected a failure, got \(String(describing: log.last))")
            return
        }
        #expect(!message.isEmpty)
        let missing = DisplayLog()
        requests.load(Swatches.key(9), into: 1) { missing.record($0) }
        await settle(requests)
        if case .failure = missing.last {} else { Issue.record("a missing picture must fail") }
    }

    @Test("a wait for the requests to settle ends when its task is cancelled; the request runs on, and a second wait still ends when it does")
    func aCancelledSettleWaitEnds() async {
        let source = HeldSource(backing: Swatches.source(count: 4))
        let loader = ImageLoader(source: source, decoder: PlatformImageDecoder(), configuration: .placeholdersOnly)
        let requests = ImageRequester<Int>(loader: loader, source: source)
        let log = DisplayLog()
        requests.load(Swatches.key(1), into: 0) { log.record($0) }
        await source.waitUntilWaiting(1)
        let cancelled = Task { @MainActor in await requests.waitUntilSettled() }
        let patient = Task { @MainActor in await requests.waitUntilSettled() }
        await Task.yield()                              // they ran before this (the main actor's queue): both wait
        cancelled.cancel()
        await cancelled.value                           // hangs (and the time limit fails it) if the cancel is ignored
        #expect(requests.pendingCount == 1)
        #expect(log.shownNumber == nil)
        await source.release(Swatches.id(1))
        await patient.value
        #expect(requests.pendingCount == 0)
        #expect(log.shownNumber == 1)

        // Cancelled before it starts: it returns at once.
        requests.load(Swatches.key(2), into: 1) { _ in }
        await source.waitUntilWaiting(1)
        let early = Task { @MainActor in
            withUnsafeCurrentTask { $0?.cancel() }
            await requests.waitUntilSettled()
        }
        await early.value
        #expect(requests.pendingCount == 1)
        await source.release(Swatches.id(2))
        await settle(requests)
    }

    @Test("random reuse: every view ends showing the photo it asked for last, and never any other")
    func randomReuse() async {
        let count = 30
        let loader = ImageLoader(source: SimulatedImageServer(
            backing: Swatches.source(count: count),
            behavior: .init(latency: .zero ... .milliseconds(3), seed: 9)), decoder: PlatformImageDecoder(), configuration: .placeholdersOnly)
        let requests = ImageRequester<Int>(loader: loader)
        var rng = SplitMix64(seed: 77)
        let wanted = Wanted()
        var logs: [Int: DisplayLog] = [:]
        let wrong = Counter()
        for step in 0..<600 {
            let view = Int.random(in: 0..<12, using: &rng)
            let photo = Int.random(in: 0..<count, using: &rng)
            wanted.photos[view] = photo
            let log = logs[view] ?? DisplayLog()
            logs[view] = log
            requests.load(Swatches.key(photo), into: view) { display in
                log.record(display)
                if case .image(let image, _) = display, Swatches.number(shownBy: image) != wanted.photos[view] {
                    wrong.count += 1
                }
            }
            if step % 25 == 0 { try? await Task.sleep(for: .milliseconds(1)) }
        }
        await settle(requests)
        #expect(wrong.count == 0)
        for (view, photo) in wanted.photos { #expect(logs[view]?.shownNumber == photo) }
    }
}
