import ArgumentParser
import Foundation
import ParallaxGallery

/// `parallax-gallery library-launch`: one launch over a library, measured
/// (``LibraryLaunchBenchmark``), as one line of JSON for
/// `scripts/bench-library.sh`, which runs it in a fresh process per launch.
struct LibraryLaunch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "library-launch",
        abstract: "Launch the gallery headlessly on a photo library and print, as JSON, when its first screen was full, when every date and shape was known, its hitches and its peak memory.")

    @OptionGroup var source: PhotoSourceOptions

    @Option(help: "Give up this many seconds after the launch.")
    var timeLimit: Double = 120

    @Option(help: ArgumentHelp("When the launching script started this process, in seconds since boot (CLOCK_BOOTTIME): times are measured from it, to the microsecond, instead of from the kernel's record of the process start, which is to 10 ms.", valueName: "seconds"))
    var launchedAt: Double?

    @MainActor
    func run() async throws {
        let library = try await source.library(indexed: true)
        let figures = try await LibraryLaunchBenchmark.run(library: library, diskCache: source.diskCache(), timeLimit: timeLimit,
                                                         launchedAt: launchedAt)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        print(String(decoding: try encoder.encode(figures), as: UTF8.self))
    }
}
