#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import Testing
import ParallaxCore

@Suite("Scroll motion")
struct ScrollMotionTests {
    @Test func aMotionAtRestGoesNowhere() {
        let rest = ScrollMotion.resting(at: 420)
        #expect(!rest.isMoving && rest.direction == 0)
        #expect(rest.time(toReach: 420) == 0)
        #expect(rest.time(toReach: 421) == nil && rest.time(toReach: 0) == nil)
    }

    @Test func timeToReachIsTheExponentialDecaysInverse() {
        // offset(t) = 1000 − 1000 · e^(−2t): halfway after ln 2 / 2 s.
        let forward = ScrollMotion(offset: 0, restingOffset: 1000, decayPerSecond: 2)
        #expect(forward.isMoving && forward.direction == 1)
        #expect(forward.time(toReach: 500) == log(2) / 2)
        #expect(forward.time(toReach: 900) == log(10) / 2)
        #expect(forward.time(toReach: 0) == 0)
        // Behind the motion, at the resting offset (reached only in the limit) and past it: never.
        #expect(forward.time(toReach: -1) == nil)
        #expect(forward.time(toReach: 1000) == nil)
        #expect(forward.time(toReach: 1200) == nil)
        #expect(forward.time(toReach: .nan) == nil && forward.time(toReach: .infinity) == nil)

        let backward = ScrollMotion(offset: 1000, restingOffset: 0, decayPerSecond: 4)
        #expect(backward.direction == -1)
        #expect(backward.time(toReach: 250) == log(4) / 4)
        #expect(backward.time(toReach: 1001) == nil && backward.time(toReach: -5) == nil)
    }

    @Test func timeToReachInvertsThePathForRandomMotions() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let offset = CGFloat.random(in: -5000...5000, using: &rng)
            let resting = offset + CGFloat.random(in: -8000...8000, using: &rng)
            let lambda = CGFloat.random(in: 0.5...20, using: &rng)
            let t = CGFloat.random(in: 0.001...1.5, using: &rng)
            let motion = ScrollMotion(offset: offset, restingOffset: resting, decayPerSecond: lambda)
            let there = resting - (resting - offset) * exp(-lambda * t)
            guard abs(there - resting) > 1e-3, abs(there - offset) > 1e-3 else { continue }
            let found = try! #require(motion.time(toReach: there), "\(motion) never reaches \(there)")
            #expect(abs(found - t) <= 1e-6 * max(1, t), "\(motion) reaches \(there) after \(found) s, not \(t) s")
        }
    }

    @Test func badNumbersGiveAMotionAtRest() {
        for motion in [ScrollMotion(offset: 10, restingOffset: .nan, decayPerSecond: 3),
                       ScrollMotion(offset: 10, restingOffset: 100, decayPerSecond: .infinity),
                       ScrollMotion(offset: 10, restingOffset: 100, decayPerSecond: -1),
                       ScrollMotion(offset: 10, restingOffset: 100, decayPerSecond: 0)] {
            #expect(!motion.isMoving && motion.offset == 10 && motion.restingOffset == 10)
        }
        let nowhere = ScrollMotion(offset: .nan, restingOffset: 100, decayPerSecond: 3)
        #expect(nowhere.offset == 0 && nowhere.isMoving && nowhere.restingOffset == 100)
    }

    @Test func aSimulationsMotionEndsWhereTheFlingStops() {
        var sim = ScrollSimulation(position: 0, bounds: 0...100_000, viewportExtent: 800)
        #expect(!sim.motion.isMoving)
        sim.fling(velocity: 6000)
        for _ in 0..<12 { sim.advance(by: 1.0 / 60) }
        let motion = sim.motion
        #expect(motion.offset == sim.position && motion.decayPerSecond == DecelerationRate.normal.decayPerSecond)
        // The closed form's time to any point ahead matches the frames it takes to get there.
        let halfway = (motion.offset + motion.restingOffset) / 2
        let predicted = try! #require(motion.time(toReach: halfway))
        var elapsed: CGFloat = 0
        while sim.position < halfway { sim.advance(by: 1.0 / 600); elapsed += 1.0 / 600 }
        #expect(abs(elapsed - predicted) <= 1.0 / 600 + 1e-9)
        while !sim.isAtRest { sim.advance(by: 1.0 / 60) }
        #expect(abs(sim.position - motion.restingOffset) <= 1)
        // A finger on the screen has no known future.
        sim.beginDrag()
        #expect(!sim.motion.isMoving)
    }
}
