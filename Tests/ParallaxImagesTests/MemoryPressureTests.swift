import Foundation
import Testing
@testable import ParallaxImages

/// Under memory pressure the loader gives back what it can make again,
/// least recently used first, and keeps what it cannot (preview hashes).
struct MemoryPressureTests {
    /// A loader over twelve photos whose memory cache holds ten 16 × 12 thumbnails.
    static func loader() throws -> (ImageLoader, [ThumbnailKey]) {
        let images = (0..<12).map { index in
            (ImageID("photo-\(index).png"), TestImages.png(width: 64, height: 48, rgba: [UInt8](repeating: UInt8(index * 20), count: 64 * 48 * 4)))
        }
        let thumbnail = 16 * 12 * 4
        let loader = ImageLoader(source: InMemoryImageSource(images: images),
                                 memoryCache: MemoryImageCache(limits: .init(costLimit: 10 * thumbnail)),
                                 configuration: .init(returnsMemoryWhenIdle: false))
        let size = try ThumbnailSize(width: 16, height: 12)
        return (loader, images.map { ThumbnailKey(id: $0.0, size: size) })
    }

    @Test func inTheBackgroundATenthIsKeptTheMostRecentlyUsed() async throws {
        let (loader, keys) = try Self.loader()
        for key in keys { _ = try await loader.image(for: key) }
        #expect(loader.memoryCache.totalCost == 10 * 16 * 12 * 4)
        await loader.relieve(.background)
        #expect(loader.memoryCache.totalCost == 16 * 12 * 4)
        #expect(loader.memoryCache.contains(keys[11]))
        #expect(!loader.memoryCache.contains(keys[10]))
        // What was let go of loads again.
        _ = try await loader.image(for: keys[3])
        #expect(loader.memoryCache.contains(keys[3]))
    }

    @Test func underCriticalPressureEveryPictureGoesAndEveryHashStays() async throws {
        let (loader, keys) = try Self.loader()
        for key in keys { _ = try await loader.image(for: key) }
        let hash = ThumbHash(encoding: PixelImage(width: 8, height: 8, filledWith: (200, 40, 40, 255)))
        loader.previews.insert(hash, for: keys[0].id)
        let rendered = try #require(loader.previews.image(for: keys[0].id))
        #expect(loader.previews.renderedCost > 0)
        await loader.relieve(.critical)
        #expect(loader.memoryCache.totalCost == 0)
        #expect(loader.previews.renderedCost == 0)
        #expect(loader.previews.hash(for: keys[0].id) == hash)
        #expect(loader.previews.image(for: keys[0].id) == rendered, "rendered again from the kept hash")
        #if canImport(Glibc)
        // Only this call returns memory: the loader is told not to when idle.
        #expect(await loader.statistics.memoryReturns == 1, "freed memory handed back to the system")
        #endif
    }
}
