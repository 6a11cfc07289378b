import Foundation
import Testing
@testable import ParallaxImages

/// A server whose photos can be edited, and whose version answers (an
/// HTTP `HEAD` each) can be held back or fail: photo n at edition e shows
/// ``Numbered`` picture n + 100 e, its version is "edition e".
actor EditableServer: ImageSource {
    private var editions: [Int: Int] = [:]
    private var isReachable = true
    private var isHolding = false
    private var held: [CheckedContinuation<Void, Never>] = []
    private var heldWaiters: [CheckedContinuation<Void, Never>] = []
    private(set) var versionRequests = 0
    /// The photos whose version was asked, in order.
    private(set) var versionsAsked: [Int] = []
    private(set) var downloads = 0

    func edit(_ n: Int) { editions[n, default: 0] += 1 }
    func setReachable(_ reachable: Bool) { isReachable = reachable }
    /// Version answers wait from now on until ``release()``.
    func hold() { isHolding = true }
    func release() {
        isHolding = false
        for waiter in held { waiter.resume() }
        held = []
    }

    /// Returns once a version request is held.
    func waitForAHeldRequest() async {
        if !held.isEmpty { return }
        await withCheckedContinuation { heldWaiters.append($0) }
    }

    private func picture(_ id: ImageID) -> Int { Numbered.number(of: id) + 100 * editions[Numbered.number(of: id), default: 0] }
    private func version(_ id: ImageID) -> String { "edition \(editions[Numbered.number(of: id), default: 0])" }

    func imageIDs() async throws(ImageSourceError) -> [ImageID] { (0..<8).map(Numbered.id) }
    func isStoredLocally(_ id: ImageID) async -> Bool { false }
    nonisolated var fingerprintNeedsRequest: Bool { true }

    func fingerprint(for id: ImageID) async -> String? {
        versionRequests += 1
        versionsAsked.append(Numbered.number(of: id))
        if isHolding {
            for waiter in heldWaiters { waiter.resume() }
            heldWaiters = []
            await withCheckedContinuation { held.append($0) }
        }
        return isReachable ? version(id) : nil
    }

    func data(for id: ImageID) async throws(ImageSourceError) -> Data { try await versionedData(for: id).data }

    func versionedData(for id: ImageID) async throws(ImageSourceError) -> (data: Data, fingerprint: String?) {
        guard isReachable else { throw .transferFailed(id, "unreachable") }
        downloads += 1
        let (r, g, b) = Numbered.colour(picture(id))
        return (PixelImage(width: 8, height: 8, filledWith: (r, g, b, 255)).pngData() ?? Data(), version(id))
    }
}

@Suite("Kept thumbnails of photos on a server: shown, then checked")
struct KeptThumbnailCheckTests {
    private func loader(_ server: EditableServer, cache: DiskImageCache, downloads: Int = 6,
                        check: ImageLoader.KeptThumbnailCheck = .afterShowing) -> ImageLoader {
        ImageLoader(source: server, diskCache: cache,
                    configuration: .init(maximumConcurrentDownloads: downloads, keptThumbnailCheck: check))
    }

    /// A first launch over `server`: `keys` loaded and kept on disk.
    private func keep(_ keys: [ThumbnailKey], of server: EditableServer, in cache: DiskImageCache) async throws {
        let first = loader(server, cache: cache)
        for key in keys { _ = try await first.image(for: key) }
        await first.waitUntilIdle()
    }

    @Test func theBookkeepingAsksOncePerPhotoAndJudgesEveryThumbnailShownWithTheAnswer() {
        var checks = KeptThumbnailChecks()
        let small = Numbered.key(1, side: 4), large = Numbered.key(1, side: 8), other = Numbered.key(2)
        #expect(checks.shown(small, madeFrom: "a") == .ask)
        #expect(checks.shown(large, madeFrom: "b") == .wait)           // another size, another version kept
        #expect(checks.shown(other, madeFrom: "a") == .ask)
        #expect(checks.pendingCount == 2)
        #expect(checks.answered(small.id, version: "a") == [large])    // only the other version is out of date
        #expect(checks.shown(small, madeFrom: "a") == .current)         // judged by the answer, no request
        #expect(checks.shown(large, madeFrom: "b") == .changed(to: "a"))
        #expect(checks.answered(other.id, version: nil).isEmpty)      // could not tell: what was shown stays
        #expect(checks.shown(other, madeFrom: "a") == .ask)             // and it is asked again next time
        #expect(checks.pendingCount == 1)
        checks.removeAll()
        #expect(checks.pendingCount == 0 && checks.shown(small, madeFrom: "a") == .ask)
    }

