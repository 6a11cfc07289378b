#if canImport(CSDL2)
import Foundation
import Testing
@testable import ParallaxGallery

/// The memory report's breakdown adds up to the resident memory, and its
/// targets judge what the issue asks: first screen, peak, growth once the
/// memory cache is full.
@Suite("Memory report")
struct MemoryReportTests {
    static let mib = 1_048_576

    func row(_ event: String, resident: Int, cached: Int) -> MemoryBenchmark.Breakdown {
        .init(event: event, resident: resident * Self.mib, cachedPictures: cached * Self.mib, textures: 16 * Self.mib,
              previews: 1 * Self.mib, decoding: 0, otherInUse: 20 * Self.mib, allocatorKept: 30 * Self.mib)
    }

    @Test func theBreakdownAddsUpToTheResidentMemory() {
        let breakdown = row("x", resident: 300, cached: 200)
        #expect(breakdown.cachedPictures + breakdown.textures + breakdown.previews + breakdown.decoding + breakdown.otherInUse
            + breakdown.allocatorKept + breakdown.rest == breakdown.resident)
        #expect(breakdown.rest == 33 * Self.mib)
    }

    @Test func growthCountsFromTheFirstCycleWithAFullCacheLeavingOutItsPictures() {
        let cycles = [row("1", resident: 200, cached: 100), row("2", resident: 330, cached: 240), row("3", resident: 350, cached: 256),
                      row("4", resident: 341, cached: 256)]
        var results = MemoryBenchmark.Results(photos: 3000, size: CGSize(width: 1280, height: 800), cacheLimit: 256 * Self.mib,
                                              firstScreen: row("first", resident: 110, cached: 4), cycles: cycles,
                                              peakResident: 440 * Self.mib)
        // From cycle 2 (240 ≥ 0.9 × 256) to cycle 4, leaving out the pictures the cache took meanwhile.
        #expect(results.growthAfterCacheFilled == ((341 - 256) - (330 - 240)) * Self.mib)
        #expect(results.targets.map(\.pass) == [true, true, true])
        results.peakResident = 449 * Self.mib                           // over 1.5 × 256 + 64 = 448
        results.firstScreen = row("first", resident: 125, cached: 4)    // over 120 + 4
        results.cycles.append(row("5", resident: 380, cached: 256))     // 34 MiB more than pictures since cycle 2: past 16
        #expect(results.targets.map(\.pass) == [false, false, false])
        results.cycles = Array(cycles.prefix(1))
        #expect(results.growthAfterCacheFilled == nil)
        #expect(results.targets.last?.pass == false, "a cache that never filled proves nothing about growth")
        #expect(results.markdown.contains("| first | 125 MiB | 4 MiB | 16 MiB | 1 MiB | 0 MiB | 20 MiB | 30 MiB | 54 MiB |"))
    }
}
#endif
