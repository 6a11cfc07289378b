import Foundation
import ParallaxCore
import ParallaxHosting
import ParallaxLayout
import Testing

@Suite("CollectionLayoutState: what the UICollectionViewLayout decides")
struct CollectionLayoutStateTests {
    let portrait = CGSize(width: 390, height: 844)
    let landscape = CGSize(width: 844, height: 390)
    let insets = EdgeInsets(top: 91, bottom: 34)

    func viewport(_ size: CGSize, _ y: CGFloat, insets: EdgeInsets = EdgeInsets(top: 91, bottom: 34)) -> ScrollViewport {
        ScrollViewport(size: size, contentOffset: CGPoint(x: 0, y: y), insets: insets)
    }

    @Test("built once per size and item counts; scrolling never rebuilds, a new size or count does")
    func rebuilds() {
        var state = CollectionLayoutState(builder: CollectionLayoutState.grid())
        let first = state.prepare(containerSize: portrait, itemCounts: [1000])
        let same = state.prepare(containerSize: portrait, itemCounts: [1000])
        #expect(first && !same)
        let scrolled = CGRect(origin: CGPoint(x: 0, y: 5000), size: portrait)
        let onScroll = state.shouldInvalidateLayout(forBoundsChangeFrom: viewport(portrait, 0), to: scrolled, isUserScrolling: false)
        let onRotate = state.shouldInvalidateLayout(forBoundsChangeFrom: viewport(portrait, 0), to: CGRect(origin: .zero, size: landscape), isUserScrolling: false)
        #expect(!onScroll && onRotate)
        let rotated = state.prepare(containerSize: landscape, itemCounts: [1000])
        let inserted = state.prepare(containerSize: landscape, itemCounts: [1001])
        state.invalidateContents()
        let invalidated = state.prepare(containerSize: landscape, itemCounts: [1001])
        #expect(rotated && inserted && invalidated)
        #expect(state.buildCount == 4)
    }

    @Test("rotation keeps the first visible item where it was on screen")
    func rotationKeepsPlace() throws {
        var state = CollectionLayoutState(builder: CollectionLayoutState.grid())
        state.prepare(containerSize: portrait, itemCounts: [1000])
        let before = viewport(portrait, 3000)
        let anchor = try #require(state.anchor(in: before))
        let rotates = state.shouldInvalidateLayout(forBoundsChangeFrom: before, to: CGRect(origin: before.contentOffset, size: landscape), isUserScrolling: false)
        #expect(rotates)
        state.prepare(containerSize: landscape, itemCounts: [1000])
        let offset = state.targetContentOffset(forProposed: before.contentOffset, in: viewport(landscape, 3000))
        let after = viewport(landscape, offset.y)
        // The same item, the same distance below the bars (other items of its new row may now come first).
        let frame = try #require(state.layout?.frame(of: anchor.index))
        #expect(abs(frame.minY - (offset.y + insets.top) - anchor.distance) < 1e-9)
        // The anchor is used once: a later proposal is only clamped.
        let later = state.targetContentOffset(forProposed: CGPoint(x: 0, y: 1234), in: after)
        #expect(later == CGPoint(x: 0, y: 1234))
    }

    @Test("UIKit's own offset changes around a rotation keep the remembered place")
    func rotationWithOffsetAdjustments() throws {
        var state = CollectionLayoutState(builder: CollectionLayoutState.grid())
        state.prepare(containerSize: portrait, itemCounts: [1000])
        let before = viewport(portrait, 3000)
        let anchor = try #require(state.anchor(in: before))
        _ = state.shouldInvalidateLayout(forBoundsChangeFrom: before, to: CGRect(origin: before.contentOffset, size: landscape),
                                         isUserScrolling: false)
        state.prepare(containerSize: landscape, itemCounts: [1000])
        // UIKit adjusts the offset for the new insets before it proposes one: not the user.
        _ = state.shouldInvalidateLayout(forBoundsChangeFrom: viewport(landscape, 3000), to: CGRect(x: 0, y: 2970, width: 844, height: 390),
                                         isUserScrolling: false)
        let offset = state.targetContentOffset(forProposed: CGPoint(x: 0, y: 2970), in: viewport(landscape, 2970))
        let frame = try #require(state.layout?.frame(of: anchor.index))
        #expect(abs(frame.minY - (offset.y + insets.top) - anchor.distance) < 1e-9)
    }

