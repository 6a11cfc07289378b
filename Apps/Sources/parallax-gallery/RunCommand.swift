import ArgumentParser
import Foundation
import ParallaxGallery

/// `parallax-gallery run` (the default): the gallery window, or without a
/// display a scripted scroll rendered headlessly, saying where it went.
struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Open the gallery window (headless frames when there is no display).")

    @OptionGroup var options: SharedOptions

    @Option(help: "The folder where P saves screenshots (made when needed).")
    var screenshots: String = ".cache/screenshots"

    @Flag(help: "Start with the developer HUD shown (frame rate, hitches, loader counters; I toggles it).")
    var hud = false

    func validate() throws {
        try OutputCheck.requireWritable(screenshots, option: "--screenshots", kind: .folder)
    }

    @MainActor
    func run() async throws {
        // Photos load at the speed of their disk or server; the simulated server's latency is added
        // only when asked for (`--latency seed`, as `make run`'s demo on the sample photos does).
        let settings = options.settings(defaultLatency: .none)
        let size = options.size
        let library = try await options.source.library(indexed: true)
        let model = GalleryModel(library: library, settings: settings, viewportSize: size, diskCache: options.source.diskCache())
        do {
            try await GalleryWindow(model: model, screenshotDirectory: URL(fileURLWithPath: screenshots), showsHUD: hud).run()
            // Shapes, dates and previews of the last second are kept for the next launch.
            await model.saveForNextLaunch()
        } catch {
            CommandOutput.notice("\(error). Rendering a scripted scroll headlessly instead.")
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
