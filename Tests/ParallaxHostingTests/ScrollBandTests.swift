import Foundation
import ParallaxCore
import ParallaxHosting
import Testing

@Suite("ScrollBand: the cells a declarative grid builds change only with the band")
struct ScrollBandTests {
    @Test("exact values: a 800-pt viewport at 1000 snaps to 200-pt steps with one to spare")
    func exact() {
        let band = ScrollBand(visible: CGRect(x: 0, y: 1000, width: 400, height: 800), axis: .vertical, contentExtent: 10_000)
        #expect(band == ScrollBand(lower: 800, upper: 2200))
        // 199 points further is the same step at both ends.
        #expect(ScrollBand(visible: CGRect(x: 0, y: 1199, width: 400, height: 800), axis: .vertical,
                           contentExtent: 10_000) == band)
        #expect(ScrollBand(visible: CGRect(x: 0, y: 1200, width: 400, height: 800), axis: .vertical,
                           contentExtent: 10_000) == ScrollBand(lower: 1000, upper: 2400))
        #expect(band.rect(in: CGSize(width: 400, height: 10_000), axis: .vertical)
                == CGRect(x: 0, y: 800, width: 400, height: 1400))
    }

    @Test("rubber-banding past either end leaves the band alone")
    func rubberBanding() {
        let size = CGSize(width: 400, height: 800)
        let top = ScrollBand(visible: CGRect(origin: .zero, size: size), axis: .vertical, contentExtent: 5000)
        for overscroll in stride(from: -300.0, through: 0, by: 7) {
            #expect(ScrollBand(visible: CGRect(origin: CGPoint(x: 0, y: overscroll), size: size), axis: .vertical,
                               contentExtent: 5000) == top)
        }
        let end = ScrollBand(visible: CGRect(origin: CGPoint(x: 0, y: 4200), size: size), axis: .vertical, contentExtent: 5000)
        for overscroll in stride(from: 4200.0, through: 4600, by: 7) {
            #expect(ScrollBand(visible: CGRect(origin: CGPoint(x: 0, y: overscroll), size: size), axis: .vertical,
                               contentExtent: 5000) == end)
        }
        #expect(end.upper == 5000)
    }

    @Test("over random offsets the band covers the visible span with a step to spare (or the content's end)")
    func covers() {
        var rng = SplitMix64(seed: 28)
        for _ in 0..<5000 {
            let axis: ScrollAxis = Bool.random(using: &rng) ? .vertical : .horizontal
            let viewport = CGFloat.random(in: 50...1500, using: &rng)
            let extent = CGFloat.random(in: 0...50_000, using: &rng)
            let offset = CGFloat.random(in: -500...(extent + 500), using: &rng)
            let visible = axis.rect(main: Span(offset, viewport), cross: Span(0, 300))
            let band = ScrollBand(visible: visible, axis: axis, contentExtent: extent)
            let step = ScrollBand.defaultStep(viewportExtent: viewport)
            // The visible content, the viewport kept within the content as a resting scroll view is.
            let length = min(viewport, extent)
            let start = min(max(offset, 0), extent - length), end = start + length
            #expect(band.lower <= max(start - step, 0) + 1e-9)
            #expect(band.upper >= min(end + step, extent) - 1e-9)
            // Never much more than the viewport and four steps: under two screens.
            #expect(band.upper - band.lower <= viewport + 4 * step + 1e-9)
        }
    }

    @Test("over a random scroll the band changes only when the visible span enters another step")
    func changesOnlyWithTheStep() {
        var rng = SplitMix64(seed: 2028)
        for _ in 0..<200 {
            let viewport = CGFloat.random(in: 200...1200, using: &rng)
            let extent = CGFloat.random(in: viewport...40_000, using: &rng)
            let step = ScrollBand.defaultStep(viewportExtent: viewport)
            var offset = CGFloat.random(in: 0...extent, using: &rng)
            var band = ScrollBand(visible: CGRect(x: 0, y: offset, width: 300, height: viewport), axis: .vertical,
                                  contentExtent: extent)
            var changes = 0
            var travelled: CGFloat = 0
            for _ in 0..<300 {
                // A frame's motion: a finger's few points to a fling's hundred.
                let delta = CGFloat.random(in: -120...120, using: &rng)
                let next = min(max(offset + delta, -100), extent + 100)
                let start = { (value: CGFloat) in min(max(value, 0), extent - viewport) }
                let bucket = { (value: CGFloat) in (value / step).rounded(.down) }
                let sameSteps = bucket(start(next)) == bucket(start(offset))
                    && bucket(start(next) + viewport) == bucket(start(offset) + viewport)
                let nextBand = ScrollBand(visible: CGRect(x: 0, y: next, width: 300, height: viewport), axis: .vertical,
                                          contentExtent: extent)
                if sameSteps { #expect(nextBand == band) }
                if nextBand != band { changes += 1 }
                travelled += abs(start(next) - start(offset))
                band = nextBand
                offset = next
            }
            // At most one change per step travelled, at each end.
            #expect(CGFloat(changes) <= 2 * (travelled / step + 1))
        }
    }

    @Test("a monotone scroll of a screen rebuilds about four times, not once a frame")
    func fewRebuildsPerScreen() {
        let viewport: CGFloat = 800
        var band = ScrollBand(visible: CGRect(x: 0, y: 2000, width: 400, height: viewport), axis: .vertical,
                              contentExtent: 20_000)
        var changes = 0
        for frame in 1...400 {                               // 2 pt a frame: 800 pt in 400 frames
            let next = ScrollBand(visible: CGRect(x: 0, y: 2000 + CGFloat(frame) * 2, width: 400, height: viewport),
                                  axis: .vertical, contentExtent: 20_000)
            if next != band { changes += 1 }
            band = next
        }
        #expect(changes == 4)
    }
}
