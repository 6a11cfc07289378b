#if canImport(CSDL2)
#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxImages

/// `parallax-gallery session`: what a person scrolling the gallery sees,
/// measured at the display's pace.
///
/// A scripted session runs on the wall clock: a frame is due every
/// 16.7 ms, and each one is the model's update and the drawing by the
/// headless renderer, while downloads and decodes run beside it. A frame
/// that finishes late makes the next one wait for the next due time, as a
/// display's refresh would. The script: the first screen; two flings at
/// 3,000 pt/s and two at 6,000 pt/s, each left to stop; a jump to the
/// middle and one to the end. After every stop it waits for a full screen,
/// then looks at it for a second (so preloading gets the time a person
/// gives it).
@MainActor
package enum SessionBenchmark {
    /// One session's set-up.
    package struct Scenario: Sendable, Hashable {
        /// Where the photos come from.
        package enum Source: String, Sendable, Hashable {
            /// The photo folder, through the simulated server (with `latency`).
            case folder
            /// A real HTTP server on loopback (`python3 -m http.server` over the photo folder).
            case httpServer
            /// The photos of a server the user named (`--server`), through the simulated server.
            case server
            /// Generated pictures in memory, through the simulated server.
            case generated

            /// Where `library`'s photos come from: a server, generated
            /// pictures, or (anything else) a folder. Derived from the
            /// library itself, so a report never calls a server's photos
            /// "on disk".
            package init(library: PhotoLibrary) {
                switch library.source {
                case is HTTPImageSource: self = .server
                case is GeneratedImageSource, is InMemoryImageSource: self = .generated
                default: self = .folder
                }
            }
        }

        /// What the thumbnail disk cache holds when the session starts.
        package enum Cache: String, Sendable, Hashable {
            /// No disk cache.
            case none
            /// An empty disk cache, filled as the session goes (a first launch).
            case cold
            /// The disk cache a cold session filled, under a new model (a second launch).
            case warm
        }

        package var layout: GalleryLayout
        package var latency: LatencyPreset
        /// ParallaxKit's scheduling, or the first-come-first-served baseline.
        package var followsViewport: Bool
        package var source: Source
        package var cache: Cache

        package init(layout: GalleryLayout, latency: LatencyPreset, followsViewport: Bool,
                    source: Source = .folder, cache: Cache = .none) {
            self.layout = layout
            self.latency = latency
            self.followsViewport = followsViewport
            self.source = source
            self.cache = cache
        }

        /// Whether the photos' previews come with the list, as from a photo
        /// server's manifest (Immich's `thumbhash`): the slow server's do;
        /// photos on disk have none until decoded, nor do a plain HTTP
        /// folder's.
        package var listsPreviews: Bool { source == .folder && latency != .none }

        /// Where the photos come from, in words.
        package var origin: String {
            let delay = "\(latency.rangeText) per photo"
            switch source {
            case .folder: return latency == .none ? "photos on disk" : "a slow server (\(delay), previews listed)"
            case .httpServer: return "HTTP server (loopback)"
            case .server: return latency == .none ? "photos from --server" : "photos from --server, slowed (\(delay))"
            case .generated: return latency == .none ? "generated pictures" : "generated pictures, slowed (\(delay))"
            }
        }

        /// The origin as the report's tables and targets abbreviate it.
        package var shortOrigin: String {
            switch source {
            case .folder: return latency == .none ? "on disk" : "slow server"
            case .httpServer: return "HTTP server"
            case .server: return latency == .none ? "from --server" : "from --server, slowed"
            case .generated: return latency == .none ? "generated" : "generated, slowed"
            }
        }

        package var name: String {
            let origin = self.origin
            let cacheText: String
            switch cache {
            case .none: cacheText = ""
            case .cold: cacheText = ", first launch (cache filling)"
            case .warm: cacheText = ", second launch (from the disk cache)"
            }
            return "\(layout.rawValue), \(origin)\(cacheText), \(followsViewport ? "ParallaxKit" : "baseline")"
        }
    }

    /// How long the screen took to fill after one stop or jump.
    package struct Fill: Sendable, Hashable {
        package var event: String
        /// Seconds until every tile showed its photo; `nil` if it never
        /// filled within the time limit.
        package var seconds: Double?
        /// Seconds until every tile showed at least its preview; `nil` if
        /// that was not measured or never happened before the screen filled.
        package var previewSeconds: Double?
    }

    /// One session's figures.
    package struct Figures: Sendable {
        package var scenario: Scenario
        package var photos: Int
        /// Frames while the content moved, per fling speed.
        package var flings: [Int: ScrollingQuality]
        /// The whole session: blank share while moving and hitch ratio.
        package var whole: ScrollingQuality
        package var fills: [Fill]
        /// Frame work (update and drawing) p50, p99, max, in seconds.
        package var work: (p50: Double, p99: Double, max: Double)
        /// Peak resident memory during the session, in bytes (0 if unknown).
        package var peakResidentBytes: Int
        /// The memory cache's largest total cost during the session, and its limit.
        package var cachePeakBytes: Int
        package var cacheLimitBytes: Int
        package var decodes: Int
        /// The frames of the pinches (fingers down and settling): blank share and hitch ratio.
        package var pinching = ScrollingQuality()
        /// Frame work while pinching: p50, p99, max, in seconds.
        package var pinchWork: (p50: Double, p99: Double, max: Double) = (0, 0, 0)
        /// Loads that failed (a failed tile counts as shown, not blank, so
        /// without this count a session whose photos all fail looks perfect).
        package var failedLoads = 0
        /// Why the photo source could no longer list its photos after a
        /// session with failed loads (the folder was deleted, the server
        /// went away): its figures then do not measure the gallery.
        package var sourceProblem: String?
        /// Resident memory every quarter of a second.
        package var residentOverTime: [RSSPlot.Sample] = []

        /// The fill times of events whose name starts with `prefix`.
        package func fillTimes(_ prefix: String) -> [Fill] { fills.filter { $0.event.hasPrefix(prefix) } }
    }

    /// What a session does, in order: show the first screen, fling at each
    /// speed (each fling left to stop), jump to each place, waiting after
    /// each for a full screen and then dwelling a moment as a person would.
    package struct Script: Sendable, Hashable {
        package struct Flings: Sendable, Hashable {
            /// Points per second.
            package var speed: Int
            package var count: Int
        }

        package struct Jump: Sendable, Hashable {
            package var name: String
            /// Where to, as a share of the scrollable length.
            package var fraction: Double
        }

        /// A pinch about the middle of the window, as Ctrl + wheel or two
        /// fingers make it: the scale goes from 1 to `scale` evenly (in
        /// log scale) over `seconds`, then the fingers lift and it settles.
        package struct Pinch: Sendable, Hashable {
            package var name: String
            /// The scale at the end: above 1 spreads the fingers (fewer, larger photos).
            package var scale: Double
            package var seconds: Double
        }

        package var flings: [Flings]
        package var jumps: [Jump]
        /// Pinches made after the jumps, back in the middle of the photos.
        package var pinches: [Pinch]
        /// Seconds to linger after each full screen.
        package var dwell: Double
        /// Seconds to wait for a full screen (or a settle) before recording
        /// it as never: ``SessionBenchmark/fillTimeLimit`` for the benchmark,
        /// far longer in tests, where only a hang may fail and a busy
        /// machine may only be slow.
        package var fillTimeLimit: Double

        package init(flings: [Flings], jumps: [Jump], pinches: [Pinch] = [], dwell: Double,
                     fillTimeLimit: Double = SessionBenchmark.fillTimeLimit) {
            self.flings = flings
            self.jumps = jumps
            self.pinches = pinches
            self.dwell = dwell
            self.fillTimeLimit = fillTimeLimit
        }

        /// The benchmark's session: two flings at 3,000 pt/s, two at 6,000,
        /// a jump to the middle and one to the end, a second's dwell after
        /// each; then, back in the middle, a pinch out to about half the
        /// columns and one back in, half a second each.
        package static let standard = Script(
            flings: [Flings(speed: 3000, count: 2), Flings(speed: 6000, count: 2)],
            jumps: [Jump(name: "middle", fraction: 0.5), Jump(name: "end", fraction: 1)],
            pinches: [Pinch(name: "out", scale: 1.8, seconds: 0.5), Pinch(name: "in", scale: 1 / 1.8, seconds: 0.5)],
            dwell: 1)
    }

    /// The previews of `library`'s photos, made once per library and kept
    /// (as a server makes them once, when a photo is uploaded): what a
    /// slow server lists.
    static func previews(of library: PhotoLibrary) async -> [ImageID: ThumbHash] {
        if let made = madePreviews[library.description] { return made }
        let made = (try? await ImageManifest.reading(library.source, makingPreviews: true).previewHashes) ?? [:]
        madePreviews[library.description] = made
        return made
    }

    private static var madePreviews: [String: [ImageID: ThumbHash]] = [:]

    /// How long to wait for a full screen before giving up on it.
    package nonisolated static let fillTimeLimit = 15.0

    /// Runs `scenario` twice over one new disk cache: first as a first
    /// launch (``Scenario/Cache/cold``, the cache filling), then, with a
    /// new model, as a second launch (``Scenario/Cache/warm``).
    package static func runFirstAndSecondLaunch(_ scenario: Scenario, library: PhotoLibrary, photos: Int = 3000,
                                               size: CGSize = CGSize(width: 1280, height: 800),
                                               script: Script = .standard) async throws -> [Figures] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-session-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var figures: [Figures] = []
        for cache in [Scenario.Cache.cold, .warm] {
            var launch = scenario
            launch.cache = cache
            let disk = try DiskImageCache(directory: directory, sizeLimit: GalleryCache.sizeLimit)
            figures.append(try await run(launch, library: library, photos: photos, size: size, script: script, diskCache: disk))
        }
        return figures
    }

    /// Runs `scenario` over `photos` photos made by repeating `library`'s
    /// (`0`: `library`'s own photos as they are listed, a real library
    /// tree in the order its photos were taken), with `diskCache` (if any)
    /// behind the loader.
    package static func run(_ scenario: Scenario, library: PhotoLibrary, photos: Int = 3000,
                           size: CGSize = CGSize(width: 1280, height: 800), script: Script = .standard,
                           diskCache: DiskImageCache? = nil) async throws -> Figures {
        let basePreviews = scenario.listsPreviews ? await previews(of: library) : [:]
        let repeated = photos == 0 ? library
            : PhotoLibrary(source: RepeatingImageSource(base: library.source, count: photos, basePreviews: basePreviews),
                           credits: library.credits, description: "\(photos) photos",
                           readsHeadersLocally: library.readsHeadersLocally)
        var settings = GallerySettings()
        settings.layout = scenario.layout
        settings.latency = scenario.latency
        settings.snapping = false
        let headless = try HeadlessRenderer(size: size)
        defer { headless.close() }
        headless.renderer.showsHUD = false
        PeakMemory.reset()
        let model = GalleryModel(library: repeated, settings: settings, viewportSize: size,
                                 loading: scenario.followsViewport ? .standard : .arrivalOrder, diskCache: diskCache)
        var session = PacedSession(model: model, headless: headless, fillTimeLimit: script.fillTimeLimit)
        // As the window: the first screen from the first photos listed, the rest arriving while it is looked at.
        model.startListing()
        headless.renderer.prepare(headless.canvas)          // while the first photos are read
        await session.waitForFirstScreen()
        await session.waitForFullScreen(event: "first screen")
        await session.dwell(script.dwell)
        await session.waitForListing()
        let end = model.scroll.bounds.upperBound
        let photos = model.photos.count
        for flings in script.flings where flings.count > 0 {
            for index in 1...flings.count {
                model.fling(velocity: CGFloat(flings.speed))
                await session.runUntilRest(speed: flings.speed)
                await session.waitForFullScreen(event: "fling \(flings.speed) #\(index)")
                await session.dwell(script.dwell)
            }
        }
        for jump in script.jumps {
            model.jump(to: end * CGFloat(jump.fraction))
            await session.waitForFullScreen(event: "jump to the \(jump.name)")
            await session.dwell(script.dwell)
        }
        if !script.pinches.isEmpty {
            model.jump(to: end / 2)
            await session.waitForFullScreen(event: "back in the middle")
            for pinch in script.pinches {
                await session.pinch(pinch)
                await session.waitForSharpScreen(event: "pinch \(pinch.name)")
                await session.dwell(script.dwell)
            }
        }
        // The cache's writes are part of a first launch; the next launch must find them.
        await model.loader.waitUntilIdle()
        let statistics = await model.loader.statistics
        let decodes = statistics.decodes
        // Failed loads: is the source itself gone? (One listing, only after failures.)
        var sourceProblem: String?
        if statistics.failures > 0 {
            do {
                if try await library.source.imageIDs().isEmpty { sourceProblem = "it lists no photos any more" }
            } catch {
                sourceProblem = "\(error)"
            }
        }
        let sorted = session.workTimes.sorted()
        func percentile(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(Int(Double(sorted.count - 1) * p), sorted.count - 1)] }
        let pinchSorted = session.pinchWorkTimes.sorted()
        func pinchPercentile(_ p: Double) -> Double {
            pinchSorted.isEmpty ? 0 : pinchSorted[min(Int(Double(pinchSorted.count - 1) * p), pinchSorted.count - 1)]
        }
        return Figures(scenario: scenario, photos: photos, flings: session.flings, whole: session.whole,
                       fills: session.fills, work: (percentile(0.5), percentile(0.99), sorted.last ?? 0),
                       peakResidentBytes: PeakMemory.residentBytes(), cachePeakBytes: session.cachePeak,
                       cacheLimitBytes: GalleryModel.memoryCacheLimit, decodes: decodes, pinching: session.pinching,
                       pinchWork: (pinchPercentile(0.5), pinchPercentile(0.99), pinchSorted.last ?? 0),
                       failedLoads: statistics.failures, sourceProblem: sourceProblem, residentOverTime: session.residentSamples)
    }
}

extension LatencyPreset {
    /// The range in words.
    var rangeText: String {
        switch self {
        case .none: return "no delay"
        case .seed: return "0–2 s"
        case .slow: return "1–5 s"
        }
    }
}
#endif
