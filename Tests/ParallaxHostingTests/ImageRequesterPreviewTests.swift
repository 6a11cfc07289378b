import Foundation
import ParallaxHosting
import ParallaxImages
import Testing

/// Previews through the requester: a photo whose ThumbHash is known shows
/// its preview at once (with or without a source to ask), the thumbnail
/// then fades over it, a view rebound to another photo never keeps the
/// first photo's preview, and a photo decoded once has a preview from then on.
@MainActor
@Suite("ImageRequester: previews", .timeLimit(.minutes(5)))
struct ImageRequesterPreviewTests {
    /// A hash of swatch `n`'s colour.
    static func hash(_ n: Int) -> ThumbHash {
        let (r, g, b) = Swatches.colour(n)
        return ThumbHash(encoding: PixelImage(width: 8, height: 8, filledWith: (r, g, b, 255)))
    }

    static func previewColour(_ display: ImageDisplay?) -> (UInt8, UInt8, UInt8)? {
        guard case .placeholder(.preview(let image))? = display, let pixel = image.pixel(x: 1, y: 1) else { return nil }
        return (pixel.r, pixel.g, pixel.b)
    }

    @Test("a known preview is shown at once, even where the source would be asked first, then the photo fades over it")
    func aKnownPreviewComesFirst() async throws {
        let source = HeldSource(backing: Swatches.source(count: 4))
        let loader = ImageLoader(source: source, decoder: PlatformImageDecoder())
        loader.previews.insert(Self.hash(2), for: Swatches.id(2))
        let requests = ImageRequester<Int>(loader: loader, source: source)
        let log = DisplayLog()
        requests.load(Swatches.key(2), into: 0) { log.record($0) }
        #expect(log.entries.count == 1)
        let colour = try #require(Self.previewColour(log.last))
        let (r, g, b) = Swatches.colour(2)
        #expect(abs(Int(colour.0) - Int(r)) <= 6 && abs(Int(colour.1) - Int(g)) <= 6 && abs(Int(colour.2) - Int(b)) <= 6)
        await source.release(Swatches.id(2))
        await requests.waitUntilSettled()
        #expect(log.entries.count == 2)
        #expect(log.shownNumber == 2)
        if case .image(_, let fade) = log.last { #expect(fade == 0.25) } else { Issue.record("no image") }
    }

    @Test("a view rebound to a photo without a preview is told that photo's placeholder, never the first photo's preview")
    func rebindingNeverKeepsAnotherPhotosPreview() async {
        let source = HeldSource(backing: Swatches.source(count: 4))
        let loader = ImageLoader(source: source, decoder: PlatformImageDecoder())
        loader.previews.insert(Self.hash(1), for: Swatches.id(1))
        let requests = ImageRequester<Int>(loader: loader)
        let log = DisplayLog()
        requests.load(Swatches.key(1), into: 0) { log.record($0) }
        requests.load(Swatches.key(3), into: 0) { log.record($0) }
        #expect(log.entries.count == 2)
        #expect(log.last == .placeholder(.uncached))
        await source.release(Swatches.id(1))
        await source.release(Swatches.id(3))
        await requests.waitUntilSettled()
        #expect(log.shownNumber == 3)
        #expect(log.entries.count == 3)
    }

    @Test("a decoded photo has a preview from then on: asked for at another size, it shows it at once")
    func aDecodedPhotoHasAPreview() async throws {
        let loader = ImageLoader(source: Swatches.source(count: 4), decoder: PlatformImageDecoder())
        #expect(loader.previews.hash(for: Swatches.id(3)) == nil)
        _ = try await loader.image(for: Swatches.key(3))
        let made = loader.previews.takeMadeHashes()
        #expect(made.map(\.id) == [Swatches.id(3)])
        #expect(loader.previews.takeMadeHashes().isEmpty)
        let requests = ImageRequester<Int>(loader: loader)
        let log = DisplayLog()
        let larger = ThumbnailKey(id: Swatches.id(3), size: try ThumbnailSize(width: 6, height: 6))
        requests.load(larger, into: 0) { log.record($0) }
        let colour = try #require(Self.previewColour(log.entries.first))
        let (r, g, b) = Swatches.colour(3)
        #expect(abs(Int(colour.0) - Int(r)) <= 6 && abs(Int(colour.1) - Int(g)) <= 6 && abs(Int(colour.2) - Int(b)) <= 6)
        await requests.waitUntilSettled()
        #expect(log.shownNumber == 3)
    }

    @Test("a hash from the app wins over one the loader makes, and erasing everything forgets them")
    func theAppsHashWins() async throws {
        let loader = ImageLoader(source: Swatches.source(count: 4), decoder: PlatformImageDecoder())
        loader.previews.insert(Self.hash(0), for: Swatches.id(1))
        _ = try await loader.image(for: Swatches.key(1))
        #expect(loader.previews.hash(for: Swatches.id(1)) == Self.hash(0))
        #expect(loader.previews.takeMadeHashes().isEmpty)
        await loader.eraseAll()
        #expect(loader.previews.count == 0)
    }

    @Test("a photo's embedded thumbnail shows once read, before the photo, which then fades in over it")
    func anEmbeddedThumbnailComesBeforeThePhoto() async throws {
        let source = EmbeddingSource(backing: HeldSource(backing: Swatches.source(count: 4)))
        let loader = ImageLoader(source: source, decoder: PlatformImageDecoder(), configuration: .init(makesPreviews: false))
        let requests = ImageRequester<Int>(loader: loader)
        let log = DisplayLog()
        requests.load(Swatches.key(1), into: 0) { log.record($0) }
        #expect(log.entries.first == .placeholder(.uncached))
        await log.waitForEntries(2)
        let colour = try #require(Self.previewColour(log.entries[1]))
        #expect(colour == (200, 30, 30))                          // the embedded picture, not the photo (swatch 1)
        await source.backing.release(Swatches.id(1))
        await requests.waitUntilSettled()
        #expect(log.entries.count == 3 && log.shownNumber == 1)
        if case .image(_, let fade) = log.last { #expect(fade == 0.25) } else { Issue.record("no image") }
        // Filed: the photo at another size shows it at once.
        let again = DisplayLog()
        requests.load(ThumbnailKey(id: Swatches.id(1), size: try ThumbnailSize(width: 6, height: 6)), into: 1) { again.record($0) }
        #expect(Self.previewColour(again.entries.first).map { $0 == (200, 30, 30) } == true)
        await source.backing.release(Swatches.id(1))
        await requests.waitUntilSettled()
    }
    @Test("an embedded thumbnail shown before the source says whether the photo is stored is not replaced by a placeholder")
    func aPreviewOutlivesTheSourcesLateAnswer() async throws {
        let gated = StoreGatedSource(backing: EmbeddingSource(backing: HeldSource(backing: Swatches.source(count: 4))))
        let loader = ImageLoader(source: gated, decoder: PlatformImageDecoder(), configuration: .init(makesPreviews: false))
        let requests = ImageRequester<Int>(loader: loader, source: gated)
        let log = DisplayLog()
        requests.load(Swatches.key(2), into: 0) { log.record($0) }
        #expect(log.entries.isEmpty)                              // the placeholder waits for the source's answer
        await log.waitForEntries(1)
        #expect(Self.previewColour(log.entries[0]).map { $0 == (200, 30, 30) } == true)
        await gated.answer()                                     // "not stored": the illustration would show now
        await gated.backing.backing.release(Swatches.id(2))
        await requests.waitUntilSettled()
        #expect(log.entries.count == 2, "preview, then the photo: no placeholder between")
        #expect(log.shownNumber == 2)
    }
}

/// A source whose answer to "is it stored?" waits for the test.
actor StoreGatedSource: ImageSource {
    let backing: EmbeddingSource
    private var answered = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    init(backing: EmbeddingSource) { self.backing = backing }
    func imageIDs() async throws(ImageSourceError) -> [ImageID] { try await backing.imageIDs() }
    func data(for id: ImageID) async throws(ImageSourceError) -> Data { try await backing.data(for: id) }
    func embeddedThumbnail(for id: ImageID) async -> EmbeddedThumbnail? { await backing.embeddedThumbnail(for: id) }
    func isStoredLocally(_ id: ImageID) async -> Bool {
        if !answered { await withCheckedContinuation { waiting.append($0) } }
        return false
    }
    func answer() {
        answered = true
        for continuation in waiting { continuation.resume() }
        waiting = []
    }
}

/// A held source whose every photo embeds a flat (200, 30, 30) thumbnail.
struct EmbeddingSource: ImageSource {
    let backing: HeldSource
    func imageIDs() async throws(ImageSourceError) -> [ImageID] { try await backing.imageIDs() }
    func data(for id: ImageID) async throws(ImageSourceError) -> Data { try await backing.data(for: id) }
    func isStoredLocally(_ id: ImageID) async -> Bool { false }
    func embeddedThumbnail(for id: ImageID) async -> EmbeddedThumbnail? {
        PixelImage(width: 4, height: 4, filledWith: (200, 30, 30, 255)).pngData().map { EmbeddedThumbnail(data: $0, orientation: .up) }
    }
}
