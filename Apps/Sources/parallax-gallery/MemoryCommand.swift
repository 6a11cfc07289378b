import ArgumentParser
import Foundation
import ParallaxGallery

/// `parallax-gallery memory`: resident memory over a long session and where
/// it goes (``MemoryBenchmark``).
struct Memory: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Resident memory at the first screen and over fling-and-return cycles, with where it goes.")

    @OptionGroup var options: SharedOptions

    @OptionGroup var report: ReportOutput

    @Option(help: "How many photos (the photo set repeated).")
    var count: Int = 3000

    @Option(help: "How many fling-and-return cycles.")
    var cycles: Int = 20

    func validate() throws {
        guard (1...1_000_000).contains(count) else { throw ValidationError("--count must be 1…1000000") }
        guard (1...1000).contains(cycles) else { throw ValidationError("--cycles must be 1…1000") }
    }

    @MainActor
    func run() async throws {
        let results = try await MemoryBenchmark.run(library: try await options.source.library(), size: options.size, photos: count,
                                                    cycles: cycles)
        print(results.summary)
        try report.write(results.markdown)
    }
}