    @Test("a place remembered before a resize is forgotten when the user scrolls first, or at another size")
    func stalePlaces() throws {
        var state = CollectionLayoutState(builder: CollectionLayoutState.grid())
        state.prepare(containerSize: portrait, itemCounts: [1000])
        let before = viewport(portrait, 3000)
        _ = state.shouldInvalidateLayout(forBoundsChangeFrom: before, to: CGRect(origin: before.contentOffset, size: landscape), isUserScrolling: false)
        state.prepare(containerSize: landscape, itemCounts: [1000])
        // No proposal came (a plain resize); the user scrolls; a later reload proposes an offset.
        _ = state.shouldInvalidateLayout(forBoundsChangeFrom: viewport(landscape, 3000), to: CGRect(x: 0, y: 900, width: 844, height: 390), isUserScrolling: true)
        let afterScroll = state.targetContentOffset(forProposed: CGPoint(x: 0, y: 900), in: viewport(landscape, 900))
        #expect(afterScroll == CGPoint(x: 0, y: 900))

        _ = state.shouldInvalidateLayout(forBoundsChangeFrom: viewport(landscape, 900), to: CGRect(x: 0, y: 900, width: 390, height: 844), isUserScrolling: false)
        state.prepare(containerSize: portrait, itemCounts: [1000])
        // The proposal arrives for yet another size (a second resize already happened): not applied.
        let elsewhere = state.targetContentOffset(forProposed: CGPoint(x: 0, y: 700), in: viewport(CGSize(width: 500, height: 700), 700))
        #expect(elsewhere == CGPoint(x: 0, y: 700))
    }

    @Test("switching grid → list keeps the top photo, whichever layout object it comes from")
    func layoutSwitch() throws {
        var grid = CollectionLayoutState(builder: CollectionLayoutState.grid(.grid))
        grid.prepare(containerSize: portrait, itemCounts: [500])
        let seen = viewport(portrait, 2600)
        let anchor = try #require(grid.anchor(in: seen))
        var list = CollectionLayoutState(builder: CollectionLayoutState.grid(.list))
        list.prepare(containerSize: portrait, itemCounts: [500])
        list.keepPlace(of: anchor)
        let offset = list.targetContentOffset(forProposed: seen.contentOffset, in: seen)
        let kept = try #require(list.anchor(in: viewport(portrait, offset.y)))
        #expect(kept.index == anchor.index)
        #expect(abs(kept.distance - anchor.distance) < 1e-9)

        // A switch that ended without a proposal leaves nothing behind for a later reload.
        list.keepPlace(of: anchor)
        list.forgetPendingPlace()
        let later = list.targetContentOffset(forProposed: CGPoint(x: 0, y: 50), in: viewport(portrait, 50))
        #expect(later == CGPoint(x: 0, y: 50))
    }

