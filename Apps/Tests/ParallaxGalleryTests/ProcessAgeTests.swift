#if os(Linux)
import Foundation
import Testing
@testable import ParallaxGallery

/// The clock launches are measured on.
@Suite("Process age")
struct ProcessAgeTests {
    /// Seconds since boot, as a launching script reads them.
    func bootTime() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_BOOTTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// The age since a launch the script stated lies between the two reads
    /// of the clock around it: exact, not to a 10 ms tick.
    @Test func theAgeSinceAStatedLaunchIsBracketedByTheClock() throws {
        let before = bootTime()
        let age = try #require(ProcessAge.seconds(sinceBootTime: before - 5))
        let after = bootTime()
        #expect(age >= 5 && age <= 5 + (after - before))
        #expect(ProcessAge.seconds(sinceBootTime: after + 3600) == nil)
        #expect(ProcessAge.seconds(sinceBootTime: .nan) == nil)
    }
}
#endif
