#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore
import Testing

@Suite("Span: one axis of a rectangle")
struct SpanTests {
    @Test func boundsMidAndPoints() {
        let span = Span(10, 30)
        #expect(span.upperBound == 40 && span.mid == 25 && span.point(at: 0.25) == 17.5)
        #expect(span.isFinite && !Span(.nan, 1).isFinite && !Span(0, .infinity).isFinite)
    }

    @Test func overlappingMeansSharingMoreThanAnEdge() {
        let span = Span(10, 30)
        #expect(span.overlaps(Span(39, 5)) && span.overlaps(Span(0, 10.5)) && span.overlaps(Span(20, 1)))
        #expect(!span.overlaps(Span(40, 5)) && !span.overlaps(Span(0, 10)))   // touching edges only
        // An empty span strictly inside overlaps (a point inside); one on an edge does not.
        #expect(span.overlaps(Span(20, 0)) && !span.overlaps(Span(10, 0)) && !span.overlaps(Span(40, 0)))
        // Symmetric, over many random spans.
        var rng = SplitMix64(seed: 8)
        for _ in 0..<2_000 {
            let a = Span(CGFloat(Int.random(in: -50...50, using: &rng)), CGFloat(Int.random(in: 1...40, using: &rng)))
            let b = Span(CGFloat(Int.random(in: -50...50, using: &rng)), CGFloat(Int.random(in: 1...40, using: &rng)))
            #expect(a.overlaps(b) == b.overlaps(a))
            let shared = min(a.upperBound, b.upperBound) - max(a.lowerBound, b.lowerBound)
            #expect(a.overlaps(b) == (shared > 0), "\(a) \(b)")
        }
    }
}
