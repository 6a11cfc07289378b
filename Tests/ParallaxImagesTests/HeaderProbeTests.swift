import Foundation
import Testing
@testable import ParallaxImages

/// A source whose header reads wait until the test lets them go (or, not
/// `gated`, answer at once), recording the order they were asked for.
actor GatedHeaderSource: ImageSource {
    let images: [ImageID: Data]
    private(set) var asked: [ImageID] = []
    private var gates: [CheckedContinuation<Void, Never>] = []
    private var askWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    let isGated: Bool

    init(images: [ImageID: Data], gated: Bool = true) {
        self.images = images
        isGated = gated
    }

    func imageIDs() async throws(ImageSourceError) -> [ImageID] { images.keys.sorted() }
    func data(for id: ImageID) async throws(ImageSourceError) -> Data {
        guard let data = images[id] else { throw .notFound(id) }
        return data
    }
    func isStoredLocally(_ id: ImageID) async -> Bool { true }
    func header(for id: ImageID) async throws(ImageSourceError) -> ImageHeader {
        asked.append(id)
        let ready = askWaiters.filter { $0.count <= asked.count }
        askWaiters.removeAll { $0.count <= asked.count }
        for waiter in ready { waiter.continuation.resume() }
        if isGated { await withCheckedContinuation { gates.append($0) } }
        guard let data = images[id] else { throw .notFound(id) }
        return try ImageHeader.read(wholeFile: data, of: id)
    }

    /// Returns once `count` reads have been asked for.
    func waitForAsks(_ count: Int) async {
        guard asked.count < count else { return }
        await withCheckedContinuation { askWaiters.append((count, $0)) }
    }

    /// Headers to hand out as ``listedHeaders()``, as a manifest would.
    var listed: [ImageID: ImageHeader] = [:]

    func setListed(_ headers: [ImageID: ImageHeader]) { listed = headers }

    func listedHeaders() async -> [ImageID: ImageHeader] { listed }

    /// Lets every waiting read finish.
    func open() {
        let waiting = gates
        gates = []
        for gate in waiting { gate.resume() }
    }
}

@Suite("Header probe", .timeLimit(.minutes(5)))
struct HeaderProbeTests {
    static func photos(_ count: Int) -> [ImageID: Data] {
        Dictionary(uniqueKeysWithValues: (0..<count).map { index in
            (ImageID(String(format: "p%03d.jpg", index)),
             jpegWithMetadata(width: 10 + index, height: 40 - index % 20, comment: 0))
        })
    }

