import ArgumentParser
import Foundation
import ParallaxDemo
import ParallaxGallery
import ParallaxImages

@main
struct GalleryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parallax-gallery",
        abstract: "A photo gallery with depth, window and layered parallax (SDL2).",
        subcommands: [Run.self, Render.self, Bench.self, Session.self, CacheFormats.self, Manifest.self],
        defaultSubcommand: Run.self
    )
}

/// Options every subcommand shares.
///
/// Every number and size is read and range-checked once, by the rules in
/// ``CommandLineValues`` (shared with `parallax-demo`, so both commands word
/// a refusal the same way), before any work: a bad value is one sentence
/// naming the option, the value and the range, and exit status 64. Numeric
/// options accept values that start with a dash, so `--seed -1` is reported
/// as out of range rather than as a missing value.
struct SharedOptions: ParsableArguments {
    @Option(help: "A folder of JPEG/PNG photos (default: .cache/photos from scripts/fetch-photos.sh, else generated pictures).")
    var photos: String?

    @Option(help: "grid, list, quilt or waterfall.")
    var layout: String = "grid"

    @Option(help: "depth, window or off.")
    var effect: String = "depth"

    @Option(parsing: .unconditional,
            help: "Multiplies every parallax offset, \(CommandLineValues.intensity.rangeText) (0 turns parallax off; default: 1).",
            transform: { try CommandLineValues.intensity.parse($0) })
    var intensity: Double = 1

    @Option(help: "Simulated server latency: none, seed (0–2 s) or slow (1–5 s).")
    var latency: String?

    @Option(parsing: .unconditional,
            help: "Share of downloads that fail, \(CommandLineValues.failureRate.rangeText) (default: 0).",
            transform: { try CommandLineValues.failureRate.parse($0) })
    var failureRate: Double = 0

    @Option(parsing: .unconditional,
            help: "The window or frame size in pixels, WIDTHxHEIGHT, each side \(CommandLineValues.pixelSize.rangeText) (default: 1280x800).",
            transform: { try CommandLineValues.pixelSize.parse($0) })
    var size: CGSize = CGSize(width: 1280, height: 800)

    @Option(parsing: .unconditional,
            help: "Seed of the simulated server's random draws, \(CommandLineValues.seed.rangeText) (default: 2015).",
            transform: { try CommandLineValues.seed.parse($0) })
    var seed: UInt64 = 2015

    @Flag(help: "Start with Reduce Motion on.")
    var reduceMotion = false

    @Flag(help: "Show generated pictures instead of photos.")
    var generated = false

    @Option(help: "Show the photos of an HTTP server instead of a folder: the URL of a folder it lists (python3 -m http.server, nginx autoindex), of an index.txt, or of a JSON manifest with every photo's size (see the manifest subcommand).")
    var server: String?

    @Option(help: "The window only: the folder thumbnails are kept in between launches (default: $XDG_CACHE_HOME/parallax-gallery, else ~/.cache/parallax-gallery). Render and benchmarks keep none.")
    var cache: String?

    @Flag(help: "The window only: keep no thumbnails on disk.")
    var noCache = false

    /// The server's URL, checked: http or https, with a host.
    func serverURL() throws -> URL? {
        guard let server else { return nil }
        guard let url = URL(string: server), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
              let host = url.host, !host.isEmpty else {
            throw ValidationError("--server must be an http:// or https:// URL with a host, not \(server)")
        }
        return url
    }

    /// The thumbnail cache for a gallery a person uses (not the benchmarks): `nil` with `--no-cache`,
    /// or when the folder cannot be used, which is said once on standard error.
    func diskCache() -> DiskImageCache? {
        guard !noCache else { return nil }
        guard let directory = cache.map({ URL(fileURLWithPath: $0) }) ?? GalleryCache.defaultDirectory() else {
            FileHandle.standardError.write(Data("parallax-gallery: no home folder for the thumbnail cache; thumbnails will not be kept (--cache DIR sets one)\n".utf8))
            return nil
        }
        switch GalleryCache.open(directory) {
        case .success(let cache):
            if cache.isReadOnly {
                FileHandle.standardError.write(Data("parallax-gallery: the thumbnail cache \(directory.path) is read-only: thumbnails already there are shown, new ones are not kept\n".utf8))
            }
            return cache
        case .failure(let error):
            FileHandle.standardError.write(Data("parallax-gallery: \(error); photos still show, but thumbnails will not be kept between launches\n".utf8))
            return nil
        }
    }

