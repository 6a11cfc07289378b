import Foundation
import Testing
@testable import ParallaxCore

infix operator ≈: ComparisonPrecedence

/// Equal to within 1e-9: for values computed along different but exact paths.
func ≈ (a: CGFloat, b: CGFloat) -> Bool { abs(a - b) <= 1e-9 }

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