    /// A source that lists sizes with its names: those are published at
    /// once, with no read; only the photos it gave no size for are read.
    @Test func listedHeadersArePublishedAtOnceAndOnlyTheOthersAreRead() async throws {
        let images = Self.photos(12)
        let source = GatedHeaderSource(images: images)
        let ids = images.keys.sorted()
        var listed: [ImageID: ImageHeader] = [:]
        for id in ids.prefix(9) { listed[id] = try ImageHeader.read(wholeFile: images[id]!, of: id) }
        await source.setListed(listed)
        let probe = HeaderProbe(source: source)
        await probe.probe(ids)
        for id in ids.prefix(9) { #expect(await probe.header(for: id) == listed[id]) }
        #expect(await probe.knownCount == 9)
        await source.waitForAsks(3)
        #expect(Set(await source.asked) == Set(ids.suffix(3)), "only the unlisted photos are read")
        await source.open()
        await probe.waitUntilIdle()
        let asked = await source.asked
        #expect(await probe.knownCount == 12 && asked.count == 3)
        var published: [ImageID] = []
        for await batch in probe.updates {
            published += batch.map(\.id)
            if published.count >= 12 { break }
        }
        #expect(published.count == 12)
        #expect(Set(published) == Set(ids) && Set(published.prefix(9)) == Set(ids.prefix(9)), "the listed ones first")
    }

    @Test func everyPhotosShapeArrivesOnceAndTheStreamSaysSo() async throws {
        let images = Self.photos(40)
        let probe = HeaderProbe(source: InMemoryImageSource(images: images.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        let ids = images.keys.sorted()
        await probe.probe(Array(ids.prefix(25)))
        await probe.probe(ids)                                  // the rest arrives; the first 25 are not read twice
        await probe.waitUntilIdle()
        #expect(await probe.knownCount == 40)
        for (index, id) in ids.enumerated() {
            let header = await probe.header(for: id)
            #expect(header?.width == 10 + index && header?.height == 40 - index % 20)
        }
        var updates = 0
        for await batch in probe.updates {
            for update in batch { #expect(images[update.id] != nil) }
            updates += batch.count
            if updates >= 40 { break }
        }
        #expect(updates == 40)
    }

    /// A probe that keeps no headers publishes each once, forgets it, and
    /// still reads no photo twice, however often it is asked.
    @Test func aProbeKeepingNoHeadersPublishesEachOnceAndReadsNoneTwice() async throws {
        let images = Self.photos(30)
        let ids = images.keys.sorted()
        let source = GatedHeaderSource(images: images, gated: false)
        let probe = HeaderProbe(source: source, keepingHeaders: false)
        await probe.probe(Array(ids.prefix(20)))
        await probe.probe(ids)                                  // the first 20 again, queued or being read
        await probe.prioritize(Array(ids.prefix(5)))
        var published: [ImageID: ImageHeader] = [:]
        for await batch in probe.updates {
            for update in batch {
                #expect(published[update.id] == nil, "\(update.id) published twice")
                published[update.id] = try update.result.get()
            }
            if published.count >= 30 { break }
        }
        await probe.probe(ids)                                  // every one read: nothing to read again
        await probe.prioritize(ids)
        await probe.waitUntilIdle()
        let reads = await source.asked
        #expect(reads.count == 30 && Set(reads) == Set(ids))
        #expect(await probe.knownCount == 30)
        for id in ids {
            #expect(published[id] == (try ImageHeader.read(wholeFile: images[id]!, of: id)))
            #expect(await probe.header(for: id) == nil, "kept \(id)")
        }
    }

    /// A probe that forgets what it read holds only the photos queued and
    /// being read: nothing once idle. Asked again, it reads again; told to
    /// put first a photo it read, or one never asked for, it does nothing.
    @Test func aProbeForgettingReadsHoldsOnlyWhatIsQueued() async throws {
        let images = Self.photos(30)
        let ids = images.keys.sorted()
        let source = GatedHeaderSource(images: images, gated: false)
        let probe = HeaderProbe(source: source, keepingHeaders: false, rememberingReads: false)
        #expect(!probe.remembersReads)
        await probe.probe(Array(ids.prefix(20)))
        #expect(await probe.heldCount > 0)
        var published: [ImageID] = []
        for await batch in probe.updates {
            published += batch.map(\.id)
            if published.count >= 20 { break }
        }
        await probe.waitUntilIdle()
        #expect(Set(published) == Set(ids.prefix(20)) && published.count == 20)
        #expect(await probe.heldCount == 0)
        await probe.prioritize([ids[3], ids[25]])                 // one read, one never asked for
        await probe.waitUntilIdle()
        #expect(await source.asked.count == 20)
        await probe.probe([ids[3]])                               // asked again: read again
        await probe.waitUntilIdle()
        #expect(await source.asked.count == 21)
        #expect(await probe.knownCount == 21)
        #expect(await probe.heldCount == 0)

        // A probe keeping headers remembers them whatever it is told.
        #expect(HeaderProbe(source: source, keepingHeaders: true, rememberingReads: false).remembersReads)
    }

    @Test func whatIsOnScreenIsReadFirst() async throws {
        let images = Self.photos(30)
        let source = GatedHeaderSource(images: images)
        let probe = HeaderProbe(source: source, maximumConcurrentReads: 1)
        let ids = images.keys.sorted()
        await probe.probe(ids)
        await source.waitForAsks(1)                             // p000 is being read
        await probe.prioritize([ids[20], ids[21], ids[0]])      // scrolled to 20…21; p000 is under way: not again
        for _ in 0..<3 {
            await source.open()
            await source.waitForAsks(await source.asked.count + 1)
        }
        #expect(Array(await source.asked.prefix(4)) == [ids[0], ids[20], ids[21], ids[1]])
        // One read at a time: each let go, the next is asked for.
        while case let asked = await source.asked.count, asked < 30 {
            await source.open()
            await source.waitForAsks(asked + 1)
        }
        await source.open()
        await probe.waitUntilIdle()
        #expect(await source.asked.count == 30, "every photo read once")

        // A photo being read is not queued again, at any concurrency.
        let again = GatedHeaderSource(images: images)
        let wide = HeaderProbe(source: again, maximumConcurrentReads: 4)
        await wide.probe([ids[5]])
        await again.waitForAsks(1)
        await wide.prioritize([ids[5], ids[5]])
        await wide.probe([ids[5]])
        await again.open()
        await wide.waitUntilIdle()
        #expect(await again.asked == [ids[5]])
    }

    @Test func aPhotoWithoutAHeaderIsAFailureOnceNotARetry() async throws {
        let probe = HeaderProbe(source: InMemoryImageSource(images: [("ok.jpg", jpegWithMetadata(width: 8, height: 4, comment: 0)),
                                                                     ("notes.txt", Data("text".utf8))]))
        await probe.probe(["ok.jpg", "notes.txt", "missing.jpg"])
        await probe.waitUntilIdle()
        await probe.probe(["notes.txt", "missing.jpg"])          // known failures are not queued again
        await probe.waitUntilIdle()
        #expect(await probe.header(for: "ok.jpg")?.width == 8)
        #expect(await probe.failure(for: "missing.jpg") == .notFound("missing.jpg"))
        guard case .unreadable? = await probe.failure(for: "notes.txt") else {
            Issue.record("notes.txt: \(String(describing: await probe.failure(for: "notes.txt")))")
            return
        }
        #expect(await probe.knownCount == 1)
    }
}
