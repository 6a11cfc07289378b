import Foundation
import Testing
@testable import ParallaxCore

@Suite("Looping content and snap targets")
struct LoopingTests {
    @Test func wrapMatchesInfiniteScrollViewAndJumpsAnyDistance() {
        let loop = LoopingContent(contentExtent: 3200, viewportExtent: 320)   // period 2880
        #expect(loop.period == 2880)
        #expect(loop.wrap(-1) == 2879)                // x < 0 → contentW − frameW (− 1)
        #expect(loop.wrap(2880) == 0)                 // x ≥ contentW − frameW → 0
        #expect(loop.wrap(5 * 2880 + 3) == 3)
        #expect(loop.wrap(-7 * 2880 + 10) == 10)
        #expect(loop.drawnExtent(viewportExtent: 320) == 3200)
        #expect(LoopingContent(period: 0).wrap(50) == 0)
        #expect(LoopingContent(period: .nan).wrap(50) == 0)
        #expect(LoopingContent(period: 100).wrap(.infinity) == 0)
    }

    @Test func wrappedOffsetsShowTheSamePictureAsUnwrappedOnes() {
        // The art repeats every period; a wrapped offset shows the same picture.
        var rng = SplitMix64(seed: 5)
        let loop = LoopingContent(period: 1000)
        for _ in 0..<5000 {
            let offset = CGFloat.random(in: -1e7...1e7, using: &rng)
            let wrapped = loop.wrap(offset)
            #expect(wrapped >= 0 && wrapped < 1000)
            let cycles = (offset - wrapped) / 1000
            #expect(abs((cycles) - (cycles.rounded())) <= 1e-6)
        }
    }

    @Test func snapTargetsCaptureWithinTheRadius() {
        let targets = SnapGrid.cosmos(viewportExtent: 320)   // every 3200, within 160
        #expect(targets.target(capturing: 3300) == 3200)
        #expect(targets.target(capturing: 3040) == 3200)
        #expect(targets.target(capturing: 3500) == nil)
        #expect(targets.restingPosition(forProposed: 3300, velocity: 0) == 3300)
        #expect(targets.restingPosition(forProposed: 3300, velocity: -20) == 3200)
        #expect(targets.restingPosition(forProposed: 1600, velocity: 20) == 1600)
        #expect(SnapGrid(spacing: 0, captureRadius: 10).target(capturing: 5) == nil)
    }
}
