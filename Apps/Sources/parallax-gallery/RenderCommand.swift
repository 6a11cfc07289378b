import ArgumentParser
import Foundation
import ParallaxCommandLine
import ParallaxGallery

/// `parallax-gallery render`: one frame, or a sequence and its animation,
/// drawn headlessly by the software renderer.
struct Render: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Render frames headlessly (SDL software renderer).")

    /// What a render draws.
    enum Scene: String, CaseIterable, Sendable, ExpressibleByArgument {
        /// The photo gallery.
        case gallery
        /// The layered background, one frame.
        case layers
    }

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

    @Option(help: "What to draw: the photo gallery, or the layered background (one frame).")
    var scene: Scene = .gallery

    /// Whether `--out` names one PNG file (a single frame, or the layered
    /// scene) rather than a folder for a sequence.
    var writesOneFile: Bool { scene == .layers || frames == 1 }

    func validate() throws {
        if let pinch {
            guard pinch.isFinite, (0.2...5).contains(pinch) else {
                throw ValidationError("--pinch must be a scale from 0.2 to 5, not \(pinch)")
            }
            guard frames > 1, scene == .gallery else { throw ValidationError("--pinch needs a sequence: --frames 2 or more") }
        }
        try OutputCheck.requireWritable(out, option: "--out", kind: writesOneFile ? .file : .folder)
    }

    @MainActor
    func run() async throws {
        let settings = options.settings(defaultLatency: .none)
        let size = options.size
        if scene == .layers {
            guard let frame = try GalleryRendering.layers(size: size, offset: CGFloat(scroll)), let png = frame.pngData() else {
                throw ValidationError("the frame could not be rendered")
            }
            try OutputFile.write(png, to: out)
            print("wrote \(out)")
            return
        }
        let library = try await options.source.library()
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
