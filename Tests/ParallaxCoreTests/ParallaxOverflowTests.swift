import Foundation
import Testing
@testable import ParallaxCore

/// Finite input, however large, gives finite placements: the promise in
/// ``ParallaxEffect/solve(item:viewport:intensity:reduceMotion:mirrorsAnchor:)``.
@Suite("Parallax overflow")
struct ParallaxOverflowTests {
    let largest = CGFloat.greatestFiniteMagnitude

    func expectFinite(_ solution: ParallaxSolution, _ comment: Comment? = nil) {
        #expect(solution.offset.isFinite, comment)
        #expect(solution.contentLowerBound.isFinite, comment)
        #expect(solution.contentLength.isFinite && solution.contentLength >= 0, comment)
    }

    // `parallax-demo --max-offset 1e308`: the depth is capped so the content, h + 2P, stays representable.
    @Test func aHugeDepthIsCappedToTheLargestRepresentableContent() {
        let item = Span(5000, 183), viewport = Span(0, 844)
        let solution = ParallaxEffect.depth(maxOffset: 1e308).solve(item: item, viewport: viewport)
        // P = (largest − 183) / 2 = largest / 2; the item is far below the centre, so the offset is −P.
        #expect(solution.offset == -largest / 2)
        #expect(solution.contentLowerBound == -largest)
        #expect(solution.contentLength == largest)
    }

    // `parallax-demo --max-offset 10 --intensity 1e308`: P × intensity overflows; it reads as the largest value, then is capped.
    @Test func depthTimesIntensityOverflowIsCapped() {
        let item = Span(5000, 183), viewport = Span(0, 844)
        let solution = ParallaxEffect.depth(maxOffset: 10).solve(item: item, viewport: viewport, intensity: 1e308)
        #expect(solution.offset == -largest / 2)
        #expect(solution.contentLowerBound == -largest)
        #expect(solution.contentLength == largest)
        // The list default (a fraction of the item) overflows the same way.
        let list = ParallaxEffect.listDefault.solve(item: item, viewport: viewport, intensity: 1e308)
        #expect(list.offset == -largest / 2 && list.contentLength == largest)
        // The scroller, as the demo uses it, gives the same finite frame.
        let placement = ParallaxScroller(effect: .depth(maxOffset: 10), intensity: 1e308)
            .placement(forItemFrame: CGRect(x: 8, y: 5000, width: 183, height: 183),
                       in: CGRect(x: 0, y: 0, width: 390, height: 844))
        #expect(placement.offset == CGPoint(x: 0, y: -largest / 2))
        #expect(placement.contentFrame == CGRect(x: 0, y: -largest, width: 183, height: largest))
    }

    // The viewport and item together are longer than the largest value: the crossing distance overflows,
    // which used to make the rate 0 and the offset silently 0. Here V + h = 1.25 M, the centres 0.375 M apart,
    // so the offset is −0.375 / 1.25 · 2 · 30 = −18.
    @Test func anOverflowingCrossingStillGivesTheFormulasOffset() {
        let viewport = Span(0, largest * 0.75), item = Span(largest * 0.5, largest * 0.5)
        let solution = ParallaxEffect.depth(maxOffset: 30).solve(item: item, viewport: viewport)
        #expect(abs(solution.offset - -18) <= 1e-9)
        #expect(abs(solution.contentLowerBound - -18) <= 1e-9)   // −P + offset, with h + 2P rounded to h
        #expect(solution.contentLength == largest * 0.5)
    }

    // A window whose anchors are further apart than the largest value: the rate has no limit of its own,
    // so the displacement is held where the content's position stays finite (the item is far off screen).
    @Test func aWindowFarOffScreenStaysFinite() {
        let viewport = Span(-largest, 100), item = Span(largest - 100, 50)
        let solution = ParallaxEffect.window.solve(item: item, viewport: viewport)
        #expect(solution.offset == -largest / 2)
        #expect(solution.contentLowerBound == -largest / 2)
        #expect(solution.contentLength == 100)
    }

    @Test func aFractionOfAHugeItemResolvesToTheLargestValue() {
        #expect(ParallaxAmount.fractionOfItem(1e10).resolved(forItemLength: 1e300) == largest)
        #expect(ParallaxAmount.fractionOfItem(-1e10).resolved(forItemLength: 1e300) == 0)
        #expect(ParallaxAmount.fractionOfItem(0.1).resolved(forItemLength: 195) == 19.5)
        #expect(ParallaxAmount.fractionOfItem(.nan).resolved(forItemLength: 195) == 0)
    }