    /// A second launch shows what it kept before any version is asked: the
    /// answer is held here, and the thumbnails come anyway.
    @Test func aKeptThumbnailIsShownBeforeItsVersionIsAsked() async throws {
        let server = EditableServer(), cache = try DiskImageCache(directory: temporaryDirectory(), format: .raw)
        try await keep([Numbered.key(1), Numbered.key(2)], of: server, in: cache)
        #expect(await server.versionRequests == 0)                 // the downloads said their versions
        await server.hold()
        let second = loader(server, cache: cache)
        let shown = try await second.image(for: Numbered.key(1))
        #expect(shown.origin == .disk && Numbered.shows(shown.image, 1))
        await server.waitForAHeldRequest()
        #expect(await second.statistics.keptThumbnailChecksInFlight == 1)
        await server.release()
        await second.waitUntilIdle()
        let stats = await second.statistics
        #expect(stats.keptThumbnailsReplaced == 0 && stats.downloads == 0 && stats.keptThumbnailChecksInFlight == 0)
        #expect(await server.downloads == 2)                     // the first launch's two, nothing more
        #expect(await server.versionRequests == 1)
    }

    /// A photo edited on the server since: its kept thumbnail is shown,
    /// the check finds the new version, and the new thumbnail replaces it
    /// in memory and on disk, announced to whoever shows it.
    @Test func aPhotoChangedSinceIsLoadedAgainAndAnnounced() async throws {
        let server = EditableServer(), cache = try DiskImageCache(directory: temporaryDirectory(), format: .raw)
        try await keep([Numbered.key(1), Numbered.key(2)], of: server, in: cache)
        await server.edit(1)
        let second = loader(server, cache: cache)
        // The preview an app kept of the photo before its edit (made from the old thumbnail).
        let oldPreview = ThumbHash(encoding: PixelImage(width: 8, height: 8, filledWith: (1, 2, 3, 255)))
        second.previews.insert(oldPreview, for: Numbered.id(1))
        var replaced = second.replacedThumbnails().makeAsyncIterator()
        let old = try await second.image(for: Numbered.key(1))
        #expect(old.origin == .disk && Numbered.shows(old.image, 1))     // the old version, at once
        _ = try await second.image(for: Numbered.key(2))
        #expect(await replaced.next() == Numbered.key(1))
        let new = try #require(second.memoryCache.image(for: Numbered.key(1)))
        #expect(Numbered.shows(new, 101))
        // Its preview is the new thumbnail's, not the one kept of the old photo.
        #expect(second.previews.hash(for: Numbered.id(1)) == ThumbHash(encoding: new))
        await second.waitUntilIdle()
        let kept = try #require(await cache.latestImage(for: Numbered.key(1)))
        #expect(kept.fingerprint == "edition 1" && Numbered.shows(kept.image, 101))
        let stats = await second.statistics
        #expect(stats.keptThumbnailsReplaced == 1 && stats.downloads == 1)   // photo 2 was current
        #expect(await server.versionRequests == 2)
        // A request after the replacement gets the new one.
        #expect(Numbered.shows(try await second.image(for: Numbered.key(1)).image, 101))
    }

    /// Checks wait for a download slot behind all other work, and among
    /// themselves go by the viewport: a thumbnail shown on screen is
    /// checked before one preloaded ahead of it, whichever came first.
    @Test func checksOfWhatIsOnScreenGoFirst() async throws {
        let server = EditableServer(), cache = try DiskImageCache(directory: temporaryDirectory(), format: .raw)
        try await keep([1, 2, 3].map { Numbered.key($0) }, of: server, in: cache)
        await server.hold()
        let second = loader(server, cache: cache, downloads: 1)
        _ = try await second.image(for: Numbered.key(1), priority: .visible)
        await server.waitForAHeldRequest()                                // its check holds the one slot
        _ = try await second.image(for: Numbered.key(2), priority: .prefetch)
        _ = try await second.image(for: Numbered.key(3), priority: .visible)
        _ = await second.statistics { $0.downloadsWaiting == 2 }
        await server.release()
        await second.waitUntilIdle()
        #expect(await server.versionsAsked == [1, 3, 2])
    }

