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

    @Option(help: "An SVG file to draw resident memory over the session into (replaced; its folder must exist); the report shows it under this path.")
    var plot: String?

    func validate() throws {
        guard (1...1_000_000).contains(count) else { throw ValidationError("--count must be 1…1000000") }
        guard (1...1000).contains(cycles) else { throw ValidationError("--cycles must be 1…1000") }
        if let plot { try OutputCheck.requireWritable(plot, option: "--plot", kind: .file) }
    }

    @MainActor
    func run() async throws {
        var results = try await MemoryBenchmark.run(library: try await options.source.library(), size: options.size, photos: count,
                                                    cycles: cycles)
        print(results.summary)
        if let plot {
            try OutputFile.write(Data(results.plot.svg().utf8), to: plot)
            results.plotPath = plot
            print("wrote \(plot)")
        }
        try report.write(results.markdown)
    }
}