    @Test func everyFiniteInputGivesFiniteOutput() {
        let magnitudes: [CGFloat] = [0, 1e-300, 0.5, 1, 183, 844, 1e7, 1e150, 1e300, 1e308,
                                     largest / 4, largest / 2, largest]
        var rng = SplitMix64(seed: 2015)
        func pick(signed: Bool) -> CGFloat {
            let value = magnitudes[Int.random(in: 0..<magnitudes.count, using: &rng)]
            return signed && Bool.random(using: &rng) ? -value : value
        }
        for _ in 0..<50_000 {
            let effect: ParallaxEffect
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: effect = .depth(maxOffset: pick(signed: false))
            case 1: effect = .depth(.fractionOfItem(pick(signed: false)))
            case 2: effect = .window(rate: CGFloat.random(in: 0...1, using: &rng), anchor: CGFloat.random(in: 0...1, using: &rng))
            default: effect = .window
            }
            let item = Span(pick(signed: true), pick(signed: false))
            let viewport = Span(pick(signed: true), pick(signed: false))
            let intensity = pick(signed: false)
            let solution = effect.solve(item: item, viewport: viewport, intensity: intensity,
                                        reduceMotion: Bool.random(using: &rng), mirrorsAnchor: Bool.random(using: &rng))
            expectFinite(solution, "\(effect) item \(item) viewport \(viewport) intensity \(intensity)")
        }
    }

    /// The formula as it stood before overflow handling, for ordinary values.
    func plainFormula(_ effect: ParallaxEffect, item: Span, viewport: Span, intensity: CGFloat) -> ParallaxSolution {
        let itemLength = item.length, viewportLength = viewport.length
        switch effect.motion {
        case .depth(let amount):
            let p: CGFloat = switch amount {
            case .points(let points): points * intensity + 0 * itemLength
            case .fractionOfItem(let fraction): 0 + fraction * intensity * itemLength
            }
            let crossing = viewportLength + itemLength
            let travel = 2 * p / crossing
            let displacement = (viewport.lowerBound + 0.5 * viewportLength - (item.lowerBound + 0.5 * itemLength)) * travel
            let offset = min(max(displacement, -p), p)
            let contentLength = itemLength + 2 * p
            let lower = 0.5 * (itemLength - contentLength) + offset
            return ParallaxSolution(offset: lower + contentLength / 2 - itemLength / 2, contentLowerBound: lower,
                                    contentLength: contentLength)
        case .rate(let rate, let anchor):
            let travel = min((1 - rate) * intensity, 1)
            let contentLength = max(viewportLength, itemLength)
            let offset = (viewport.lowerBound + anchor * viewportLength - (item.lowerBound + anchor * itemLength)) * travel
            let lower = anchor * (itemLength - contentLength) + offset
            return ParallaxSolution(offset: lower + contentLength / 2 - itemLength / 2, contentLowerBound: lower,
                                    contentLength: contentLength)
        }
    }

    @Test func ordinaryValuesGiveExactlyThePlainFormula() {
        var rng = SplitMix64(seed: 64)
        for _ in 0..<20_000 {
            let effect: ParallaxEffect = switch Int.random(in: 0..<3, using: &rng) {
            case 0: .depth(maxOffset: CGFloat.random(in: 0...10_000, using: &rng))
            case 1: .depth(.fractionOfItem(CGFloat.random(in: 0...1, using: &rng)))
            default: .window(rate: CGFloat.random(in: 0...1, using: &rng), anchor: CGFloat.random(in: 0...1, using: &rng))
            }
            let viewport = Span(CGFloat.random(in: -1e7...1e7, using: &rng), CGFloat.random(in: 1...100_000, using: &rng))
            let item = Span(viewport.lowerBound + CGFloat.random(in: -5000...100_000, using: &rng),
                            CGFloat.random(in: 1...5000, using: &rng))
            let intensity = CGFloat.random(in: 0...10, using: &rng)
            let solution = effect.solve(item: item, viewport: viewport, intensity: intensity)
            #expect(solution == plainFormula(effect, item: item, viewport: viewport, intensity: intensity))
        }
    }
}
