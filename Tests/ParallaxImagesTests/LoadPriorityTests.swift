import Foundation
import ParallaxCore
import Testing
import ParallaxImages

@Suite("Load priority")
struct LoadPriorityTests {
    @Test func rangesComeFirstThenNearnessWithinARange() {
        let order: [LoadPriority] = [
            .outside, LoadPriority(.behind, distance: 500), LoadPriority(.behind, distance: 0),
            LoadPriority(.ahead, distance: 9000), .prefetch, LoadPriority(.landing), .visible,
        ]
        for (a, b) in zip(order, order.dropFirst()) { #expect(a < b, "\(a) should be less urgent than \(b)") }
        // A far visible tile still beats the nearest tile ahead.
        #expect(LoadPriority(.visible, distance: 10_000) > LoadPriority(.ahead, distance: 0))
        #expect(LoadPriority.visible.isUrgent && LoadPriority(.landing).isUrgent)
        #expect(!LoadPriority.prefetch.isUrgent && !LoadPriority(.behind).isUrgent && !LoadPriority.outside.isUrgent)
    }

    @Test func distancesAreCleanedUp() {
        #expect(LoadPriority(.ahead, distance: -40).distance == 0)
        #expect(LoadPriority(.ahead, distance: .nan).distance == .infinity)
        #expect(LoadPriority(.ahead, distance: .nan) < LoadPriority(.ahead, distance: 1e300))
        #expect(LoadPriority(.ahead, distance: 120.4).description == "ahead at 120 pt")
        #expect(LoadPriority.visible.description == "visible")
        #expect(LoadPriority(.behind, distance: .infinity).description == "behind, infinitely far")
        #expect(LoadPriority(.behind, distance: .nan).description == "behind, infinitely far")
        #expect(LoadPriority(.ahead, distance: 1e300).description == "ahead, infinitely far")
    }

    @Test func theOrderIsStrictAndTotalOverRandomPriorities() {
        var rng = SplitMix64(seed: 7)
        let distances: [Double] = [0, 1, 50, 50, 1e6, .infinity, .nan, -3]
        let all = (0..<400).map { _ in
            LoadPriority(LoadPriority.Range.allCases.randomElement(using: &rng)!, distance: distances.randomElement(using: &rng)!)
        }
        for a in all.prefix(60) {
            #expect(!(a < a))
            for b in all.prefix(60) {
                // Exactly one of <, ==, > holds.
                #expect([a < b, a == b, b < a].filter { $0 }.count == 1, "\(a) vs \(b)")
                for c in all.prefix(12) where a < b && b < c { #expect(a < c) }
            }
        }
        let sorted = all.sorted(by: >)
        #expect(zip(sorted, sorted.dropFirst()).allSatisfy { $0.range >= $1.range })
    }
}
