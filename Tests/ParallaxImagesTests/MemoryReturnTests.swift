#if canImport(Glibc)
import Foundation
import Testing
@testable import ParallaxImages

/// A loader idle after decoding gives the memory its decodes freed back to
/// the system (glibc's `malloc_trim`), once per idle moment, and never when
/// told not to.
struct MemoryReturnTests {
    static func loader(_ configuration: ImageLoader.Configuration) -> (ImageLoader, ThumbnailKey) {
        let png = TestImages.png(width: 64, height: 48, rgba: [UInt8](repeating: 180, count: 64 * 48 * 4))
        let loader = ImageLoader(source: InMemoryImageSource(images: [("a.png", png)]), configuration: configuration)
        return (loader, ThumbnailKey(id: "a.png", size: (try? ThumbnailSize(width: 16, height: 12)) ?? ThumbnailSize.tiny))
    }

    @Test func anIdleLoaderGivesBackWhatItsDecodesFreed() async throws {
        #expect(FreeMemory.isAvailable)
        let (loader, key) = Self.loader(.init(idleDelayBeforeReturningMemory: .zero))
        _ = try await loader.image(for: key)
        let statistics = await loader.statistics { $0.memoryReturns == 1 }
        #expect(statistics.memoryReturns == 1 && statistics.decodes == 1)
    }

    @Test func aLoaderThatNeverIdlesGivesItBackEverySoManyDecodes() async throws {
        // An idle moment would come only after an hour: every return here is the busy one.
        let sizes = (1...5).map { (try? ThumbnailSize(width: 16 + $0, height: 12)) ?? ThumbnailSize.tiny }
        let (loader, key) = Self.loader(.init(idleDelayBeforeReturningMemory: .seconds(3_600), decodesBetweenMemoryReturns: 2))
        for size in sizes { _ = try await loader.image(for: ThumbnailKey(id: key.id, size: size)) }
        let statistics = await loader.statistics { $0.memoryReturns == 2 }
        #expect(statistics.decodes == 5 && statistics.memoryReturns == 2)
    }

    @Test func aLoaderToldNotToKeepsItsMemory() async throws {
        let (loader, key) = Self.loader(.init(returnsMemoryWhenIdle: false, idleDelayBeforeReturningMemory: .zero,
                                              decodesBetweenMemoryReturns: 1))
        _ = try await loader.image(for: key)
        await loader.waitUntilIdle()
        // Never scheduled: nothing can come later.
        #expect(await loader.statistics.memoryReturns == 0)
    }
}

extension ThumbnailSize {
    static var tiny: ThumbnailSize { ThumbnailSize(uncheckedWidth: 1, height: 1, mode: .fill) }
}
#endif
