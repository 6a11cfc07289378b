#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// The gallery's layered background (the C4 Cosmos tutorial): eight
/// horizontal layers of generated art (stars, constellation lines, signs)
/// sliding at the Cosmos speeds behind a driver layer the user scrolls,
/// looping forever, with snap targets every ten screens.
///
/// Every position comes from ``LayeredParallax``, ``LoopingContent`` and
/// ``SnapGrid``; the scene only generates the art.
@MainActor
package final class LayeredScene {
    /// A dot or a line segment of a layer's art, in layer content coordinates (one period).
    package struct Mark: Sendable {
        package var x: CGFloat
        package var y: CGFloat
        package var width: CGFloat
        package var height: CGFloat
        package var color: RGBA
    }

    package private(set) var viewportSize: CGSize
    package var stack = LayeredParallax.cosmos
    package private(set) var scroll: ScrollSimulation
    /// The driver's content is this many viewports long before it repeats.
    package static let screensPerLoop: CGFloat = 24
    /// Each layer's art, one period long.
    package private(set) var art: [[Mark]] = []

    package init(viewportSize: CGSize) {
        self.viewportSize = viewportSize
        scroll = ScrollSimulation(bounds: -CGFloat.greatestFiniteMagnitude / 4 ... CGFloat.greatestFiniteMagnitude / 4,
                                  viewportExtent: viewportSize.width)
        generateArt()
    }

    /// The driver's loop.
    package var driverLoop: LoopingContent { LoopingContent(period: viewportSize.width * Self.screensPerLoop) }

    /// Layer `index`'s loop: its share of the driver's, at least one screen.
    package func loop(ofLayer index: Int) -> LoopingContent {
        let speed = stack.effectiveSpeed(ofLayer: index)
        return LoopingContent(period: max(driverLoop.period * speed, viewportSize.width))
    }

    /// Layer `index`'s offset now, wrapped into its loop.
    package func offset(ofLayer index: Int) -> CGFloat {
        let driver = scroll.position
        let raw = stack.offset(ofLayer: index, driverOffset: driver, driverContentExtent: driverLoop.period + viewportSize.width,
                               viewportExtent: viewportSize.width)
        return loop(ofLayer: index).wrap(raw)
    }

    package func resize(to size: CGSize) {
        guard size != viewportSize, size.width > 0, size.height > 0 else { return }
        viewportSize = size
        scroll.updateBounds(scroll.bounds, viewportExtent: size.width)
        generateArt()
    }

    package func advance(by seconds: CGFloat) { scroll.advance(by: seconds) }
    package func drag(by delta: CGFloat) { scroll.drag(by: delta) }
    package func beginDrag() { scroll.beginDrag() }

    /// Ends a drag or a wheel fling: a fling ending within half a screen of a
    /// target (every ten screens) settles on it.
    package func release(velocity: CGFloat) {
        let targets = SnapGrid.cosmos(viewportExtent: viewportSize.width)
        scroll.endDrag(velocity: velocity) { targets.restingPosition(forProposed: $0, velocity: velocity) }
    }

    package func fling(velocity: CGFloat) {
        let targets = SnapGrid.cosmos(viewportExtent: viewportSize.width)
        scroll.fling(velocity: velocity) { targets.restingPosition(forProposed: $0, velocity: velocity) }
    }

    /// Generates each layer's art for one period (seeded: the same every run).
    private func generateArt() {
        var rng = SeededGenerator(seed: 404)
        let height = viewportSize.height
        art = (0..<stack.count).map { layer in
            let period = loop(ofLayer: layer).period
            var marks: [Mark] = []
            let depth = CGFloat(layer + 1) / CGFloat(stack.count)
            let starCount = Int(period / viewportSize.width * 90)
            for _ in 0..<starCount where layer != 5 {
                let size = 1 + depth * 2.5 * CGFloat.random(in: 0.3...1, using: &rng)
                let shade = UInt8(120 + 135 * depth * CGFloat.random(in: 0.5...1, using: &rng))
                marks.append(Mark(x: .random(in: 0..<period, using: &rng), y: .random(in: 0..<height, using: &rng),
                                  width: size, height: size, color: RGBA(shade, shade, UInt8(min(255, Int(shade) + 40)))))
            }
            if layer == 5 {                                             // a layer of lines: constellations
                for _ in 0..<Int(period / viewportSize.width * 6) {
                    marks.append(Mark(x: .random(in: 0..<period, using: &rng), y: .random(in: height * 0.1..<height * 0.9, using: &rng),
                                      width: .random(in: 40...160, using: &rng), height: 2, color: RGBA(144, 19, 254, 200)))
                }
            }
            if layer == stack.count - 1 {                               // the driver: a sign every two screens
                for sign in 0..<Int(Self.screensPerLoop / 2) {
                    marks.append(Mark(x: CGFloat(sign) * 2 * viewportSize.width + viewportSize.width / 2 - 30, y: height * 0.42,
                                      width: 60, height: 60, color: RGBA(24, 69, 255)))
                }
            }
            return marks
        }
    }
}
