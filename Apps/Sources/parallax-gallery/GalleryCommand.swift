import ArgumentParser
import ParallaxGallery

/// `parallax-gallery`: the gallery window, and the headless renders,
/// manifests and benchmarks made from the same model.
///
/// Each subcommand is a file of its own (`RunCommand.swift`, …); the options
/// they share are ``SharedOptions`` (what is shown and how) and
/// ``PhotoSourceOptions`` (where the photos come from). Every value is
/// checked before any work, by the rules of the `ParallaxCommandLine`
/// module (shared with `parallax-demo`) and by the parser for the named
/// choices, whose names come from their enums: a refusal is one sentence
/// and exit status 64.
@main
struct GalleryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parallax-gallery",
        abstract: "A photo gallery with depth, window and layered parallax (SDL2).",
        subcommands: [Run.self, Render.self, Bench.self, Session.self, LibraryLaunch.self, CacheFormats.self, Previews.self, Memory.self, Viewer.self, Manifest.self],
        defaultSubcommand: Run.self
    )

    /// Sets the allocator up (``AllocatorSettings``) before any thread
    /// starts, then runs the command as ArgumentParser does.
    static func main() async {
        AllocatorSettings.apply()
        do {
            var command = try parseAsRoot()
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
