import Foundation
import Testing
@testable import ParallaxCore

@Suite("Scroller settings")
struct ScrollerSettingsTests {
    let viewport = CGRect(x: 0, y: 0, width: 390, height: 844)
    let cell = CGRect(x: 0, y: 600, width: 390, height: 195)

    @Test func reduceMotionZeroesEveryOffsetButKeepsTheContentSize() {
        for effect in [ParallaxEffect.default, .gridDefault, .listDefault, .window, .window(rate: 0.3)] {
            var scroller = ParallaxScroller(effect: effect)
            let moving = scroller.placement(forItemFrame: cell, in: viewport)
            scroller.isReduceMotionEnabled = true
            let still = scroller.placement(forItemFrame: cell, in: viewport)
            #expect(still.contentSize == moving.contentSize)
            let expectedOffset = effect == .default || effect == .gridDefault || effect == .listDefault
                ? 0 : still.contentFrame.height / 2 - cell.height / 2   // viewport content anchored at the top
            #expect((still.offset.y) ≈ (expectedOffset))
        }
    }

    @Test func intensityScalesTheOffset() {
        let one = ParallaxScroller(effect: .depth(maxOffset: 20)).placement(forItemFrame: cell, in: viewport)
        let two = ParallaxScroller(effect: .depth(maxOffset: 20), intensity: 2).placement(forItemFrame: cell, in: viewport)
        #expect((two.offset.y) ≈ (2 * one.offset.y))
        #expect(two.contentSize.height == cell.height + 80)
        let off = ParallaxScroller(effect: .depth(maxOffset: 20), intensity: 0).placement(forItemFrame: cell, in: viewport)
        #expect(off.offset == .zero && off.contentFrame == CGRect(origin: .zero, size: cell.size))
    }

    @Test func horizontalAxisUsesX() {
        let scroller = ParallaxScroller(effect: .depth(maxOffset: 30), axis: .horizontal)
        let placement = scroller.placement(forItemFrame: CGRect(x: 100, y: 0, width: 160, height: 300),
                                           in: CGRect(x: 0, y: 0, width: 568, height: 300))
        #expect((placement.offset.x) ≈ (3120.0 / 364.0))
        #expect(placement.offset.y == 0)
        #expect(placement.contentFrame.size == CGSize(width: 220, height: 300))
    }

    @Test func rightToLeftMirrorsTheWindowAnchor() {
        // Leading edge on the right: the content is at rest when the item's right edge meets the viewport's.
        let scroller = ParallaxScroller(effect: .window(rate: 0.5), axis: .horizontal, layoutDirection: .rightToLeft)
        let atRest = scroller.placement(forItemFrame: CGRect(x: 200, y: 0, width: 200, height: 100),
                                        in: CGRect(x: 0, y: 0, width: 400, height: 100))
        #expect(atRest.contentFrame == CGRect(x: -200, y: 0, width: 400, height: 100))
        let ltr = ParallaxScroller(effect: .window(rate: 0.5), axis: .horizontal)
            .placement(forItemFrame: CGRect(x: 200, y: 0, width: 200, height: 100),
                       in: CGRect(x: 0, y: 0, width: 400, height: 100))
        #expect(ltr.contentFrame.minX == -100)   // (0 − 200) · 0.5
    }

    @Test func forEachPlacementVisitsOnlyOptedInItems() {
        let scroller = ParallaxScroller()
        let items = (0..<6).map { VisibleItem(id: $0, frame: CGRect(x: 0, y: CGFloat($0) * 100, width: 100, height: 100)) }
        var seen: [Int] = []
        scroller.forEachPlacement(of: items, in: viewport, where: { $0 % 2 == 0 }) { id, placement in
            seen.append(id)
            #expect(placement == scroller.placement(forItemFrame: items[id].frame, in: viewport))
        }
        #expect(seen == [0, 2, 4])
    }

    @Test func badGeometryGivesADefinedResult() {
        let scroller = ParallaxScroller(effect: .depth(maxOffset: 30))
        let bad: [CGFloat] = [.nan, .infinity, -.infinity, -50, 0]
        for value in bad {
            let a = scroller.placement(forItemFrame: CGRect(x: 0, y: value, width: 100, height: 100), in: viewport)
            let b = scroller.placement(forItemFrame: CGRect(x: 0, y: 10, width: 100, height: value), in: viewport)
            let c = scroller.placement(forItemFrame: cell, in: CGRect(x: 0, y: 0, width: 390, height: value))
            for placement in [a, b, c] {
                #expect(placement.offset.y.isFinite)
                #expect(placement.contentFrame.height.isFinite && placement.contentFrame.height >= 0)
            }
        }
        for value in bad {
            let effect = ParallaxScroller(effect: .depth(maxOffset: value), intensity: 1)
            #expect(effect.placement(forItemFrame: cell, in: viewport).offset == .zero)
            let weird = ParallaxScroller(effect: .window(rate: value, anchor: value), intensity: value)
            #expect(weird.placement(forItemFrame: cell, in: viewport).offset.y.isFinite)
        }
    }
}
