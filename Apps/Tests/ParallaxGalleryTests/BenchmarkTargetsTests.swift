#if canImport(CSDL2)
import Foundation
import Testing
@testable import ParallaxGallery

/// The gallery's reports judge by scripts/benchreport/targets.json, the file
/// scripts/bench-report.py judges the harness sections by: a target moves
/// by editing that file alone.
@Suite("Benchmark targets")
struct BenchmarkTargetsTests {
    @Test func theRepositoryFileIsReadAndWrittenAsItHoldsIt() throws {
        let targets = try BenchmarkTargets.load()
        #expect(targets == BenchmarkTargets.repository)
        #expect(BenchmarkTargets.fileURL.path.hasSuffix("/scripts/benchreport/targets.json"))
        #expect(BenchmarkTargets.text(8.3) == "8.3")
        #expect(BenchmarkTargets.text(250) == "250")
        #expect(BenchmarkTargets.text(2.2) == "2.2")
        #expect(BenchmarkTargets.text(1) == "1")
    }

    @Test func aFileWithoutATargetIsRefusedNamingIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("targets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("targets.json")
        try Data(#"{"gallery-benchmarks": {"cached_p50_at_most_ms": 2, "cached_p99_at_most_ms": 4}, "session-benchmarks": {}}"#.utf8).write(to: file)
        let refusal = #expect(throws: BenchmarkTargets.LoadError.self) { _ = try BenchmarkTargets.load(from: file) }
        #expect(refusal?.description.contains(file.path) == true)
        #expect(refusal?.description.contains("inFlightLongestFrameAtMostMs") == true, "\(String(describing: refusal))")
        #expect(throws: BenchmarkTargets.LoadError.self) { _ = try BenchmarkTargets.load(from: folder.appendingPathComponent("none.json")) }
    }

    /// Other goals change the labels, the verdicts and the prose a failed target brings, nothing else.
    @Test func theSessionReportJudgesByTheGoalsItIsGiven() throws {
        var quality = ScrollingQuality()
        quality.record(visible: 100, blank: 2, isMoving: true, frameTime: 0.01, interval: 1.0 / 60)
        let figures = SessionBenchmark.Figures(
            scenario: .init(layout: .grid, latency: .none, followsViewport: true), photos: 3000,
            flings: [3000: quality, 6000: quality], whole: quality,
            fills: [.init(event: "first screen", seconds: 0.04), .init(event: "jump to the end", seconds: 0.3)],
            work: (0.004, 0.012, 0.015), peakResidentBytes: 300 << 20, cachePeakBytes: 100 << 20,
            cacheLimitBytes: 256 << 20, decodes: 10)
        var goals = BenchmarkTargets.repository.session
        goals.blankAt3000AtMostPercent = 2.5
        goals.fullAfterJumpAtMostMs = 120
        goals.hitchAtMostMsPerS = 7
        let markdown = SessionReport.markdown([figures], goals: goals)
        #expect(markdown.contains("| grid, on disk: blank ≤ 2.5 % at 3,000 pt/s | 2.00 % | **PASS** |"))
        #expect(markdown.contains("| grid, on disk: full ≤ 120 ms after every jump | 300 ms | **FAIL** |"))
        #expect(markdown.contains("(Apple's measure; ≤ 7 is the goal, > 10 noticeable)"))
        #expect(markdown.contains("hitch time ≤ 7 ms/s |"))
        #expect(markdown.contains("\nWhy a jump on disk misses 120 ms: a jump lands on 48 tiles"))
    }
}
#endif
