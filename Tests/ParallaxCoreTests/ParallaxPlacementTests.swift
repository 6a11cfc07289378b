import Foundation
import ParallaxCore
import Testing

@Suite("Placements carried over a resize")
struct ParallaxPlacementTests {
    @Test("exact values: the overscan and the offset stay, centred on the new bounds")
    func exact() {
        // A 200-pt cell with 30 pt of depth overscan, shifted 12 pt down.
        let placement = ParallaxPlacement(offset: CGPoint(x: 0, y: 12), contentFrame: CGRect(x: 0, y: -18, width: 400, height: 260))
        let carried = placement.carried(from: CGSize(width: 400, height: 200), to: CGSize(width: 800, height: 400))
        #expect(carried.offset == CGPoint(x: 0, y: 12))
        #expect(carried.contentFrame == CGRect(x: 0, y: -18, width: 800, height: 460))
        #expect(placement.carried(from: CGSize(width: 400, height: 200), to: CGSize(width: 400, height: 200)) == placement)
    }

    @Test("carried over any resize, a depth placement still covers the resized item (its offset stays within the overscan)")
    func coversRandomResizes() {
        var rng = SplitMix64(seed: 31)
        for _ in 0..<2000 {
            let viewport = CGRect(x: 0, y: CGFloat.random(in: 0...5000, using: &rng), width: 390,
                                  height: CGFloat.random(in: 300...1000, using: &rng))
            let old = CGSize(width: CGFloat.random(in: 50...800, using: &rng), height: CGFloat.random(in: 50...800, using: &rng))
            let item = CGRect(origin: CGPoint(x: 0, y: viewport.minY + CGFloat.random(in: -old.height...viewport.height, using: &rng)),
                              size: old)
            let effect = ParallaxEffect.depth(maxOffset: CGFloat.random(in: 0...80, using: &rng))
            let scroller = ParallaxScroller(effect: effect, intensity: CGFloat.random(in: 0...1, using: &rng))
            let placement = scroller.placement(forItemFrame: item, in: viewport)
            let new = CGSize(width: CGFloat.random(in: 50...800, using: &rng), height: CGFloat.random(in: 50...800, using: &rng))
            let carried = placement.carried(from: old, to: new).contentFrame
            let tolerance: CGFloat = 1e-6
            #expect(carried.minX <= tolerance && carried.maxX >= new.width - tolerance)
            #expect(carried.minY <= tolerance && carried.maxY >= new.height - tolerance)
        }
    }
}
