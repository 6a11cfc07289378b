import Foundation
import Testing
import ParallaxDemo
import ProcessTestSupport

/// The `parallax-demo` executable, run as a user would.
enum DemoExecutable {
    /// The binary of this build: in `PARALLAX_BIN_PATH` (what `make test`
    /// sets from `swift build --show-bin-path`), else beside the running test
    /// bundle, whatever the scratch path.
    static var url: URL? {
        var folders: [URL] = []
        if let bin = ProcessInfo.processInfo.environment["PARALLAX_BIN_PATH"], !bin.isEmpty {
            folders.append(URL(fileURLWithPath: bin))
        }
        if let tests = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            folders.append(tests.deletingLastPathComponent())
        }
        return folders.map { $0.appendingPathComponent("parallax-demo") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    struct Outcome {
        var status: Int32
        var output: String
        var errors: String
        var duration: Duration
        /// The first line on standard error: the one-sentence reason.
        var firstError: String { String(errors.split(separator: "\n", omittingEmptySubsequences: false).first ?? "") }
    }

    /// Runs it with `arguments` and waits (at most `timeout` seconds, then stops it).
    static func run(_ arguments: [String], timeout: TimeInterval = 300) throws -> Outcome {
        let executable: URL = try #require(url, "build the apps first (swift build --package-path Apps): no parallax-demo binary")
        let finished = try FinishedProcess.run(executable, arguments: arguments, timeout: timeout)
        return Outcome(status: finished.status, output: String(decoding: finished.output, as: UTF8.self),
                       errors: String(decoding: finished.errors, as: UTF8.self), duration: finished.duration)
    }
}

@Suite("Demo command", .serialized)
struct DemoCommandTests {
    /// argument parser's exit status for a refused value (EX_USAGE).
    let usageStatus: Int32 = 64

    func expectRefused(_ arguments: [String], _ message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let outcome = try DemoExecutable.run(arguments)
        #expect(outcome.status == usageStatus, "\(arguments)", sourceLocation: sourceLocation)
        #expect(outcome.firstError == "Error: " + message, sourceLocation: sourceLocation)
        #expect(outcome.output.isEmpty, "nothing on standard output", sourceLocation: sourceLocation)
    }

    @Test func aNonFiniteOffsetIsRefusedAndNoJSONIsPrinted() throws {
        try expectRefused(["--offset", "nan", "--format", "json"],
                          "The value 'nan' is invalid for '--offset <offset>': not a finite number; "
                            + "expected a finite number of points in -1000000000000…1000000000000.")
        try expectRefused(["--offset", "1e308", "--format", "json"],
                          "The value '1e308' is invalid for '--offset <offset>': out of range; "
                            + "expected a finite number of points in -1000000000000…1000000000000.")
    }

    @Test func depthAndIntensityOutsideTheirRangesAreRefused() throws {
        let depth = "expected a finite number of points in 0…10000."
        try expectRefused(["--max-offset", "nan"], "The value 'nan' is invalid for '--max-offset <max-offset>': not a finite number; \(depth)")
        try expectRefused(["--max-offset", "-50"], "The value '-50' is invalid for '--max-offset <max-offset>': out of range; \(depth)")
        try expectRefused(["--max-offset", "1e308"], "The value '1e308' is invalid for '--max-offset <max-offset>': out of range; \(depth)")
        let intensity = "expected a finite number in 0…10."
        try expectRefused(["--intensity", "inf"], "The value 'inf' is invalid for '--intensity <intensity>': not a finite number; \(intensity)")
        try expectRefused(["--intensity", "-1"], "The value '-1' is invalid for '--intensity <intensity>': out of range; \(intensity)")
        try expectRefused(["--max-offset", "10", "--intensity", "1e308"],
                          "The value '1e308' is invalid for '--intensity <intensity>': out of range; \(intensity)")
    }

    @Test func hugeViewportsAndItemCountsAreRefusedOrCappedQuickly() throws {
        let refused = try DemoExecutable.run(["--viewport", "1e308x1e308", "--items", "9223372036854775807"], timeout: 120)
        #expect(refused.status == usageStatus)
        #expect(refused.firstError == "Error: The value '1e308x1e308' is invalid for '--viewport <viewport>': out of range; "
                    + "expected WIDTHxHEIGHT, each side a finite number of points in 1…100000, e.g. 390x844.")
        #expect(refused.duration < .seconds(5))
        let items = try DemoExecutable.run(["--items", "9223372036854775807"], timeout: 120)
        #expect(items.status == usageStatus)
        #expect(items.firstError == "Error: The value '9223372036854775807' is invalid for '--items <items>': out of range; "
                    + "expected a whole number in 0…10000000.")
        // The largest accepted scene lists the first 10,000 visible items and counts the rest.
        let largest = try DemoExecutable.run(["--viewport", "100000x100000", "--items", "10000000"], timeout: 300)
        #expect(largest.status == 0, "\(largest.errors)")
        #expect(largest.duration < .seconds(10))
        let lines = largest.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "grid, 640 columns, effect depth; viewport 100000×100000 at y = 0.0; content 100000×2441219; "
                    + "409600 visible, the first 10000 listed")
        #expect(lines.count == 2 + 10_000)
    }

    @Test func jsonIsAFullDocumentWithFinitePlacements() throws {
        let outcome = try DemoExecutable.run(["--items", "20", "--offset", "-200", "--max-offset", "10000", "--intensity", "10",
                                              "--format", "json"])
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output != "{}\n")
        let report = try JSONDecoder().decode(FrameReport.self, from: Data(outcome.output.utf8))
        #expect(report.visibleCount == 8)
        #expect(report.items.count == 8)
        #expect(report.viewport.y == -200)
        // 100,000 points of depth: the first item, 8 pt down in a viewport starting at −200 (centre 222), is
        // (222 − 99.5) / (422 + 91.5) · 100000 ≈ 23855.9 pt from rest, within ±100000, so unclamped.
        let first = try #require(report.items.first)
        #expect(abs(first.parallaxOffset - 122.5 * 100_000 / 513.5) < 1e-6)
        #expect(first.contentFrame.height == 183 + 200_000)
    }

    /// A 100,000-item list is about 19.5 million points tall: an offset
    /// inside it is shown, never refused as out of range.
    @Test func anOffsetDeepInsideALongListIsShown() throws {
        let outcome = try DemoExecutable.run(["--layout", "list", "--items", "100000", "--offset", "19000000",
                                              "--format", "json"])
        #expect(outcome.status == 0, "\(outcome.errors)")
        let report = try JSONDecoder().decode(FrameReport.self, from: Data(outcome.output.utf8))
        #expect(report.viewport.y == 19_000_000)
        #expect(report.visibleCount > 0 && report.items.allSatisfy { $0.item > 90_000 }, "\(report.items.map(\.item))")
    }
}
