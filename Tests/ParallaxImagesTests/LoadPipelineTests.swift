import Foundation
import Testing
@testable import ParallaxImages

/// The pipeline's stages alone, with a stand-in for the loader's slots
/// that records what was taken and given back.
@Suite("Load pipeline")
struct LoadPipelineTests {
    /// Slots that are always free (or refused, as to cancelled work, for
    /// the stages in `refused`), noting every acquire and release in order.
    actor RecordingSlots: LoadSlots {
        private let refused: Set<LoadStage>
        private(set) var events: [String] = []

        init(refusing refused: Set<LoadStage> = []) { self.refused = refused }

        func acquire(_ stage: LoadStage) async -> SlotGrant? {
            events.append("acquire \(stage)")
            return refused.contains(stage) ? nil : .urgent
        }

        func release(_ stage: LoadStage, _ grant: SlotGrant) async { events.append("release \(stage)") }
    }

    /// A remote source: nothing stored locally, and a fingerprint that costs
    /// a request (an HTTP `HEAD`), as an HTTP source's, which a download
    /// also gives (its `ETag`). `version` is added to every fingerprint.
    struct RemoteSource: ImageSource {
        let backing: InMemoryImageSource
        var version = ""
        func imageIDs() async throws(ImageSourceError) -> [ImageID] { try await backing.imageIDs() }
        func data(for id: ImageID) async throws(ImageSourceError) -> Data { try await backing.data(for: id) }
        func isStoredLocally(_ id: ImageID) async -> Bool { false }
        func fingerprint(for id: ImageID) async -> String? { await backing.fingerprint(for: id).map { $0 + version } }
        var fingerprintNeedsRequest: Bool { true }
        func versionedData(for id: ImageID) async throws(ImageSourceError) -> (data: Data, fingerprint: String?) {
            (try await data(for: id), await fingerprint(for: id))
        }
    }

    private func pipeline(_ source: any ImageSource, diskCache: DiskImageCache? = nil,
                          check: ImageLoader.KeptThumbnailCheck = .beforeShowing) -> LoadPipeline {
        LoadPipeline(source: source, decoder: PlatformImageDecoder(), diskCache: diskCache,
                     clock: ContinuousClock(), loadTime: LoadTimeAverage(), keptThumbnailCheck: check)
    }

    /// The download slot is held until the decode slot is granted: fetched
    /// bytes waiting for a decode count against the downloads, so they can
    /// never pile up faster than they are decoded.
    @Test func aDownloadTakesADownloadSlotThenADecodeSlot() async throws {
        let slots = RecordingSlots()
        let loadTime = LoadTimeAverage()
        let pipeline = LoadPipeline(source: RemoteSource(backing: Numbered.source(count: 2)), decoder: PlatformImageDecoder(),
                                    diskCache: nil, clock: ContinuousClock(), loadTime: loadTime)
        let output = try await pipeline.run(Numbered.key(1), slots: slots).get()
        #expect(Numbered.shows(output.loaded.image, 1) && output.loaded.origin == .network)
        #expect(output.wasDecoded && output.fingerprint == nil)                 // no disk cache: no fingerprint asked
        #expect(await slots.events == ["acquire download", "acquire decode", "release download", "release decode"])
        #expect(loadTime.value != nil)
    }

    @Test func aPictureStoredLocallyDecodesAsADiskLoad() async throws {
        let output = try await pipeline(Numbered.source(count: 2)).run(Numbered.key(0), slots: RecordingSlots()).get()
        #expect(output.loaded.origin == .disk && output.wasDecoded)
    }

    @Test func aFingerprintThatCostsARequestHoldsTheDownloadSlotItTook() async throws {
        let disk = try DiskImageCache(directory: temporaryDirectory(), format: .raw)
        let source = RemoteSource(backing: Numbered.source(count: 2))
        let pipeline = pipeline(source, diskCache: disk)
        // A miss with nothing kept: no version asked, the download's own is filed; a download slot, then a decode slot.
        let missSlots = RecordingSlots()
        let decoded = try await pipeline.run(Numbered.key(1), slots: missSlots).get()
        let fingerprint = await source.fingerprint(for: Numbered.id(1))
        #expect(decoded.wasDecoded && fingerprint != nil && decoded.fingerprint == fingerprint)
        #expect(await missSlots.events == ["acquire download", "acquire decode", "release download", "release decode"])
        // Once the thumbnail is kept under that fingerprint: a hit gives the slot back, and nothing decodes.
        await disk.store(decoded.loaded.image, for: Numbered.key(1), fingerprint: decoded.fingerprint ?? "")
        let hitSlots = RecordingSlots()
        let hit = try await pipeline.run(Numbered.key(1), slots: hitSlots).get()
        #expect(hit.loaded.origin == .disk && !hit.wasDecoded && Numbered.shows(hit.loaded.image, 1))
        #expect(hit.uncheckedVersion == nil)
        #expect(await hitSlots.events == ["acquire download", "release download"])
        // The picture changed since: the slot the version took is kept for the download.
        var changedSource = source
        changedSource.version = " edited"
        let changedSlots = RecordingSlots()
        let changed = try await self.pipeline(changedSource, diskCache: disk).run(Numbered.key(1), slots: changedSlots).get()
        #expect(changed.wasDecoded && changed.fingerprint == (fingerprint ?? "") + " edited")
        #expect(await changedSlots.events == ["acquire download", "acquire decode", "release download", "release decode"])
    }

