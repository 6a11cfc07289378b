import Foundation
import Testing
@testable import ParallaxCore
@testable import ParallaxLayout

/// Sides a file or a server may claim: ordinary ones, and the extremes
/// (0, 1, `Int32.max`, `greatestFiniteMagnitude`, infinity, NaN, negative).
func extremeSide(using rng: inout SplitMix64) -> CGFloat {
    switch Int.random(in: 0..<10, using: &rng) {
    case 0: return 0
    case 1: return 1
    case 2: return CGFloat(Int32.max)
    case 3: return .greatestFiniteMagnitude
    case 4: return .infinity
    case 5: return .nan
    case 6: return -CGFloat.random(in: 1...1000, using: &rng)
    case 7: return CGFloat(Int.random(in: 1...Int(Int32.max), using: &rng))
    default: return .random(in: 300...4000, using: &rng)
    }
}

@Suite("Item aspect ratio")
struct ItemAspectRatioTests {
    @Test func clampsIntoTheRangeAndRefusesWhatIsNoRatio() {
        #expect(ItemAspectRatio.range == (1.0 / 64)...64)
        #expect(ItemAspectRatio.clamped(1.5) == 1.5)
        #expect(ItemAspectRatio.clamped(1000) == 64)
        #expect(ItemAspectRatio.clamped(.infinity) == 64)
        #expect(ItemAspectRatio.clamped(1e-9) == 1.0 / 64)
        #expect(ItemAspectRatio.clamped(0) == nil)
        #expect(ItemAspectRatio.clamped(-2) == nil)
        #expect(ItemAspectRatio.clamped(.nan) == nil)
        #expect(ItemAspectRatio.of(CGSize(width: 1, height: CGFloat(Int32.max))) == 1.0 / 64)
        #expect(ItemAspectRatio.of(CGSize(width: CGFloat.greatestFiniteMagnitude, height: 1)) == 64)
        #expect(ItemAspectRatio.of(CGSize(width: CGFloat.infinity, height: 3)) == 64)
        #expect(ItemAspectRatio.of(CGSize(width: CGFloat.infinity, height: .infinity)) == nil)
        #expect(ItemAspectRatio.of(CGSize(width: 0, height: 3)) == nil)
        #expect(ItemAspectRatio.of(CGSize(width: CGFloat.nan, height: 3)) == nil)
    }

    /// Whatever sizes arrive, every waterfall tile is finite and its length
    /// within 1/64 … 64 column widths; the content is finite; a query finds
    /// each item once.
    @Test func waterfallTilesStayBoundedWhateverTheSizes() throws {
        var rng = SplitMix64(seed: 2_147_483_647)
        for _ in 0..<200 {
            let sizes = (0..<Int.random(in: 1...60, using: &rng)).map { _ in
                CGSize(width: extremeSide(using: &rng), height: extremeSide(using: &rng))
            }
            var configuration = WaterfallConfiguration()
            if Bool.random(using: &rng) { configuration.axis = .horizontal }
            let container = CGSize(width: .random(in: 200...1600, using: &rng), height: .random(in: 200...1000, using: &rng))
            let waterfall = try WaterfallLayout(configuration: configuration, itemSizes: sizes, containerSize: container)
            #expect(waterfall.contentSize.width.isFinite && waterfall.contentSize.height.isFinite)
            let breadth = waterfall.columnWidth
            for item in sizes.indices {
                let frame = try #require(waterfall.frame(of: ItemIndex(item: item)))
                let length = configuration.axis.main(frame.size)
                #expect(frame.minX.isFinite && frame.minY.isFinite && length.isFinite)
                #expect(length >= breadth / 64 * 0.999_999 && length <= breadth * 64 * 1.000_001)
            }
            var seen = Set<Int>()
            waterfall.forEachItem(in: CGRect(origin: .zero, size: waterfall.contentSize)) { index, _ in
                #expect(seen.insert(index.item).inserted)
            }
            #expect(seen.count == sizes.count)
        }
    }

    @Test func anExtremeShapeIsReportedAsClamped() throws {
        let waterfall = try WaterfallLayout(configuration: WaterfallConfiguration(columns: .fixed(2)),
                                            itemSizes: [CGSize(width: 1, height: CGFloat(Int32.max)), CGSize(width: 4, height: 3)],
                                            containerSize: CGSize(width: 400, height: 800))
        #expect(waterfall.diagnostics == [.clampedAspectRatio(ItemIndex(item: 0), "1.0×2147483647.0")])
        #expect(waterfall.frame(of: ItemIndex(item: 0))?.height == waterfall.columnWidth * 64)
    }
}
