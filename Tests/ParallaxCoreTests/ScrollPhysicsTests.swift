import Foundation
import Testing
@testable import ParallaxCore

@Suite("Scroll physics")
struct ScrollPhysicsTests {
    @Test func decelerationRates() {
        #expect((DecelerationRate.normal.decayPerSecond) ≈ (-1000 * log(0.998)))
        #expect((DecelerationRate.fast.decayPerSecond) ≈ (-1000 * log(0.99)))
        // A 1000 pt/s fling at the normal rate travels 1000 / λ ≈ 499.5 pt.
        #expect((DecelerationRate.normal.distance(forVelocity: 1000)) ≈ (1000 / (-1000 * log(0.998))))
        #expect(DecelerationRate(rawValue: 2).decayPerSecond == DecelerationRate.normal.decayPerSecond)
    }

    @Test func rubberBandFormulaAndInverse() {
        let band = RubberBand()
        let shown = band.displayed(overscroll: 100, dimension: 844)
        #expect((shown) ≈ ((1 - 1 / (100 * 0.55 / 844 + 1)) * 844))
        #expect(band.displayed(overscroll: -100, dimension: 844) == -shown)
        var rng = SplitMix64(seed: 9)
        for _ in 0..<2000 {
            let x = CGFloat.random(in: -5000...5000, using: &rng)
            let d = CGFloat.random(in: 50...2000, using: &rng)
            let y = band.displayed(overscroll: x, dimension: d)
            #expect(abs(y) < d && abs(y) <= abs(x))
            #expect(abs((band.overscroll(displayed: y, dimension: d)) - (x)) <= 1e-6 * max(1, abs(x)))
        }
        #expect(band.displayed(overscroll: 10, dimension: 0) == 0)
        #expect(band.displayed(overscroll: .nan, dimension: 100) == 0)
    }

    @Test func flingFollowsTheClosedFormAndIsFrameRateIndependent() {
        var a = ScrollSimulation(position: 0, bounds: 0...100_000, viewportExtent: 844)
        var b = a
        a.fling(velocity: 3000)
        b.fling(velocity: 3000)
        for _ in 0..<60 { a.advance(by: 1.0 / 60) }
        for _ in 0..<120 { b.advance(by: 1.0 / 120) }
        #expect(abs((a.position) - (b.position)) <= 1e-6)
        let lambda = DecelerationRate.normal.decayPerSecond
        let expected = 3000 / lambda * (1 - exp(-lambda * 1))
        #expect(abs((a.position) - (expected)) <= 1e-6)
        #expect(abs((a.velocity) - (3000 * exp(-lambda))) <= 1e-6)
    }

    @Test func snappedFlingLandsExactlyOnItsTarget() {
        var sim = ScrollSimulation(position: 500, bounds: 0...10_000, viewportExtent: 844)
        sim.beginDrag()
        sim.drag(by: 40)
        let projected = sim.projectedPosition(forVelocity: 2000)
        let target = sim.endDrag(velocity: 2000) { ($0 / 203).rounded() * 203 }
        #expect(target == (projected / 203).rounded() * 203)
        #expect(sim.target == target)
        var steps = 0
        while !sim.isAtRest && steps < 10_000 { sim.advance(by: 1.0 / 120); steps += 1 }
        #expect(sim.position == target)
        #expect(sim.velocity == 0)
        #expect(steps < 1000)   // under about 8 s
    }

