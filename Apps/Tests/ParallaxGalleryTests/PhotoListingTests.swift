// The gallery draws through SDL2, which it uses on Linux only.
#if canImport(CSDL2)
import Foundation
import ParallaxImages
import Testing
@testable import ParallaxGallery

/// ``PhotoListing``: the listing's events taken a frame's worth at a time,
/// against the events sent, over seeded random listings.
@MainActor
struct PhotoListingTests {
    /// A listing whose events have all arrived.
    func finishedListing(_ events: [ListingEvent]) async -> PhotoListing {
        let listing = PhotoListing()
        listing.start(AsyncStream(bufferingPolicy: .unbounded) { continuation in
            for event in events { continuation.yield(event) }
            continuation.finish()
        })
        await listing.waitUntilFinished()
        return listing
    }

    /// The events as text, one string per photo or other event, in order.
    func flattened(_ events: [ListingEvent]) -> [String] {
        events.flatMap { event -> [String] in
            switch event {
            case .photos(let photos): return photos.map(\.id.rawValue)
            case .removed(let ids): return ["removed " + ids.map(\.rawValue).joined(separator: ",")]
            case .finished: return ["finished"]
            case .failed(let message): return ["failed " + message]
            case .expecting(let count): return ["expecting \(count)"]
            }
        }
    }

    func photoCount(_ events: [ListingEvent]) -> Int {
        events.reduce(0) { count, event in
            if case .photos(let photos) = event { return count + photos.count }
            return count
        }
    }

    @Test func aFramesWorthIsTakenAtATimeInOrderAndNothingIsLostOrRepeated() async {
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<200 {
            var events: [ListingEvent] = [], number = 0
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                switch Int.random(in: 0..<6, using: &generator) {
                case 0:
                    events.append(.removed([ImageID("gone-\(number)")]))
                    number += 1
                case 1:
                    events.append(.expecting(Int.random(in: 0...1_000, using: &generator)))
                default:
                    let count = Int.random(in: 0...40, using: &generator)
                    events.append(.photos((0..<count).map { FoundPhoto(id: ImageID("p\(number + $0)")) }))
                    number += count
                }
            }
            events.append(.finished(FolderScan.Report()))
            let listing = await finishedListing(events)
            let maximum = Int.random(in: 1...30, using: &generator)
            var taken: [ListingEvent] = []
            while listing.hasArrivals {
                let first = Bool.random(using: &generator)
                let step = listing.takeArrivals(first: first, maximumPhotos: maximum)
                #expect(!step.isEmpty, "events wait, yet none were taken")
                #expect(photoCount(step) <= maximum)
                if first {
                    // Up to the first batch of photos, with the events before it.
                    let batches = step.indices.filter { if case .photos = step[$0] { true } else { false } }
                    #expect(batches.count <= 1)
                    if let batch = batches.first { #expect(batch == step.count - 1) }
                }
                taken += step
            }
            #expect(flattened(taken) == flattened(events))
            #expect(listing.takeArrivals().isEmpty)
        }
    }

    @Test func aLargeBatchIsSplitAndItsRestComesFirstNextTime() async {
        let ids = (0..<10).map { ImageID("p\($0)") }
        let listing = await finishedListing([
            .photos(ids.prefix(3).map { FoundPhoto(id: $0) }),
            .photos(ids[3..<8].map { FoundPhoto(id: $0) }),
            .removed([ids[0]]),
            .photos(ids[8...].map { FoundPhoto(id: $0) }),
            .finished(FolderScan.Report()),
        ])
        #expect(flattened(listing.takeArrivals(maximumPhotos: 4)) == ["p0", "p1", "p2", "p3"])
        #expect(flattened(listing.takeArrivals(maximumPhotos: 4)) == ["p4", "p5", "p6", "p7"])
        #expect(flattened(listing.takeArrivals(maximumPhotos: 4)) == ["removed p0", "p8", "p9", "finished"])
        #expect(!listing.hasArrivals)
    }

    @Test func theFirstScreensBatchComesWithTheCountBeforeIt() async {
        let ids = (0..<6).map { ImageID("p\($0)") }
        let listing = await finishedListing([
            .expecting(6),
            .photos(ids.prefix(4).map { FoundPhoto(id: $0) }),
            .photos(ids.suffix(2).map { FoundPhoto(id: $0) }),
            .finished(FolderScan.Report()),
        ])
        // A count alone would leave the first screen for the next frame.
        #expect(flattened(listing.takeArrivals(first: true, maximumPhotos: 100)) == ["expecting 6", "p0", "p1", "p2", "p3"])
        #expect(flattened(listing.takeArrivals(first: true, maximumPhotos: 100)) == ["p4", "p5"])
        #expect(flattened(listing.takeArrivals(first: true, maximumPhotos: 100)) == ["finished"])
    }

    /// The first frame waits for photos: it returns once they are there
    /// (already, or arriving while it waits), once the listing ends without
    /// any, and once its task is cancelled (the window's bound on the wait).
    @Test func theFirstFrameWaitsForPhotosOrTheEnd() async {
        // Photos there before the wait.
        let listed = await finishedListing([.expecting(2), .photos([FoundPhoto(id: ImageID("a"))]), .finished(FolderScan.Report())])
        await listed.waitForPhotos()
        #expect(flattened(listed.takeArrivals(first: true)) == ["expecting 2", "a"])

        // Photos arriving while it waits, after a count and an empty batch.
        let (events, continuation) = AsyncStream.makeStream(of: ListingEvent.self, bufferingPolicy: .unbounded)
        let streaming = PhotoListing()
        streaming.start(events)
        continuation.yield(.expecting(1))
        continuation.yield(.photos([]))
        let waiter = Task { await streaming.waitForPhotos() }
        continuation.yield(.photos([FoundPhoto(id: ImageID("b"))]))
        await waiter.value
        #expect(flattened(streaming.takeArrivals()).contains("b"))
        #expect(streaming.isListing)
        continuation.finish()

        // A listing that ends without photos, and one never started.
        let empty = await finishedListing([.expecting(0), .photos([]), .finished(FolderScan.Report())])
        await empty.waitForPhotos()
        await PhotoListing().waitForPhotos()

        // A wait cancelled while nothing comes.
        let (silent, silence) = AsyncStream.makeStream(of: ListingEvent.self, bufferingPolicy: .unbounded)
        let quiet = PhotoListing()
        quiet.start(silent)
        let cancelled = Task { await quiet.waitForPhotos() }
        cancelled.cancel()
        await cancelled.value
        #expect(quiet.isListing)
        silence.finish()
    }
}
#endif
