import Foundation
import Testing
@testable import ParallaxCore

@Suite("Depth parallax")
struct DepthParallaxTests {
    // Kurutepe / Ole Begemann, P = 30: a 160-pt cell at y = 100 in a 568-pt viewport at offset 0.
    @Test func kurutepeFormulaByHand() {
        let scroller = ParallaxScroller(effect: .depth(maxOffset: 30))
        let placement = scroller.placement(forItemFrame: CGRect(x: 0, y: 100, width: 320, height: 160),
                                           in: CGRect(x: 0, y: 0, width: 320, height: 568))
        // (284 − 180) · 30 / (284 + 80) = 3120 / 364
        #expect((placement.offset.y) ≈ (3120.0 / 364.0))
        #expect(placement.offset.x == 0)
        #expect(placement.contentFrame == CGRect(x: 0, y: -30 + 3120.0 / 364.0, width: 320, height: 220))
    }

    @Test func offsetIsClampedToMaximumOffscreen() {
        let scroller = ParallaxScroller(effect: .depth(maxOffset: 30))
        let viewport = CGRect(x: 0, y: 0, width: 320, height: 568)
        let below = scroller.placement(forItemFrame: CGRect(x: 0, y: 5000, width: 320, height: 160), in: viewport)
        let above = scroller.placement(forItemFrame: CGRect(x: 0, y: -5000, width: 320, height: 160), in: viewport)
        #expect(below.offset.y == -30)
        #expect(above.offset.y == 30)
    }

    // RHParallaxScroller writes the same line as t = clamp01((cell.maxY − o)/(H + h)), image y = −2P·t.
    @Test func matchesRHParallaxScrollerForm() {
        var rng = SplitMix64(seed: 3)
        for _ in 0..<10_000 {
            let viewportHeight = CGFloat.random(in: 100...2000, using: &rng)
            let offset = CGFloat.random(in: -500...50_000, using: &rng)
            let height = CGFloat.random(in: 1...800, using: &rng)
            let list = Bool.random(using: &rng)
            let p: CGFloat = list ? 0.1 * height : 10
            let y = offset + CGFloat.random(in: -height...viewportHeight, using: &rng)  // visible
            let scroller = ParallaxScroller(effect: list ? .listDefault : .gridDefault)
            let placement = scroller.placement(forItemFrame: CGRect(x: 0, y: y, width: 100, height: height),
                                               in: CGRect(x: 0, y: offset, width: 100, height: viewportHeight))
            let t = min(max((y + height - offset) / (viewportHeight + height), 0), 1)
            #expect(abs((placement.contentFrame.minY) - (-2 * p * t)) <= 1e-7)
            #expect(abs((placement.contentFrame.height) - (height + 2 * p)) <= 1e-9)
        }
    }

    @Test func listDefaultIsTenPercentOfTheCell() {
        // RolfHendriks' UICollectionView-Demo's list cell: 390 × 195, so P = 19.5; a cell centred in the viewport sits at rest.
        let scroller = ParallaxScroller(effect: .listDefault)
        let centred = scroller.placement(forItemFrame: CGRect(x: 0, y: 324.5, width: 390, height: 195),
                                         in: CGRect(x: 0, y: 0, width: 390, height: 844))
        #expect(centred.offset.y == 0)
        #expect(centred.contentFrame == CGRect(x: 0, y: -19.5, width: 390, height: 234))
    }

    @Test func invariantsOverRandomGeometry() {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<20_000 {
            let p = CGFloat.random(in: 0...80, using: &rng)
            let intensity = CGFloat.random(in: 0...3, using: &rng)
            let axis: ScrollAxis = Bool.random(using: &rng) ? .vertical : .horizontal
            let viewportLength = CGFloat.random(in: 1...3000, using: &rng)
            let itemLength = CGFloat.random(in: 0.5...4000, using: &rng)
            let start = CGFloat.random(in: -1e6...1e6, using: &rng)
            let itemStart = start + CGFloat.random(in: -itemLength...viewportLength, using: &rng)
            let viewport = axis.rect(main: Span(start, viewportLength), cross: Span(0, 300))
            let item = axis.rect(main: Span(itemStart, itemLength), cross: Span(10, 120))
            let scroller = ParallaxScroller(effect: .depth(maxOffset: p), axis: axis, intensity: intensity)
            let placement = scroller.placement(forItemFrame: item, in: viewport)
            let offset = axis.main(placement.offset)
            #expect(abs(offset) <= p * intensity + 1e-9)
            #expect(axis.cross(placement.offset) == 0)
            // The content covers the whole item: no edge ever shows.
            let content = axis.mainSpan(of: placement.contentFrame)
            #expect(content.lowerBound <= 1e-6 * max(1, p))
            #expect(content.upperBound >= itemLength - 1e-6 * max(1, p))
            #expect(axis.cross(placement.contentFrame.size) == 120)
        }
    }
}