    @Test("the anchor among another layout's visible items is the anchor of the layout itself")
    func foreignAnchor() throws {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<300 {
            let width = CGFloat.random(in: 200...1200, using: &rng)
            let layout = try GridLayout(configuration: .grid, itemCount: Int.random(in: 0...3000, using: &rng),
                                        containerSize: CGSize(width: width, height: 800))
            let seen = ScrollViewport(size: CGSize(width: width, height: 800),
                                      contentOffset: CGPoint(x: 0, y: CGFloat.random(in: -100...40_000, using: &rng)),
                                      insets: EdgeInsets(top: CGFloat.random(in: 0...100, using: &rng)))
            let shuffled = layout.items(in: seen.visibleRect).shuffled(using: &rng)
            #expect(PlaceKeeping.anchor(among: shuffled, axis: .vertical, viewport: seen)
                        == PlaceKeeping.anchor(in: layout, viewport: seen))
        }
    }

    @Test("snapping: a fling rests on a row under the bars; a still release or a disabled snap keeps the proposal")
    func snapping() throws {
        var state = CollectionLayoutState(builder: CollectionLayoutState.grid(.list))
        state.prepare(containerSize: portrait, itemCounts: [200])
        let layout = try #require(state.layout)
        let seen = viewport(portrait, 0)
        let proposed = CGPoint(x: 0, y: 4321)
        let rested = state.targetContentOffset(forProposed: proposed, velocity: CGPoint(x: 0, y: 2), in: seen)
        let rowTop = rested.y + insets.top
        #expect(layout.restingPosition(nearest: rowTop) == rowTop)
        #expect(abs(rested.y - proposed.y) <= (195 + 8) / 2 + 1e-9)
        #expect(state.targetContentOffset(forProposed: proposed, velocity: .zero, in: seen) == proposed)
        state.isSnappingEnabled = false
        #expect(state.targetContentOffset(forProposed: proposed, velocity: CGPoint(x: 0, y: 2), in: seen) == proposed)
    }

    @Test("a configuration the layout refuses gives no layout and a clear error, never a trap")
    func badConfiguration() {
        var bad = GridConfiguration.grid
        bad.spacing = CGSize(width: -1, height: CGFloat.nan)
        var state = CollectionLayoutState(builder: CollectionLayoutState.grid(bad))
        state.prepare(containerSize: portrait, itemCounts: [10])
        #expect(state.layout == nil)
        #expect(state.error != nil)
        #expect(state.contentSize == .zero)
        let proposed = CGPoint(x: 0, y: 99)
        let kept = state.targetContentOffset(forProposed: proposed, in: viewport(portrait, 0))
        #expect(kept == proposed)
        #expect(state.targetContentOffset(forProposed: proposed, velocity: CGPoint(x: 0, y: 1), in: viewport(portrait, 0)) == proposed)
        #expect(state.anchor(in: viewport(portrait, 0)) == nil)
    }

    @Test("empty collections, zero and NaN sizes build without trapping")
    func emptyAndDegenerate() {
        var state = CollectionLayoutState(builder: CollectionLayoutState.grid())
        state.prepare(containerSize: .zero, itemCounts: [])
        #expect(state.layout?.numberOfSections == 0)
        state.prepare(containerSize: CGSize(width: CGFloat.nan, height: -5), itemCounts: [0, 3])
        #expect(state.layout?.numberOfItems(inSection: 1) == 3)
        #expect(state.anchor(in: viewport(.zero, 0)) == nil)
    }

    @Test("quilt and waterfall builders lay out every item of every section")
    func otherLayouts() throws {
        var quilt = CollectionLayoutState(builder: CollectionLayoutState.quilt { index in
            index.item % 5 == 0 ? QuiltSpan(width: 2, height: 2) : QuiltSpan(width: 1, height: 1)
        })
        quilt.prepare(containerSize: portrait, itemCounts: [40, 7])
        let quiltLayout = try #require(quilt.layout)
        #expect(quiltLayout.numberOfItems(inSection: 0) == 40 && quiltLayout.numberOfItems(inSection: 1) == 7)
        let big = try #require(quiltLayout.frame(of: ItemIndex(item: 5)))
        let small = try #require(quiltLayout.frame(of: ItemIndex(item: 6)))
        #expect(big.width > small.width && big.height > small.height)

        var waterfall = CollectionLayoutState(builder: CollectionLayoutState.waterfall { index in
            CGSize(width: 4, height: 3 + index.item % 4)
        })
        waterfall.prepare(containerSize: portrait, itemCounts: [25])
        let waterfallLayout = try #require(waterfall.layout)
        #expect(waterfallLayout.numberOfItems(inSection: 0) == 25)
        var seen = 0
        waterfallLayout.forEachItem(in: CGRect(origin: .zero, size: waterfallLayout.contentSize)) { _, _ in seen += 1 }
        #expect(seen == 25)
    }

    /// Sizes a cell's photo header may claim, extremes included: every tile
    /// of the hosted waterfall stays finite and within 64 of its widths.
    @Test func aHostedWaterfallBoundsExtremeSizes() throws {
        var rng = SplitMix64(seed: 2_147_483_647)
        let sides: [CGFloat] = [0, 1, CGFloat(Int32.max), .greatestFiniteMagnitude, .infinity, .nan, 4000]
        let sizes = (0..<300).map { _ in
            CGSize(width: sides.randomElement(using: &rng)!, height: sides.randomElement(using: &rng)!)
        }
        var state = CollectionLayoutState(builder: CollectionLayoutState.waterfall { sizes[$0.item] })
        state.prepare(containerSize: portrait, itemCounts: [sizes.count])
        let layout = try #require(state.layout)
        #expect(layout.contentSize.height.isFinite)
        var seen = 0
        layout.forEachItem(in: CGRect(origin: .zero, size: layout.contentSize)) { _, frame in
            seen += 1
            #expect(frame.height.isFinite && frame.height <= frame.width * 64 * 1.000_001)
        }
        #expect(seen == sizes.count)
    }
}
