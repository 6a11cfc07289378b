import Foundation
import Testing
@testable import ParallaxCore

@Suite("Window parallax")
struct WindowParallaxTests {
    // FeParallaxTableView part 1: photo frame (0, −Δ, W, H), Δ = cell.y − o.
    @Test func contentStandsStillOnScreen() {
        var rng = SplitMix64(seed: 7)
        let scroller = ParallaxScroller(effect: .window)
        for _ in 0..<10_000 {
            let viewportHeight = CGFloat.random(in: 200...1200, using: &rng)
            let o = CGFloat.random(in: -100...100_000, using: &rng)
            let cellHeight = CGFloat.random(in: 20...viewportHeight, using: &rng)
            let cellY = o + CGFloat.random(in: -cellHeight...viewportHeight, using: &rng)
            let placement = scroller.placement(
                forItemFrame: CGRect(x: 0, y: cellY, width: 320, height: cellHeight),
                in: CGRect(x: 0, y: o, width: 320, height: viewportHeight))
            #expect(abs((placement.contentFrame.minY) - (-(cellY - o))) <= 1e-6)
            #expect(placement.contentFrame.height == viewportHeight)
            // On screen the content always starts at the viewport's top.
            #expect(abs((cellY - o + placement.contentFrame.minY) - (0)) <= 1e-6)
        }
    }

    // FeParallaxTableView part 2: photo y = −Δ + Δ·200/H.
    @Test func rateVariantByHand() {
        let h: CGFloat = 568
        let scroller = ParallaxScroller(effect: .window(rate: 200 / h))
        let placement = scroller.placement(forItemFrame: CGRect(x: 0, y: 300, width: 320, height: 180),
                                           in: CGRect(x: 0, y: 100, width: 320, height: h))
        let delta: CGFloat = 200
        #expect((placement.contentFrame.minY) ≈ (-delta + delta * 200 / h))
        #expect(placement.contentFrame.height == h)
    }

    @Test func contentCoversTheVisiblePartForEveryRateAndAnchor() {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<20_000 {
            let viewportLength = CGFloat.random(in: 100...2000, using: &rng)
            let itemLength = CGFloat.random(in: 1...2500, using: &rng)
            let rate = CGFloat.random(in: 0...1, using: &rng)
            let anchor = CGFloat.random(in: 0...1, using: &rng)
            let intensity = CGFloat.random(in: 0...2, using: &rng)
            let mirrored = Bool.random(using: &rng)
            let viewport = Span(CGFloat.random(in: -1e5...1e5, using: &rng), viewportLength)
            let item = Span(viewport.lowerBound + CGFloat.random(in: -itemLength...viewportLength, using: &rng),
                            itemLength)
            let solution = ParallaxEffect.window(rate: rate, anchor: anchor)
                .solve(item: item, viewport: viewport, intensity: intensity, mirrorsAnchor: mirrored)
            let visibleLower = max(item.lowerBound, viewport.lowerBound)
            let visibleUpper = min(item.upperBound, viewport.upperBound)
            let contentLower = item.lowerBound + solution.contentLowerBound
            #expect(contentLower <= visibleLower + 1e-6)
            #expect(contentLower + solution.contentLength >= visibleUpper - 1e-6)
        }
    }

    @Test func depthAndWindowAreOneFamily() {
        // A rate of 1 is no parallax, exactly like `.none`.
        let item = Span(120, 200), viewport = Span(0, 800)
        let glued = ParallaxEffect.window(rate: 1, anchor: 0.5).solve(item: item, viewport: viewport)
        #expect(glued.offset == 0)
        // Depth is the rate k = 1 − 2P/(V + h) around the centre.
        let depth = ParallaxEffect.depth(maxOffset: 30).solve(item: item, viewport: viewport)
        let k = 1 - 60 / (800 + 200 as CGFloat)
        #expect((depth.offset) ≈ ((viewport.mid - item.mid) * (1 - k)))
    }
}