    func settings(defaultLatency: LatencyPreset) throws -> GallerySettings {
        var settings = GallerySettings()
        guard let layout = GalleryLayout(rawValue: layout) else { throw ValidationError("--layout must be grid, list, quilt or waterfall") }
        guard let effect = GalleryEffect(rawValue: effect) else { throw ValidationError("--effect must be depth, window or off") }
        let preset = try latency.map { name -> LatencyPreset in
            guard let preset = LatencyPreset(rawValue: name) else { throw ValidationError("--latency must be none, seed or slow") }
            return preset
        } ?? defaultLatency
        settings.layout = layout
        settings.effect = effect
        settings.intensity = CGFloat(intensity)
        settings.latency = preset
        settings.failureRate = failureRate
        settings.seed = seed
        settings.reduceMotion = reduceMotion
        return settings
    }

    /// Checks the named choices (layout, effect, latency) at parse time too,
    /// so every subcommand refuses them before any work.
    func validate() throws {
        _ = try settings(defaultLatency: .none)
        _ = try serverURL()
        if server != nil, photos != nil || generated {
            throw ValidationError("--server cannot be combined with --photos or --generated")
        }
        if noCache, cache != nil { throw ValidationError("--cache and --no-cache contradict each other") }
    }

    /// Refuses `path`, given to `option`, when it cannot be written (see
    /// ``CommandLineValues/outputProblem(_:option:kind:fileManager:)``).
    static func requireWritable(_ path: String, option: String, kind: CommandLineValues.OutputKind) throws {
        if let problem = CommandLineValues.outputProblem(path, option: option, kind: kind) {
            throw ValidationError(problem)
        }
        // What the write itself would refuse (a link to nothing, a block device), before any work.
        if kind == .file, let reason = OutputFile.refusal(for: path) {
            throw ValidationError("\(option) '\(path)' cannot be written: \(reason).")
        }
    }

    /// Checks a benchmark's `--out FILE` before any work: writable, and not a
    /// file of benchmark sections such as BENCHMARKS.md, which the report
    /// would replace whole (scripts/bench-report.py is what writes those).
    static func requireReportFile(_ path: String) throws {
        try requireWritable(path, option: "--out", kind: .file)
        if let text = try? String(contentsOfFile: path, encoding: .utf8), text.contains("<!-- "), text.contains(":start -->") {
            throw ValidationError("--out '\(path)' holds benchmark sections; the report would replace the whole file. "
                                  + "Write it elsewhere; scripts/bench-report.py section puts a report into its section.")
        }
    }

    /// Writes a benchmark's Markdown report (`--out`), replacing the file
    /// whole or not at all (``OutputFile``).
    static func writeReport(_ markdown: String, to path: String) throws {
        try OutputFile.write(Data((markdown + "\n").utf8), to: path)
        print("wrote \(path)")
    }

    /// The photos to show. A folder or server that was named and cannot be
    /// used (missing, unreadable, no photos) is an error naming it; only
    /// when none was named does a missing or empty `.cache/photos` fall back
    /// to generated pictures, with a clear message, so the gallery still runs.
    func library() async throws -> PhotoLibrary {
        if generated { return PhotoLibrary.synthetic(mixedShapes: true) }
        if let url = try serverURL() { return try PhotoLibrary.server(url) }
        let folder = photos.map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".cache/photos")
        do {
            return try await PhotoLibrary.folder(folder)
        } catch {
            if photos != nil { throw error }
            if FileManager.default.fileExists(atPath: folder.path) {
                FileHandle.standardError.write(Data("parallax-gallery: \(error); showing generated pictures instead\n".utf8))
            }
            return PhotoLibrary.synthetic(mixedShapes: true)
        }
    }
}

struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Open the gallery window (headless frames when there is no display).")

    @OptionGroup var options: SharedOptions

    @Option(help: "The folder where P saves screenshots (made when needed).")
    var screenshots: String = ".cache/screenshots"

    func validate() throws {
        try SharedOptions.requireWritable(screenshots, option: "--screenshots", kind: .folder)
    }

    @MainActor
    func run() async throws {
        // A real server brings its own latency; the simulated one adds none to it.
        let settings = try options.settings(defaultLatency: options.server == nil ? .seed : .none)
        let size = options.size
        let library = try await options.library()
        let model = GalleryModel(library: library, settings: settings, viewportSize: size, diskCache: options.diskCache())
        do {
            try await GalleryWindow(model: model, screenshotDirectory: URL(fileURLWithPath: screenshots)).run()
        } catch {
            print("parallax-gallery: \(error). Rendering a scripted scroll headlessly instead.")
            var headlessSettings = settings
            headlessSettings.latency = .none
            let directory = URL(fileURLWithPath: ".cache/gallery-render")
            let files = try await GalleryRendering.sequence(library: library, settings: headlessSettings, size: size, scroll: 0,
                                                            frames: 90, velocity: 2400, directory: directory)
            print("wrote \(files.count - 1) frames and the animation to \(directory.path):")
            if let animation = files.last { print("  \(animation.path)") }
        }
    }
}

struct Render: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Render frames headlessly (SDL software renderer).")

    @OptionGroup var options: SharedOptions

    @Option(parsing: .unconditional,
            help: "The content offset to start at, in points, \(CommandLineValues.scrollOffset.rangeText) (default: 0).",
            transform: { try CommandLineValues.scrollOffset.parse($0) })
    var scroll: Double = 0

    @Option(parsing: .unconditional,
            help: """
                Frames to render (60 per second), \(CommandLineValues.frames.rangeText) (default: 1); \
                more than 1 writes a sequence and an animation.
                """,
            transform: { try CommandLineValues.frames.parse($0) })
    var frames: Int = 1

    @Option(parsing: .unconditional,
            help: "Fling velocity in points per second for a sequence, \(CommandLineValues.flingVelocity.rangeText) (default: 0).",
            transform: { try CommandLineValues.flingVelocity.parse($0) })
    var fling: Double = 0

    @Option(help: """
        A sequence of a pinch about the centre instead of a fling: the scale it reaches over the first half \
        of the frames, 0.2…5 (above 1 spreads the fingers: fewer, larger photos), then it settles.
        """)
    var pinch: Double?

    @Option(help: """
        The PNG file (one frame) or folder (a sequence; made when needed) to write. \
        Checked before rendering: a file's folder must exist.
        """)
    var out: String = "frame.png"

    @Flag(help: "Draw the HUD.")
    var hud = false

    @Option(help: "gallery, or layers (the layered background).")
    var scene: String = "gallery"

    /// Whether `--out` names one PNG file (a single frame, or the layered
    /// scene) rather than a folder for a sequence.
    var writesOneFile: Bool { scene == "layers" || frames == 1 }

    func validate() throws {
        guard ["gallery", "layers"].contains(scene) else { throw ValidationError("--scene must be gallery or layers") }
        if let pinch {
            guard pinch.isFinite, (0.2...5).contains(pinch) else {
                throw ValidationError("--pinch must be a scale from 0.2 to 5, not \(pinch)")
            }
            guard frames > 1, scene == "gallery" else { throw ValidationError("--pinch needs a sequence: --frames 2 or more") }
        }
        try SharedOptions.requireWritable(out, option: "--out", kind: writesOneFile ? .file : .folder)
    }

    @MainActor
    func run() async throws {
        let settings = try options.settings(defaultLatency: .none)
        let size = options.size
        if scene == "layers" {
            guard let frame = try GalleryRendering.layers(size: size, offset: CGFloat(scroll)), let png = frame.pngData() else {
                throw ValidationError("the frame could not be rendered")
            }
            try OutputFile.write(png, to: out)
            print("wrote \(out)")
            return
        }
        let library = try await options.library()
        if frames == 1 {
            guard let frame = try await GalleryRendering.frame(library: library, settings: settings, size: size,
                                                               scroll: CGFloat(scroll), hud: hud),
                  let png = frame.pngData() else { throw ValidationError("the frame could not be rendered") }
            try OutputFile.write(png, to: out)
            print("wrote \(out)")
        } else {
            let files: [URL]
            do {
                files = try await GalleryRendering.sequence(library: library, settings: settings, size: size,
                                                            scroll: CGFloat(scroll), frames: frames, velocity: CGFloat(fling),
                                                            pinch: pinch.map { CGFloat($0) }, directory: URL(fileURLWithPath: out))
            } catch {
                throw WriteFailure(error, path: out)
            }
            print("wrote \(files.count) files to \(out)")
        }
    }
}

