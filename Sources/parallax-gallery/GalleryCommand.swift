import ArgumentParser
import Foundation
import ParallaxGallery
import ParallaxImages

@main
struct GalleryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parallax-gallery",
        abstract: "A photo gallery with depth, window and layered parallax (SDL2).",
        subcommands: [Run.self, Render.self, Bench.self, Session.self],
        defaultSubcommand: Run.self
    )
}

/// Options every subcommand shares.
struct SharedOptions: ParsableArguments {
    @Option(help: "A folder of JPEG/PNG photos (default: .cache/photos from scripts/fetch-photos.sh, else generated pictures).")
    var photos: String?

    @Option(help: "grid or list.")
    var layout: String = "grid"

    @Option(help: "depth, window or off.")
    var effect: String = "depth"

    @Option(help: "Multiplies every parallax offset.")
    var intensity: Double = 1

    @Option(help: "Simulated server latency: none, seed (0–2 s) or slow (1–5 s).")
    var latency: String?

    @Option(help: "Share of downloads that fail, 0…1.")
    var failureRate: Double = 0

    @Option(help: "The window or frame size in pixels, WIDTHxHEIGHT.")
    var size: String = "1280x800"

    @Option(help: "Seed of the simulated server's random draws.")
    var seed: UInt64 = 2015

    @Flag(help: "Start with Reduce Motion on.")
    var reduceMotion = false

    @Flag(help: "Show generated pictures instead of photos.")
    var generated = false

    func settings(defaultLatency: LatencyPreset) throws -> GallerySettings {
        var settings = GallerySettings()
        guard let layout = GalleryLayout(rawValue: layout) else { throw ValidationError("--layout must be grid or list") }
        guard let effect = GalleryEffect(rawValue: effect) else { throw ValidationError("--effect must be depth, window or off") }
        let preset = try latency.map { name -> LatencyPreset in
            guard let preset = LatencyPreset(rawValue: name) else { throw ValidationError("--latency must be none, seed or slow") }
            return preset
        } ?? defaultLatency
        guard intensity.isFinite, intensity >= 0 else { throw ValidationError("--intensity must be a number ≥ 0") }
        guard failureRate.isFinite, (0...1).contains(failureRate) else { throw ValidationError("--failure-rate must be in 0…1") }
        settings.layout = layout
        settings.effect = effect
        settings.intensity = CGFloat(intensity)
        settings.latency = preset
        settings.failureRate = failureRate
        settings.seed = seed
        settings.reduceMotion = reduceMotion
        return settings
    }

    func pixelSize() throws -> CGSize {
        let parts = size.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width >= 64, height >= 64,
              width <= 8192, height <= 8192 else {
            throw ValidationError("--size must be WIDTHxHEIGHT between 64 and 8192, e.g. 1280x800")
        }
        return CGSize(width: width, height: height)
    }

    /// The photos to show; a missing or empty folder falls back to
    /// generated pictures with a clear message, so the gallery still runs.
    func library() async -> PhotoLibrary {
        if generated { return PhotoLibrary.synthetic() }
        let folder = photos.map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".cache/photos")
        do {
            return try await PhotoLibrary.folder(folder)
        } catch {
            if photos != nil || FileManager.default.fileExists(atPath: folder.path) {
                FileHandle.standardError.write(Data("parallax-gallery: \(error); showing generated pictures instead\n".utf8))
            }
            return PhotoLibrary.synthetic()
        }
    }
}

struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Open the gallery window (headless frames when there is no display).")

    @OptionGroup var options: SharedOptions

    @Option(help: "Where P saves screenshots.")
    var screenshots: String = ".cache/screenshots"

    @MainActor
    func run() async throws {
        let settings = try options.settings(defaultLatency: .seed)
        let size = try options.pixelSize()
        let library = await options.library()
        let model = GalleryModel(library: library, settings: settings, viewportSize: size)
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

    @Option(help: "The content offset to start at, in points.")
    var scroll: Double = 0

    @Option(help: "Frames to render (60 per second); more than 1 writes a sequence and an animation.")
    var frames: Int = 1

    @Option(help: "Fling velocity in points per second for a sequence.")
    var fling: Double = 0

    @Option(help: "The PNG file (one frame) or folder (a sequence) to write.")
    var out: String = "frame.png"

    @Flag(help: "Draw the HUD.")
    var hud = false

    @Option(help: "gallery, or layers (the layered background).")
    var scene: String = "gallery"

    @MainActor
    func run() async throws {
        let settings = try options.settings(defaultLatency: .none)
        let size = try options.pixelSize()
        guard frames >= 1, frames <= 10_000 else { throw ValidationError("--frames must be in 1…10000") }
        guard ["gallery", "layers"].contains(scene) else { throw ValidationError("--scene must be gallery or layers") }
        if scene == "layers" {
            guard let frame = try GalleryRendering.layers(size: size, offset: CGFloat(scroll)), let png = frame.pngData() else {
                throw ValidationError("the frame could not be rendered")
            }
            try png.write(to: URL(fileURLWithPath: out))
            print("wrote \(out)")
            return
        }
        let library = await options.library()
        if frames == 1 {
            guard let frame = try await GalleryRendering.frame(library: library, settings: settings, size: size,
                                                               scroll: CGFloat(scroll), hud: hud),
                  let png = frame.pngData() else { throw ValidationError("the frame could not be rendered") }
            try png.write(to: URL(fileURLWithPath: out))
            print("wrote \(out)")
        } else {
            let files = try await GalleryRendering.sequence(library: library, settings: settings, size: size, scroll: CGFloat(scroll),
                                                            frames: frames, velocity: CGFloat(fling),
                                                            directory: URL(fileURLWithPath: out))
            print("wrote \(files.count) files to \(out)")
        }
    }
}

struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Frame times of a scripted fling through 1,000 photos (software renderer).")

    @OptionGroup var options: SharedOptions

    @Option(help: "Markdown file to write the results into (its gallery-benchmarks section).")
    var out: String?

    @MainActor
    func run() async throws {
        let size = try options.pixelSize()
        let library = await options.library()
        let results = try await GalleryBenchmark.run(library: library, size: size)
        print(results.summary)
        if let out { try results.write(into: URL(fileURLWithPath: out)) }
    }
}

struct Session: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "What the user sees while scrolling: blank tiles, time to a full screen and hitches, at the display's pace.")

    @OptionGroup var options: SharedOptions

    @Option(help: "How many photos (the set repeated under distinct names).")
    var count: Int = 3000

    @Option(help: "Layouts to run, comma-separated (grid,list).")
    var layouts: String = "grid,list"

    @Option(help: "Latencies to run, comma-separated (none,seed).")
    var latencies: String = "none,seed"

    @Flag(help: "Skip the first-come-first-served baseline.")
    var noBaseline = false

    @Option(help: "Markdown file to write the results into (its session-benchmarks section).")
    var out: String?

    @MainActor
    func run() async throws {
        let size = try options.pixelSize()
        guard (1...1_000_000).contains(count) else { throw ValidationError("--count must be in 1…1000000") }
        let layoutList = try layouts.split(separator: ",").map { name -> GalleryLayout in
            guard let layout = GalleryLayout(rawValue: String(name)) else { throw ValidationError("--layouts takes grid and list") }
            return layout
        }
        let latencyList = try latencies.split(separator: ",").map { name -> LatencyPreset in
            guard let preset = LatencyPreset(rawValue: String(name)) else { throw ValidationError("--latencies takes none, seed and slow") }
            return preset
        }
        let library = await options.library()
        var figures: [SessionBenchmark.Figures] = []
        for latency in latencyList {
            for layout in layoutList {
                for followsViewport in noBaseline ? [true] : [true, false] {
                    let scenario = SessionBenchmark.Scenario(layout: layout, latency: latency, followsViewport: followsViewport)
                    let result = try await SessionBenchmark.run(scenario, library: library, photos: count, size: size)
                    print(result.summary)
                    figures.append(result)
                }
            }
        }
        if let out { try SessionReport.write(figures, machine: MachineFacts.lines, into: URL(fileURLWithPath: out)) }
    }
}
