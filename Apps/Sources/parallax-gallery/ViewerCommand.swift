import ArgumentParser
import Foundation
import ParallaxGallery

/// `parallax-gallery viewer`: the detail view in real time (``ViewerBenchmark``).
struct Viewer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The detail view in real time: click to first frame, to a sharp picture and a sharp 1:1 region, hitches, memory.")

    @OptionGroup var options: SharedOptions

    @OptionGroup var report: ReportOutput

    @Option(help: "How many photos to open, each in turn (at most the library's).")
    var count: Int = 49

    @Option(help: "A photo file to open alone for the memory measure (repeatable): the largest of the set, a 100-megapixel JPEG.")
    var large: [String] = []

    func validate() throws {
        guard (1...10_000).contains(count) else { throw ValidationError("--count must be 1…10000") }
        for path in large where !FileManager.default.isReadableFile(atPath: path) {
            throw ValidationError("--large '\(path)' is not a readable file")
        }
    }

    @MainActor
    func run() async throws {
        let results = try await ViewerBenchmark.run(library: try await options.source.library(), size: options.size, photos: count,
                                                    large: large.map { URL(fileURLWithPath: $0) })
        print(results.summary)
        try report.write(results.markdown)
    }
}
