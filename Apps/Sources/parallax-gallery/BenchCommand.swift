import ArgumentParser
import ParallaxGallery

/// `parallax-gallery bench`: frame times of a scripted fling
/// (``GalleryBenchmark``), printed and optionally written as Markdown.
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Frame times of a scripted fling through 1,000 photos (software renderer).")

    @OptionGroup var options: SharedOptions

    @OptionGroup var report: ReportOutput

    /// Reads the targets the report judges by (scripts/benchreport/targets.json)
    /// before any work: a missing or broken file stops the command before a
    /// run of minutes, not after it.
    func validate() throws {
        _ = try BenchmarkTargets.load()
    }

    @MainActor
    func run() async throws {
        let size = options.size
        let library = try await options.source.library()
        let results = try await GalleryBenchmark.run(library: library, size: size)
        print(results.summary)
        try report.write(results.markdown)
    }
}