    /// Checked after showing: a kept thumbnail is the hit at once, with the
    /// version it was made from to check, and takes no slot.
    @Test func aKeptThumbnailIsAHitWithItsVersionToCheck() async throws {
        let disk = try DiskImageCache(directory: temporaryDirectory(), format: .raw)
        let source = RemoteSource(backing: Numbered.source(count: 2), version: " new")
        await disk.store(PixelImage(width: 4, height: 4, filledWith: (9, 8, 7, 255)), for: Numbered.key(0), fingerprint: "old")
        let slots = RecordingSlots()
        let hit = try await pipeline(source, diskCache: disk, check: .afterShowing).run(Numbered.key(0), slots: slots).get()
        #expect(hit.loaded.origin == .disk && !hit.wasDecoded && hit.loaded.image.pixels.prefix(3) == [9, 8, 7])
        #expect(hit.uncheckedVersion == "old" && hit.fingerprint == "old")
        #expect(await slots.events.isEmpty)
        // Given the version just asked, only a thumbnail of it is taken: here none, so the picture loads again.
        let reload = try await pipeline(source, diskCache: disk, check: .afterShowing)
            .run(Numbered.key(0), version: "newer", slots: RecordingSlots()).get()
        #expect(reload.wasDecoded && reload.uncheckedVersion == nil && Numbered.shows(reload.loaded.image, 0))
        #expect(reload.fingerprint == (await source.fingerprint(for: Numbered.id(0))))   // the download's own version
    }

    @Test func aLocalFingerprintTakesNoSlot() async throws {
        let disk = try DiskImageCache(directory: temporaryDirectory(), format: .raw)
        let source = Numbered.source(count: 2)
        let key = Numbered.key(0)
        await disk.store(PixelImage(width: 4, height: 4, filledWith: (1, 2, 3, 255)), for: key,
                         fingerprint: await source.fingerprint(for: key.id) ?? "")
        let slots = RecordingSlots()
        let lookup = await pipeline(source, diskCache: disk).lookUpDiskCache(key, isStoredLocally: true, slots: slots)
        guard case .hit(let output) = lookup else {
            Issue.record("expected a hit, got \(lookup)")
            return
        }
        #expect(output.loaded.image.pixels.prefix(3) == [1, 2, 3])
        #expect(await slots.events.isEmpty)
    }

    @Test func cancelledWhileWaitingForASlotEndsWithNothingHeld() async throws {
        let source = RemoteSource(backing: Numbered.source(count: 2))
        let slots = RecordingSlots(refusing: [.decode])
        let result = await pipeline(source).run(Numbered.key(1), slots: slots)
        #expect(throws: ImageLoadingError.cancelled) { try result.get() }
        #expect(await slots.events == ["acquire download", "acquire decode", "release download"])
        // Refused at the fingerprint's request: not even the fetch is asked for.
        let disk = try DiskImageCache(directory: temporaryDirectory(), format: .raw)
        let early = RecordingSlots(refusing: [.download])
        let refused = await pipeline(source, diskCache: disk).run(Numbered.key(1), slots: early)
        #expect(throws: ImageLoadingError.cancelled) { try refused.get() }
        #expect(await early.events == ["acquire download"])
    }

    @Test func failuresGiveBackTheSlotTheyHeld() async throws {
        let broken = InMemoryImageSource(images: [("bad.png", Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]))])
        let size = try ThumbnailSize(width: 4, height: 4)
        // A fetch that fails never asks for a decode slot.
        let missing = RecordingSlots()
        let notFound = await pipeline(broken).run(ThumbnailKey(id: "nope.png", size: size), slots: missing)
        #expect(throws: ImageLoadingError.source(.notFound("nope.png"))) { try notFound.get() }
        #expect(await missing.events == ["acquire download", "release download"])
        // A decode that fails gives its slot back.
        let damaged = RecordingSlots()
        let undecodable = await pipeline(broken).run(ThumbnailKey(id: "bad.png", size: size), slots: damaged)
        #expect(throws: ImageLoadingError.self) { try undecodable.get() }
        #expect(await damaged.events == ["acquire download", "acquire decode", "release download", "release decode"])
    }

    @Test func theLoadTimeAverageMovesAFifthOfTheWayToEachLoad() {
        let average = LoadTimeAverage()
        #expect(average.value == nil)
        func seconds() -> Double {
            average.value.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 } ?? .nan
        }
        average.record(.milliseconds(300))
        #expect(abs(seconds() - 0.3) < 1e-12)
        average.record(.milliseconds(800))
        #expect(abs(seconds() - 0.4) < 1e-12)                               // 0.3 + 0.2 · (0.8 − 0.3)
    }
}
