import Foundation
import Testing
@testable import ParallaxCore

@Suite("Layered parallax")
struct LayeredParallaxTests {
    @Test func cosmosOffsets() {
        let stack = LayeredParallax.cosmos
        let offsets = (0..<stack.count).map {
            stack.offset(ofLayer: $0, driverOffset: 1000, driverContentExtent: 7680, viewportExtent: 320)
        }
        let expected: [CGFloat] = [80, 0, 100, 120, 150, 1000, 800, 1000]
        for (offset, want) in zip(offsets, expected) { #expect(abs((offset) - (want)) <= 1e-9) }
    }

    // Content width = driverContentWidth · speed + (speed < 1 ? frameWidth : 0); 12 signs, 2 screens each.
    @Test func cosmosContentExtents() {
        let stack = LayeredParallax.cosmos
        let driver: CGFloat = 320 * 2 * 12
        let extents = (0..<stack.count).map { stack.contentExtent(ofLayer: $0, driverContentExtent: driver, viewportExtent: 320) }
        let expected: [CGFloat] = [934.4, 320, 1088, 1241.6, 1472, 7680, 6464, 7680]
        for (extent, want) in zip(extents, expected) { #expect(abs((extent) - (want)) <= 1e-9) }
    }

    @Test func everySlowLayerReachesItsEndExactlyWhenTheDriverDoes() {
        let stack = LayeredParallax.cosmos
        for layer in 0..<stack.count where stack.speeds[layer] > 0 {
            let end = stack.offset(ofLayer: layer, driverOffset: 7680 - 320, driverContentExtent: 7680, viewportExtent: 320)
            let maximum = stack.contentExtent(ofLayer: layer, driverContentExtent: 7680, viewportExtent: 320) - 320
            #expect(end <= maximum + 1e-9)
        }
    }

    @Test func reduceMotionMovesEveryLayerWithTheDriver() {
        var stack = LayeredParallax.cosmos
        stack.isReduceMotionEnabled = true
        for layer in 0..<stack.count {
            #expect(stack.offset(ofLayer: layer, driverOffset: 1234, driverContentExtent: 7680, viewportExtent: 320) == 1234)
        }
    }

    @Test func intensityScalesTheDifferenceFromTheDriver() {
        let half = LayeredParallax(speeds: [0.2], intensity: 0.5)
        #expect((half.effectiveSpeed(ofLayer: 0)) ≈ (0.6))
        #expect(LayeredParallax(speeds: [0.2], intensity: 0).effectiveSpeed(ofLayer: 0) == 1)
        #expect(LayeredParallax(speeds: [.nan, -1]).effectiveSpeed(ofLayer: 0) == 0)
        #expect(LayeredParallax(speeds: []).effectiveSpeed(ofLayer: 3) == 1)
    }

    @Test func rightToLeftStacksStartAtTheirEnd() {
        let stack = LayeredParallax(speeds: LayeredParallax.cosmosSpeeds, layoutDirection: .rightToLeft)
        for layer in 0..<stack.count {
            let extent = stack.contentExtent(ofLayer: layer, driverContentExtent: 7680, viewportExtent: 320)
            // The driver starts at its right end; every layer starts at its own.
            let start = stack.offset(ofLayer: layer, driverOffset: 7680 - 320, driverContentExtent: 7680, viewportExtent: 320)
            #expect(abs((start) - (extent - 320)) <= 1e-9)
            // Moving the driver by d moves the layer by d · speed.
            let moved = stack.offset(ofLayer: layer, driverOffset: 7680 - 320 - 100, driverContentExtent: 7680, viewportExtent: 320)
            #expect(abs((start - moved) - (100 * stack.effectiveSpeed(ofLayer: layer))) <= 1e-9)
        }
    }
}
