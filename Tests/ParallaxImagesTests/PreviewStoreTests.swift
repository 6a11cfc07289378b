import Testing
@testable import ParallaxImages

/// ``PreviewStore``: filing hashes in bulk, with room made beforehand.
struct PreviewStoreTests {
    func hash(_ shade: UInt8) -> ThumbHash {
        ThumbHash(encoding: PixelImage(width: 8, height: 8, filledWith: (shade, 255 - shade, 40, 255)))
    }

    @Test func roomMadeBeforehandKeepsEveryHashFiledAfter() {
        let store = PreviewStore()
        store.reserveCapacity(1_000)
        store.reserveCapacity(10)                      // less than made: nothing is lost or shrunk
        let hashes = (0..<1_000).map { (id: ImageID("photo-\($0)"), hash: hash(UInt8($0 % 256))) }
        store.insert(contentsOf: hashes)
        #expect(store.count == 1_000)
        for entry in hashes { #expect(store.hash(for: entry.id) == entry.hash) }
        store.reserveCapacity(5_000)                   // growing keeps what is filed
        #expect(store.count == 1_000)
        #expect(store.hash(for: ImageID("photo-999")) == hashes[999].hash)
    }
}