struct Manifest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a JSON manifest of a photo folder (every photo's name and shown size) for an HTTP server to offer: the gallery's --server URL/photos.json then has every shape without a request per photo.")

    @Argument(help: "The folder of JPEG/PNG photos.")
    var folder: String

    @Option(help: "The file to write (default: FOLDER/photos.json).")
    var out: String?

    func validate() throws {
        if let out { try SharedOptions.requireWritable(out, option: "--out", kind: .file) }
    }

    func run() async throws {
        let directory = URL(fileURLWithPath: folder)
        let manifest: ImageManifest
        do {
            manifest = try await ImageManifest.reading(FolderImageSource(directory: directory))
        } catch {
            throw ValidationError("\(error)")
        }
        guard !manifest.entries.isEmpty else { throw ValidationError("the folder \(directory.path) holds no JPEG or PNG file") }
        let path = out ?? directory.appendingPathComponent("photos.json").path
        try OutputFile.write(manifest.json(), to: path)
        let unmeasured = manifest.entries.filter { $0.header == nil }.map(\.id.rawValue)
        if !unmeasured.isEmpty {
            FileHandle.standardError.write(Data("parallax-gallery: no readable header in \(unmeasured.joined(separator: ", ")); listed without a size\n".utf8))
        }
        print("wrote \(path): \(manifest.entries.count) photos, \(manifest.entries.count - unmeasured.count) with their size")
    }
}

struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Frame times of a scripted fling through 1,000 photos (software renderer).")

    @OptionGroup var options: SharedOptions

    @OptionGroup var report: ReportOutput

    @MainActor
    func run() async throws {
        let size = options.size
        let library = try await options.library()
        let results = try await GalleryBenchmark.run(library: library, size: size)
        print(results.summary)
        try report.write(results.markdown)
    }
}

struct CacheFormats: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache-formats",
        abstract: "Bytes on disk and read-back time of a grid thumbnail in each disk cache format, and in the freedesktop.org store's.")

    @OptionGroup var options: SharedOptions

    @OptionGroup var report: ReportOutput

    @MainActor
    func run() async throws {
        let results = try await CacheFormatBenchmark.run(library: try await options.library(), size: options.size)
        for row in results.rows {
            print(String(format: "%@: %.0f bytes, read %.3f ms, PSNR %.1f / %.1f dB", row.name, row.bytesPerEntry,
                         row.readSeconds * 1000, row.meanPSNR, row.minimumPSNR))
        }
        try report.write(results.markdown)
    }
}

