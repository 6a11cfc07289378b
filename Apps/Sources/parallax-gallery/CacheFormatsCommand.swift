import ArgumentParser
import Foundation
import ParallaxGallery

/// `parallax-gallery cache-formats`: what each thumbnail disk cache format
/// costs on disk and to read back (``CacheFormatBenchmark``).
struct CacheFormats: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache-formats",
        abstract: "Bytes on disk and read-back time of a grid thumbnail in each disk cache format, and in the freedesktop.org store's.")

    @OptionGroup var options: SharedOptions

    @OptionGroup var report: ReportOutput

    @MainActor
    func run() async throws {
        let results = try await CacheFormatBenchmark.run(library: try await options.source.library(), size: options.size)
        for row in results.rows {
            print(String(format: "%@: %.0f bytes, read %.3f ms, PSNR %.1f / %.1f dB", row.name, row.bytesPerEntry,
                         row.readSeconds * 1000, row.meanPSNR, row.minimumPSNR))
        }
        try report.write(results.markdown)
    }
}
