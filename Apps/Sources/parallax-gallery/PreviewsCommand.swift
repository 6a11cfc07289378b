import ArgumentParser
import Foundation
import ParallaxGallery

/// `parallax-gallery previews`: what a photo's ThumbHash preview costs and
/// keeps (``PreviewBenchmark``).
struct Previews: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Bytes, making and rendering time and PSNR of every photo's ThumbHash preview.")

    @OptionGroup var options: SharedOptions

    @OptionGroup var report: ReportOutput

    @MainActor
    func run() async throws {
        let results = try await PreviewBenchmark.run(library: try await options.source.library(), size: options.size)
        print(results.summary)
        try report.write(results.markdown)
    }
}
