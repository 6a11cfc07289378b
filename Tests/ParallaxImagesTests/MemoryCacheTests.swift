import Foundation
import ParallaxCore
import Testing
@testable import ParallaxImages

@Suite("Memory cache")
struct MemoryCacheTests {
    @Test func evictsLeastRecentlyUsedByCost() {
        let cache = MemoryImageCache(limits: .init(costLimit: 3 * 64))       // three 4×4 images
        for name in ["a", "b", "c"] { cache.insert(solidImage(4, 1), for: key(name)) }
        _ = cache.image(for: key("a"))                                        // a is now the most recent
        cache.insert(solidImage(4, 2), for: key("d"))
        #expect(cache.contains(key("a")) && !cache.contains(key("b")) && cache.contains(key("c")) && cache.contains(key("d")))
        #expect(cache.totalCost == 192 && cache.count == 3)
    }

    @Test func countLimitAndOversizedImages() {
        let cache = MemoryImageCache(limits: .init(costLimit: 10_000, countLimit: 2))
        for name in ["a", "b", "c"] { cache.insert(solidImage(2, 1), for: key(name)) }
        #expect(cache.count == 2 && !cache.contains(key("a")))
        cache.insert(solidImage(100, 1), for: key("huge"))                   // 40,000 bytes > limit: not stored
        #expect(!cache.contains(key("huge")) && cache.count == 2)
        cache.insert(solidImage(2, 9), for: key("b"))                         // replacing keeps the count
        #expect(cache.count == 2 && cache.image(for: key("b"))?.pixels.first == 9)
        cache.trim(toFraction: 0)
        #expect(cache.count == 0 && cache.totalCost == 0)
        cache.insert(solidImage(2, 1), for: key("x"))
        cache.removeAll()
        #expect(cache.count == 0 && cache.image(for: key("x")) == nil)
    }

    @Test func neverExceedsItsLimitsUnderRandomUse() {
        var rng = SplitMix64(seed: 4)
        let cache = MemoryImageCache(limits: .init(costLimit: 5_000, countLimit: 40))
        for _ in 0..<20_000 {
            let name = "k\(rng.next() % 200)"
            switch rng.next() % 4 {
            case 0, 1: cache.insert(solidImage(Int(rng.next() % 12) + 1, 3), for: key(name))
            case 2: _ = cache.image(for: key(name))
            default: cache.removeImage(for: key(name))
            }
            #expect(cache.totalCost <= 5_000 && cache.count <= 40)
        }
    }
}