struct Session: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "What the user sees while scrolling: blank tiles, time to a full screen and hitches, at the display's pace.")

    @OptionGroup var options: SharedOptions

    @Option(parsing: .unconditional,
            help: "How many photos (the set repeated under distinct names), \(CommandLineValues.photoCount.rangeText) (default: 3000).",
            transform: { try CommandLineValues.photoCount.parse($0) })
    var count: Int = 3000

    @Option(help: "Layouts to run, comma-separated (grid,list,quilt,waterfall).")
    var layouts: String = "grid,list,quilt,waterfall"

    @Option(help: "Latencies to run, comma-separated (none,seed).")
    var latencies: String = "none,seed"

    @Flag(help: "Skip the first-come-first-served baseline.")
    var noBaseline = false

    @Option(help: "Launches to measure with the thumbnail disk cache, comma-separated: disk (first and second launch over the photo folder), http (the same over python3 -m http.server on loopback), or none.")
    var launches: String = "disk,http"

    @OptionGroup var report: ReportOutput

    func validate() throws {
        for name in launches.split(separator: ",") where !["disk", "http", "none"].contains(name) {
            throw ValidationError("--launches takes disk, http and none, not \(name)")
        }
    }

    @MainActor
    func run() async throws {
        let size = options.size
        let layoutList = try layouts.split(separator: ",").map { name -> GalleryLayout in
            guard let layout = GalleryLayout(rawValue: String(name)) else { throw ValidationError("--layouts takes grid, list, quilt and waterfall") }
            return layout
        }
        let latencyList = try latencies.split(separator: ",").map { name -> LatencyPreset in
            guard let preset = LatencyPreset(rawValue: String(name)) else { throw ValidationError("--latencies takes none, seed and slow") }
            return preset
        }
        let library = try await options.library()
        var figures: [SessionBenchmark.Figures] = []
        for latency in latencyList {
            for layout in layoutList {
                for followsViewport in noBaseline ? [true] : [true, false] {
                    let scenario = SessionBenchmark.Scenario(layout: layout, latency: latency, followsViewport: followsViewport,
                                                             source: .init(library: library))
                    let result = try await SessionBenchmark.run(scenario, library: library, photos: count, size: size)
                    print(result.summary)
                    figures.append(result)
                }
            }
        }
        // A first and a second launch with the thumbnail cache, over the folder and over a real HTTP server.
        var wanted = Set(launches.split(separator: ",").map(String.init))
        if options.server != nil || options.generated, !wanted.subtracting(["none"]).isEmpty {
            // Both launch sessions compare the photo folder with the same folder served over HTTP.
            print("parallax-gallery: the launch sessions need the photo folder; left out with --server or --generated")
            wanted = []
        }
        var sources: [(SessionBenchmark.Scenario.Source, PhotoLibrary)] = []
        if wanted.contains("disk") { sources.append((.folder, library)) }
        var server: LocalHTTPServer?
        if wanted.contains("http") {
            let folder = URL(fileURLWithPath: options.photos ?? ".cache/photos")
            do {
                let started = try LocalHTTPServer(serving: folder)
                server = started
                sources.append((.httpServer, try PhotoLibrary.server(started.url)))
            } catch {
                print("parallax-gallery: the HTTP sessions are left out: \(error)")
            }
        }
        defer { server?.stop() }
        // Launches measure the disk cache, which every layout uses alike: grid and list only. (Over
        // `python3 -m http.server`, which ignores byte ranges, a quilt would also read every photo
        // whole for its header.)
        for (source, sourceLibrary) in sources {
            for layout in layoutList where !layout.usesPhotoShapes {
                let scenario = SessionBenchmark.Scenario(layout: layout, latency: .none, followsViewport: true, source: source)
                for result in try await SessionBenchmark.runFirstAndSecondLaunch(scenario, library: sourceLibrary,
                                                                                  photos: count, size: size) {
                    print(result.summary)
                    figures.append(result)
                }
            }
        }
        try report.write(SessionReport.markdown(figures))
    }
}

/// A file-system error met while writing an output, as one line naming the
/// path (instead of a raw `NSCocoaErrorDomain` dump). Outputs are checked
/// before any work, so this is left for what changes meanwhile (a full
/// disk, a folder removed during a render). Other errors pass through.
struct WriteFailure: Error, CustomStringConvertible {
    let description: String

    /// `error` as a one-line write failure for `path` when it is a
    /// file-system error; otherwise `error` itself.
    init(_ error: any Error, path: String) {
        let nsError = error as NSError
        if nsError.domain == NSCocoaErrorDomain || nsError.domain == NSPOSIXErrorDomain {
            description = "cannot write '\(path)': \(nsError.localizedDescription)"
        } else {
            description = "\(error)"
        }
    }
}

/// `--out FILE`, shared by the benchmark commands: the Markdown report,
/// written to FILE (replaced). A file with BENCHMARKS.md's section markers
/// is refused before anything runs, so the whole report file is never
/// overwritten by accident; scripts/bench-gallery.sh puts each report into
/// its section.
struct ReportOutput: ParsableArguments {
    @Option(help: "A Markdown file to write the report to (replaced; its folder must exist). scripts/bench-gallery.sh puts it into BENCHMARKS.md.")
    var out: String?

    func validate() throws {
        if let out { try SharedOptions.requireReportFile(out) }
    }

    /// Writes `markdown` to the file, if one was given.
    func write(_ markdown: String) throws {
        if let out { try SharedOptions.writeReport(markdown, to: out) }
    }
}
