import Foundation
import ParallaxCore
import ParallaxHosting
import Testing

@Suite("LayeredBackground: where each background layer goes")
struct LayeredBackgroundTests {
    let viewport = CGSize(width: 400, height: 800)

    @Test("Cosmos speeds: layer i moves at speed[i] of the driver and has just enough art")
    func cosmos() {
        let background = LayeredBackground(stack: .cosmos, axis: .vertical)
        let stack = background.resolved(layoutDirection: .leftToRight, isReduceMotionEnabled: false)
        for (index, speed) in LayeredParallax.cosmosSpeeds.enumerated() {
            let layer = stack.placement(ofLayer: index, driverOffset: 1000,
                                             driverContentExtent: 5000, viewportSize: viewport)
            // 1 − intensity·(1 − speed) is speed up to rounding.
            let close = { (a: CGFloat, b: CGFloat) in abs(a - b) < 1e-9 }
            #expect(close(layer.offset, 1000 * speed))
            let expectedExtent: CGFloat = 5000 * speed + (speed < 1 ? 800 : 0)
            #expect(layer.contentSize.width == 400 && close(layer.contentSize.height, expectedExtent))
            let frame = layer.frame(along: .vertical)
            #expect(close(frame.minY, -1000 * speed) && close(frame.height, expectedExtent) && frame.minX == 0)
            #expect(layer.loopPeriod == nil)
        }
    }

    @Test("a layer can always reach its end: at the driver's end every layer shows its last screen")
    func reachesEnd() {
        var rng = SplitMix64(seed: 4)
        for _ in 0..<500 {
            let speeds = (0..<5).map { _ in CGFloat.random(in: 0...1, using: &rng) }
            let size = CGSize(width: CGFloat.random(in: 100...1000, using: &rng), height: CGFloat.random(in: 100...1000, using: &rng))
            let axis: ScrollAxis = Bool.random(using: &rng) ? .vertical : .horizontal
            let extent = axis.main(size) + CGFloat.random(in: 0...20_000, using: &rng)
            let background = LayeredBackground(stack: LayeredParallax(speeds: speeds), axis: axis)
            let stack = background.resolved(layoutDirection: .leftToRight, isReduceMotionEnabled: false)
            let end = extent - axis.main(size)
            for index in speeds.indices {
                let layer = stack.placement(ofLayer: index, driverOffset: end,
                                                 driverContentExtent: extent, viewportSize: size)
                let frame = layer.frame(along: axis)
                // The layer's art still covers the screen: its far edge is at or past the viewport's.
                #expect(axis.mainSpan(of: frame).upperBound >= axis.main(size) - 1e-6)
                #expect(axis.mainSpan(of: frame).lowerBound <= 1e-6)
            }
        }
    }

    @Test("Reduce Motion (the system's or the stack's) moves every layer with the driver")
    func reduceMotion() {
        let background = LayeredBackground(stack: .cosmos)
        for stack in [background.resolved(layoutDirection: .leftToRight, isReduceMotionEnabled: true),
                      LayeredBackground(stack: LayeredParallax(speeds: [0, 0.5], isReduceMotionEnabled: true))
                          .resolved(layoutDirection: .leftToRight, isReduceMotionEnabled: false)] {
            for index in 0..<2 {
                let layer = stack.placement(ofLayer: index, driverOffset: 321,
                                                 driverContentExtent: 4000, viewportSize: viewport)
                #expect(layer.speed == 1 && layer.offset == 321)
            }
        }
    }

    @Test("right-to-left applies to horizontal stacks only, which then start at their right end")
    func rightToLeft() {
        let vertical = LayeredBackground(stack: .cosmos, axis: .vertical)
        #expect(vertical.resolved(layoutDirection: .rightToLeft, isReduceMotionEnabled: false).stack.layoutDirection == .leftToRight)
        let horizontal = LayeredBackground(stack: LayeredParallax(speeds: [0.5]), axis: .horizontal)
        let stack = horizontal.resolved(layoutDirection: .rightToLeft, isReduceMotionEnabled: false)
        #expect(stack.stack.layoutDirection == .rightToLeft)
        let size = CGSize(width: 400, height: 300)
        // At the start (the right end: driver offset = 3000 − 400), the layer shows its own right end.
        let layer = stack.placement(ofLayer: 0, driverOffset: 2600, driverContentExtent: 3000, viewportSize: size)
        let layerExtent: CGFloat = 3000 * 0.5 + 400
        #expect(layer.offset == layerExtent - 400)
    }

    @Test("looping layers draw one period plus a screen and wrap their offset into the period")
    func looping() {
        let background = LayeredBackground(stack: LayeredParallax(speeds: [0.25, 1, 0]), axis: .vertical, loopPeriod: 2000)
        let stack = background.resolved(layoutDirection: .leftToRight, isReduceMotionEnabled: false)
        let slow = stack.placement(ofLayer: 0, driverOffset: 9000, driverContentExtent: 1e9, viewportSize: viewport)
        #expect(slow.loopPeriod == 500)
        let drawn: CGFloat = 500 + 800
        #expect(slow.contentSize.height == drawn)
        #expect(slow.offset == 9000 * 0.25 - 4 * 500)
        let fast = stack.placement(ofLayer: 1, driverOffset: 9000, driverContentExtent: 1e9, viewportSize: viewport)
        #expect(fast.offset == 1000 && fast.loopPeriod == 2000)
        let still = stack.placement(ofLayer: 2, driverOffset: 9000, driverContentExtent: 1e9, viewportSize: viewport)
        #expect(still.offset == 0 && still.contentSize.height == 800)
    }

    @Test("NaN and negative geometry give empty, finite layers, never a trap")
    func badInput() {
        let background = LayeredBackground(stack: .cosmos, loopPeriod: .nan)
        let stack = background.resolved(layoutDirection: .leftToRight, isReduceMotionEnabled: false)
        for index in -1...9 {
            let layer = stack.placement(ofLayer: index, driverOffset: .nan, driverContentExtent: -5,
                                             viewportSize: CGSize(width: CGFloat.nan, height: -1))
            #expect(layer.offset.isFinite)
            #expect(layer.contentSize.width.isFinite && layer.contentSize.height.isFinite)
            #expect(layer.contentSize.width >= 0 && layer.contentSize.height >= 0)
        }
    }
}

@Suite("LayerArt: what a layer's art depends on stays the same while scrolling")
struct LayerArtTests {
    @Test("scrolling changes every placement's offset and no layer's art")
    func artIgnoresTheOffset() {
        var rng = SplitMix64(seed: 9)
        let background = LayeredBackground(stack: .cosmos, axis: .horizontal, loopPeriod: 1200)
            .resolved(layoutDirection: .leftToRight, isReduceMotionEnabled: false)
        let viewport = CGSize(width: 390, height: 844)
        for index in LayeredParallax.cosmosSpeeds.indices {
            let art = background.placement(ofLayer: index, driverOffset: 0, driverContentExtent: 8000, viewportSize: viewport).art
            for _ in 0..<100 {
                let offset = CGFloat.random(in: 0...7600, using: &rng)
                let placement = background.placement(ofLayer: index, driverOffset: offset, driverContentExtent: 8000,
                                                     viewportSize: viewport)
                #expect(placement.art == art)
                #expect(placement.art == LayerArt(index: placement.index, speed: placement.speed,
                                                  contentSize: placement.contentSize, loopPeriod: placement.loopPeriod))
            }
        }
    }
}
