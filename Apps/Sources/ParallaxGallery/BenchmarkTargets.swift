import Foundation

/// The targets the gallery's benchmark reports judge their figures by
/// (``GalleryBenchmark`` and ``SessionReport``), read from
/// `scripts/benchreport/targets.json`: the one file that holds every target
/// of BENCHMARKS.md, whose harness sections scripts/bench-report.py judges
/// by the same file. Each side judges the figures only it holds; the
/// numbers live in one place (`scripts/benchreport/targets.py` says why).
///
/// A threshold's name in the file ends in its unit, as its property's does
/// here: `full_after_jump_at_most_ms` is ``Session/fullAfterJumpAtMostMs``.
package struct BenchmarkTargets: Sendable, Hashable, Decodable {
    /// `parallax-gallery bench`: frame times of a fling.
    package struct Gallery: Sendable, Hashable, Decodable {
        /// With every thumbnail cached, the median frame leaves a slow machine's
        /// core mostly idle (software renderer, 1280 × 800).
        package var cachedP50AtMostMs: Double
        /// With every thumbnail cached, the 99th percentile frame fits a 240 Hz display.
        package var cachedP99AtMostMs: Double
        /// While thumbnails decode on other threads, no frame misses a 60 Hz display.
        package var inFlightLongestFrameAtMostMs: Double
    }

    /// `parallax-gallery session`: what a person scrolling sees.
    package struct Session: Sendable, Hashable, Decodable {
        /// Photos on disk: visible tiles without their picture while moving at 3,000 pt/s.
        package var blankAt3000AtMostPercent: Double
        /// The same at 6,000 pt/s.
        package var blankAt6000AtMostPercent: Double
        /// Photos on disk: from the stop of every fling until the screen is full.
        package var fullAfterFlingAtMostMs: Double
        /// Photos on disk: from every jump until the screen is full.
        package var fullAfterJumpAtMostMs: Double
        /// A slow server: after every stop and jump, and the first screen.
        package var slowServerFullAtMostS: Double
        /// A second launch: the first screen, from the thumbnail disk cache.
        package var secondLaunchFirstScreenAtMostMs: Double
        /// A second launch: after every jump.
        package var secondLaunchJumpAtMostMs: Double
        /// Frame time past the 16.7 ms budget per second of session (Apple's hitch time ratio).
        package var hitchAtMostMsPerS: Double
        /// The same over the frames of the pinches.
        package var pinchingHitchAtMostMsPerS: Double
        /// Photos on disk: tiles without a picture while pinching.
        package var pinchingBlankAtMostPercent: Double
        /// A server that lists every photo's preview: tiles showing nothing of their photo while moving.
        package var previewsListedBlankAtMostPercent: Double
        /// The same: from every jump until every tile shows at least its preview (one frame).
        package var previewsListedPreviewedAfterJumpAtMostMs: Double
    }

    package var gallery: Gallery
    package var session: Session

    enum CodingKeys: String, CodingKey {
        case gallery = "gallery-benchmarks"
        case session = "session-benchmarks"
    }

    /// Why the targets could not be read.
    package struct LoadError: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// `scripts/benchreport/targets.json`, found from this source file's
    /// place in the repository (`Apps/Sources/ParallaxGallery/`), so the
    /// command reads it from any working folder, and the tests too.
    package static let fileURL: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/benchreport/targets.json")

    /// The targets in the file at `url`.
    package static func load(from url: URL = fileURL) throws(LoadError) -> BenchmarkTargets {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw LoadError(description: "cannot read the benchmark targets at \(url.path): \(error.localizedDescription)")
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do {
            return try decoder.decode(BenchmarkTargets.self, from: data)
        } catch {
            throw LoadError(description: "the benchmark targets at \(url.path) are not as expected: \(error)")
        }
    }

    /// The repository's targets, read once.
    ///
    /// The benchmark commands call ``load(from:)`` before any work, so a
    /// missing or broken file is reported there as an error; reaching this
    /// without the file is a checkout without its scripts, and stops as a
    /// missing resource bundle does.
    package static let repository: BenchmarkTargets = {
        do {
            return try load()
        } catch {
            fatalError("\(error)")
        }
    }()
}

extension BenchmarkTargets {
    /// A threshold as the reports write it: `8.3`, `250`, `2.2`.
    package static func text(_ value: Double) -> String { String(format: "%g", value) }
}