    /// Two sizes of one photo shown from the disk cache: its version is
    /// asked once, and both are replaced.
    @Test func everySizeShownOfAChangedPhotoIsReplacedAfterOneRequest() async throws {
        let server = EditableServer(), cache = try DiskImageCache(directory: temporaryDirectory(), format: .raw)
        let small = Numbered.key(3, side: 4), large = Numbered.key(3, side: 8)
        try await keep([small, large], of: server, in: cache)
        await server.edit(3)
        await server.hold()
        let second = loader(server, cache: cache)
        var replaced = second.replacedThumbnails().makeAsyncIterator()
        _ = try await second.image(for: small)
        await server.waitForAHeldRequest()
        _ = try await second.image(for: large)                       // shown while the answer is held
        await server.release()
        let keys = [await replaced.next(), await replaced.next()]
        #expect(Set(keys.compactMap { $0 }) == [small, large])
        #expect(await server.versionRequests == 1)
        #expect(Numbered.shows(try #require(second.memoryCache.image(for: large)), 103))
        await second.waitUntilIdle()
    }

    /// A server that cannot be reached: the kept thumbnails are still shown,
    /// and stay (the check could not tell), with no failure.
    @Test func anUnreachableServerStillShowsWhatWasKept() async throws {
        let server = EditableServer(), cache = try DiskImageCache(directory: temporaryDirectory(), format: .raw)
        try await keep([Numbered.key(4)], of: server, in: cache)
        await server.setReachable(false)
        let second = loader(server, cache: cache)
        let shown = try await second.image(for: Numbered.key(4))
        #expect(shown.origin == .disk && Numbered.shows(shown.image, 4))
        await second.waitUntilIdle()
        let stats = await second.statistics
        #expect(stats.failures == 0 && stats.keptThumbnailsReplaced == 0 && stats.diskHits == 1)
        #expect(second.memoryCache.image(for: Numbered.key(4)).map { Numbered.shows($0, 4) } == true)
    }

    /// Checked before showing: an out-of-date thumbnail is never shown; the
    /// new version comes instead, with one version request and one download.
    @Test func checkedBeforeShowingAnOldVersionIsNeverShown() async throws {
        let server = EditableServer(), cache = try DiskImageCache(directory: temporaryDirectory(), format: .raw)
        try await keep([Numbered.key(5), Numbered.key(6)], of: server, in: cache)
        await server.edit(5)
        let second = loader(server, cache: cache, check: .beforeShowing)
        let changed = try await second.image(for: Numbered.key(5))
        #expect(changed.origin == .network && Numbered.shows(changed.image, 105))
        let current = try await second.image(for: Numbered.key(6))
        #expect(current.origin == .disk && Numbered.shows(current.image, 6))
        await second.waitUntilIdle()
        #expect(await server.versionRequests == 2)
        #expect(await server.downloads == 3)
        #expect(await second.statistics.keptThumbnailsReplaced == 0)
    }

    /// A reload while a check is asked: its answer is dropped, nothing is
    /// replaced, and the loader still goes idle.
    @Test func aReloadDuringACheckForgetsItsAnswer() async throws {
        let server = EditableServer(), cache = try DiskImageCache(directory: temporaryDirectory(), format: .raw)
        try await keep([Numbered.key(7)], of: server, in: cache)
        await server.edit(7)
        await server.hold()
        let second = loader(server, cache: cache)
        _ = try await second.image(for: Numbered.key(7))
        await server.waitForAHeldRequest()
        await second.reloadAll()
        await server.release()
        await second.waitUntilIdle()
        let stats = await second.statistics
        #expect(stats.keptThumbnailsReplaced == 0 && stats.keptThumbnailChecksInFlight == 0 && stats.downloads == 0)
    }
}
