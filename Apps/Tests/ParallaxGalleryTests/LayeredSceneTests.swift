// The gallery draws through SDL2, which it uses on Linux only.
#if canImport(CSDL2)
import Foundation
import ParallaxCore
import Testing
@testable import ParallaxGallery

@Suite("Layered scene")
@MainActor
struct LayeredSceneTests {
    let size = CGSize(width: 400, height: 300)

    @Test func layersFollowTheCosmosSpeedsAndLoop() {
        let scene = LayeredScene(viewportSize: size)
        scene.beginDrag()
        scene.drag(by: 1000)
        #expect(scene.offset(ofLayer: 1) == 0)                                  // speed 0: static
        #expect(abs(scene.offset(ofLayer: 0) - 80) < 1e-9)                     // 0.08 of the driver
        #expect(abs(scene.offset(ofLayer: 7) - 1000) < 1e-9)                   // the driver itself
        // Far beyond one loop the driver wraps, seamlessly: the same picture as one loop earlier.
        let period = scene.driverLoop.period
        scene.drag(by: 5 * period)
        #expect(abs(scene.offset(ofLayer: 7) - 1000) < 1e-6)
        #expect(scene.offset(ofLayer: 4) >= 0 && scene.offset(ofLayer: 4) < scene.loop(ofLayer: 4).period)
    }

    @Test func flingsSettleOnSnapTargetsWithinHalfAScreen() {
        let scene = LayeredScene(viewportSize: size)
        // A fling that would end 150 pt short of the target at 10 screens (4000) is captured by it.
        let velocity = (4000 - 150) * DecelerationRate.normal.decayPerSecond
        scene.fling(velocity: velocity)
        for _ in 0..<2000 where !scene.scroll.isAtRest { scene.advance(by: 1.0 / 60) }
        #expect(scene.scroll.position == 4000)
        // One that ends 1.5 screens away is not.
        let free = LayeredScene(viewportSize: size)
        free.fling(velocity: 2800 * DecelerationRate.normal.decayPerSecond)
        for _ in 0..<2000 where !free.scroll.isAtRest { free.advance(by: 1.0 / 60) }
        #expect(abs(free.scroll.position - 2800) < 1)
    }

    @Test func renderedLayersMoveAtTheirOwnSpeeds() throws {
        let scene = LayeredScene(viewportSize: size)
        let headless = try HeadlessRenderer(size: size)
        defer { headless.close() }
        headless.renderer.showsHUD = false
        func frame() -> [UInt8] {
            headless.canvas.beginFrame()
            headless.renderer.draw(scene, on: headless.canvas)
            return headless.canvas.readPixels()!.pixels
        }
        let before = frame()
        scene.beginDrag()
        scene.drag(by: 37)
        let after = frame()
        #expect(before != after)
        // The static layer's stars stay put: some star pixel of layer 1 is lit in both frames.
        let star = try #require(scene.art[1].first { $0.x < size.width - 4 && $0.x > 4 })
        let index = (Int(star.y) * Int(size.width) + Int(star.x)) * 4
        #expect(Array(before[index..<(index + 3)]) == Array(after[index..<(index + 3)]))
    }
}
#endif
