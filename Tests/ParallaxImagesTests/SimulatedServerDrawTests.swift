import Foundation
import ParallaxCore
import Testing
@testable import ParallaxImages

@Suite("Simulated server's draws")
struct SimulatedServerDrawTests {
    @Test func theClosedFormDrawsAreSplitMix64s() {
        for seed: UInt64 in [0, 1, 2015, .max, 0x1234_5678_9ABC_DEF0] {
            var generator = SplitMix64(seed: seed)
            for draw: UInt64 in 1...5 { #expect(SimulatedImageServer.splitMix(seed, draw: draw) == generator.next()) }
        }
    }
}