    @Test func dragPastTheEndRubberBandsAndBouncesBack() {
        var sim = ScrollSimulation(position: 0, bounds: 0...1000, viewportExtent: 800)
        sim.beginDrag()
        sim.drag(by: -300)
        #expect(sim.position < 0 && sim.position > -300)
        #expect((sim.position) ≈ (RubberBand().displayed(overscroll: -300, dimension: 800)))
        // Dragging back resumes from the rubber-banded position without a jump.
        sim.beginDrag()
        sim.drag(by: 0.001)
        #expect(abs((sim.position) - (RubberBand().displayed(overscroll: -300, dimension: 800))) <= 0.01)
        sim.endDrag(velocity: 0)
        #expect(sim.phase == .bouncing)
        var steps = 0
        while !sim.isAtRest && steps < 10_000 { sim.advance(by: 1.0 / 120); steps += 1; #expect(sim.position <= 1e-9) }
        #expect(sim.position == 0)
        #expect(steps < 240)   // settled within two seconds
    }

    @Test func flingPastTheEndOvershootsThenSettlesOnTheEnd() {
        var sim = ScrollSimulation(position: 900, bounds: 0...1000, viewportExtent: 800)
        sim.fling(velocity: 5000)
        var maximum: CGFloat = 0
        var steps = 0
        while !sim.isAtRest && steps < 10_000 {
            sim.advance(by: 1.0 / 120); steps += 1
            maximum = max(maximum, sim.position)
        }
        #expect(maximum > 1000)
        #expect(sim.position == 1000)
    }

    @Test func aStillFlingDuringABounceStillBouncesBack() {
        var sim = ScrollSimulation(position: 0, bounds: 0...1000, viewportExtent: 800)
        sim.beginDrag()
        sim.drag(by: -200)
        sim.endDrag(velocity: 0)
        sim.advance(by: 0.02)
        #expect(sim.position < 0)
        sim.fling(velocity: 0)                       // e.g. a sideways wheel event mid-bounce
        #expect(sim.phase == .bouncing)
        for _ in 0..<600 where !sim.isAtRest { sim.advance(by: 1.0 / 60) }
        #expect(sim.position == 0)
    }

    /// Content moving under the viewport mid-fling (a layout rebuilt keeping
    /// the user's place) moves the whole fling: from then on it is the
    /// unshifted fling plus the shift, frame for frame, and it comes to rest
    /// the same distance further on.
    @Test func shiftMovesAFlingWithoutChangingItsMotion() {
        var rng = SplitMix64(seed: 77)
        for _ in 0..<200 {
            var plain = ScrollSimulation(position: 50_000, bounds: 0...200_000, viewportExtent: 844)
            let velocity = CGFloat.random(in: -8000...8000, using: &rng)
            plain.fling(velocity: velocity)
            for _ in 0..<Int.random(in: 0...40, using: &rng) { plain.advance(by: 1.0 / 60) }
            var shifted = plain
            let delta = CGFloat.random(in: -3000...3000, using: &rng)
            shifted.shift(by: delta)
            #expect(shifted.phase == plain.phase)
            #expect(abs(shifted.velocity - plain.velocity) <= 1e-9)
            if let target = plain.target { #expect(abs(shifted.target! - (target + delta)) <= 1e-6) }
            for _ in 0..<300 {
                plain.advance(by: 1.0 / 60)
                shifted.advance(by: 1.0 / 60)
                #expect(abs(shifted.position - (plain.position + delta)) <= 1e-6)
            }
            #expect(plain.isAtRest && shifted.isAtRest)
        }
    }

    @Test func shiftMovesADragAndARestingPositionAndIgnoresBadDeltas() {
        var sim = ScrollSimulation(position: 500, bounds: 0...10_000, viewportExtent: 844)
        sim.shift(by: 120)
        #expect(sim.position == 620 && sim.isAtRest)
        sim.beginDrag()
        sim.drag(by: 10)
        sim.shift(by: -200)
        #expect(sim.position == 430 && sim.phase == .dragging)
        sim.drag(by: 5)
        #expect(sim.position == 435)                     // the finger holds the same content point
        sim.shift(by: .nan)
        sim.shift(by: .infinity)
        #expect(sim.position == 435)
        // A bounce keeps aiming at the end of the bounds, which did not move.
        var bouncing = ScrollSimulation(position: 0, bounds: 0...1000, viewportExtent: 844)
        bouncing.beginDrag()
        bouncing.drag(by: -300)
        bouncing.endDrag(velocity: 0)
        #expect(bouncing.phase == .bouncing)
        bouncing.shift(by: -50)
        for _ in 0..<120 { bouncing.advance(by: 1.0 / 60) }
        #expect(bouncing.isAtRest && bouncing.position == 0)
    }

    @Test func badInputIsIgnored() {
        var sim = ScrollSimulation(position: .nan, bounds: 0...100, viewportExtent: 100)
        #expect(sim.position == 0)
        sim.drag(by: .infinity)
        #expect(sim.position == 0)
        sim.fling(velocity: .nan)
        #expect(sim.isAtRest)
        let moved = sim.advance(by: .nan)
        #expect(!moved)
        sim.decelerate(to: 500)
        #expect(sim.target == 100)
    }
}
