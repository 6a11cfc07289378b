import Foundation
import ParallaxCore
import ParallaxHosting
import ParallaxImages
import Testing

@Suite("ConvertedImageCache: a picture is converted once per decoded image, whatever the views")
struct ConvertedImageCacheTests {
    /// A "converted picture": the number of the conversion that made it.
    final class Counter: @unchecked Sendable { var made = 0 }

    func image(_ n: Int, side: Int = 8) -> PixelImage {
        let (r, g, b) = Swatches.colour(n)
        return PixelImage(width: side, height: side, filledWith: (r, g, b, 255))
    }

    @Test("copies of one image (the loader's, a cell's, a view made again) share one conversion")
    func oneConversionPerImage() {
        let cache = ConvertedImageCache<Int>(costLimit: 1 << 20)
        let counter = Counter()
        let convert = { (_: PixelImage) -> Int? in counter.made += 1; return counter.made }
        let original = image(1)
        var pictures: [Int?] = []
        for _ in 0..<100 {
            let copy = original                                 // what a view built again holds
            pictures.append(cache.picture(of: copy, convert: convert, cost: { _ in 256 }))
        }
        #expect(Set(pictures.compactMap { $0 }) == [1])
        #expect(counter.made == 1 && cache.conversions == 1)
        // Equal pixels in another buffer are another image (identity, not value).
        #expect(cache.picture(of: image(1), convert: convert, cost: { _ in 256 }) == 2)
        // An empty image converts to nothing and is not kept.
        #expect(cache.picture(of: PixelImage(width: 0, height: 0), convert: convert, cost: { _ in 1 }) == nil)
        #expect(cache.count == 2)
    }

    @Test("bounded by cost, least recently used first; an entry keeps its image, so an address never names another")
    func bounded() {
        let cache = ConvertedImageCache<Int>(costLimit: 1000)
        let images = (0..<10).map { image($0) }
        for (n, picture) in images.enumerated() {
            _ = cache.picture(of: picture, convert: { _ in n }, cost: { _ in 300 })
            if n >= 1 { _ = cache.picture(of: images[0], convert: { _ in -1 }, cost: { _ in 300 }) }   // keep 0 in use
        }
        #expect(cache.count == 3 && cache.currentCost == 900)
        #expect(cache.picture(of: images[0], convert: { _ in -1 }, cost: { _ in 300 }) == 0)
        #expect(cache.picture(of: images[9], convert: { _ in -1 }, cost: { _ in 300 }) == 9)
        #expect(cache.picture(of: images[8], convert: { _ in -1 }, cost: { _ in 300 }) == 8)
        // Too large to keep: converted, not cached.
        #expect(cache.picture(of: image(99), convert: { _ in 99 }, cost: { _ in 5000 }) == 99)
        #expect(cache.count == 3)
        cache.removeAll()
        #expect(cache.count == 0 && cache.currentCost == 0)
    }

    @Test("seeded random churn: a hit always returns its own image's picture")
    func neverAnotherPicture() {
        var rng = SplitMix64(seed: 11)
        let cache = ConvertedImageCache<Int>(costLimit: 4096)
        for _ in 0..<3000 {
            // Images come and go (their buffers are freed and reused by new ones).
            let n = Int.random(in: 0..<500, using: &rng)
            let picture = image(n, side: Int.random(in: 3...6, using: &rng))
            let shown = cache.picture(of: picture, convert: { Swatches.number(shownBy: $0) ?? -1 }, cost: { _ in 256 })
            #expect(shown == Swatches.number(shownBy: picture))
            #expect(cache.currentCost <= 4096)
        }
    }
}
