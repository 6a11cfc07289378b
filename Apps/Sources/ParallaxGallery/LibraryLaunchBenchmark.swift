#if canImport(CSDL2)
#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxImages

/// `parallax-gallery library-launch`: one launch of the gallery over a
/// person's library, measured as they see it, at the display's pace
/// (``PacedSession``): how long after the program started the first
/// screen is full, how long until every photo's shape and date is known,
/// how smooth the frames were meanwhile, and the peak memory.
///
/// Run it in a fresh process per launch (the script does), so the times
/// include loading the program and the memory is this launch's alone.
@MainActor
package enum LibraryLaunchBenchmark {
    /// What one launch measured; times in seconds since the process started
    /// (or was started: see ``run(library:size:diskCache:timeLimit:launchedAt:)``).
    package struct Figures: Sendable, Codable, Equatable {
        /// Photos shown once the listing finished.
        package var photos: Int
        /// When the measured part began (the program loaded, options read).
        package var started: Double
        /// When the listing finished.
        package var listed: Double?
        /// When every visible tile first showed its photo.
        package var firstScreen: Double?
        /// When every photo's shape and date was known (read, or remembered by an index).
        package var everythingKnown: Double?
        /// Frames drawn late, in milliseconds of lateness per second of frames (``ScrollingQuality``),
        /// from the second frame on: the first has no frame before it to be late after (its time is in
        /// ``firstScreen``).
        package var hitchMillisecondsPerSecond: Double
        /// Frames drawn.
        package var frames: Int
        /// The peak resident memory of the launch (until the first screen
        /// was full and everything known), in bytes: not of the return to the
        /// top after it, whose pictures are the memory cache's to keep.
        package var peakResidentBytes: Int
    }

    /// Launches the gallery on `library` in a `size` window drawn headlessly
    /// and follows it until everything is known and the top of the library
    /// is on a full screen, or `timeLimit` seconds have passed since the
    /// process started. `launchedAt`, when the launching script says, is when
    /// it started the process, in seconds on `CLOCK_BOOTTIME`: times count
    /// from it, to the microsecond, instead of from the kernel's record of
    /// the start, which is to 10 ms (``ProcessAge``).
    package static func run(library: PhotoLibrary, size: CGSize = CGSize(width: 1280, height: 800),
                            diskCache: DiskImageCache? = nil, timeLimit: Double = 120,
                            launchedAt: Double? = nil) async throws -> Figures {
        let age = launchedAt.flatMap(ProcessAge.seconds(sinceBootTime:)) ?? ProcessAge.seconds() ?? 0
        let clock = ContinuousClock(), origin = clock.now
        func now() -> Double {
            let elapsed = clock.now - origin
            return age + Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        }
        var settings = GallerySettings()
        settings.latency = .none
        let headless = try HeadlessRenderer(size: size)
        defer { headless.close() }
        headless.renderer.showsHUD = false
        let model = GalleryModel(library: library, settings: settings, viewportSize: size, diskCache: diskCache)
        var session = PacedSession(model: model, headless: headless, fillTimeLimit: timeLimit)
        let started = now()
        model.startListing()
        headless.renderer.prepare(headless.canvas)          // while the first photos are read
        await session.waitForFirstScreen()
        var figures = Figures(photos: 0, started: started, hitchMillisecondsPerSecond: 0, frames: 0, peakResidentBytes: 0)
        // Hitches and frames until the first screen is full and everything is known, not the settling after.
        var measured: (hitches: Double, frames: Int, peak: Int)?
        while now() < timeLimit {
            await session.frame()
            if figures.listed == nil, !model.isListing, model.listingSummary != nil || model.status != nil { figures.listed = now() }
            if figures.firstScreen == nil, model.unsharpCellCount == 0, !model.cells.isEmpty { figures.firstScreen = now() }
            if figures.everythingKnown == nil, figures.listed != nil, model.allShapesRead, model.allDatesRead {
                figures.everythingKnown = now()
            }
            if figures.firstScreen != nil, figures.everythingKnown != nil, measured == nil {
                measured = (session.afterFirst.hitchRatio, session.workTimes.count, PeakMemory.residentBytes())   // the launch itself
            }
            // Then, once the last dates are shown (they are arranged a few times a second), back to the top,
            // as a person who looked at their newest photos before closing: the top photo stays in place
            // while dates arrive, so this launch may have ended mid-library (on trees of hard links, whose
            // file times say nothing), while the next launch opens at the top.
            if figures.firstScreen != nil, figures.everythingKnown != nil, !model.needsRearrange, !model.isArranging,
               model.unsharpCellCount == 0 {
                if model.scroll.position <= 0 { break }
                model.jump(to: 0)
            }
            if figures.listed != nil, model.photos.isEmpty { break }
        }
        // What the launch read and decoded is on disk (index, thumbnails) before the next launch starts.
        await model.loader.waitUntilIdle()
        await model.saveForNextLaunch()
        figures.photos = model.photos.count
        figures.hitchMillisecondsPerSecond = measured?.hitches ?? session.afterFirst.hitchRatio
        figures.frames = measured?.frames ?? session.workTimes.count
        figures.peakResidentBytes = measured?.peak ?? PeakMemory.residentBytes()
        return figures
    }
}
#endif
