import ArgumentParser
import Foundation
import ParallaxCommandLine
import ParallaxGallery

/// `parallax-frame-cost`: draws one of ``FrameCost``'s scripted frame
/// sequences, for `scripts/frame-instructions.sh` to count in instructions
/// under callgrind.
///
/// Its entry point is synchronous on purpose: an `async` main parks the
/// main thread in `dispatch_main`, whose `sigsuspend` Debian 12's valgrind
/// (3.19) crashes on. Here the work runs as a task on the main run loop,
/// and the process exits from it.
struct FrameCostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parallax-frame-cost",
        abstract: "Draws a scripted sequence of gallery frames (for counting their instructions under callgrind).")

    @Option(help: "The frames: cached, decoding, pinching or previews.")
    var pass: String = FrameCost.Pass.cached.rawValue

    @Option(help: "A folder of photos (default: 49 generated 480×360 pictures of mixed shapes, cheap to decode under valgrind; a frame's drawing does not depend on what the pictures show).")
    var photos: String?

    @Option(help: "Frames of each fling.")
    var frames: Int = 120

    @Option(help: "The canvas's size in pixels, WIDTHxHEIGHT.")
    var size: String = "1280x800"

    func validate() throws {
        guard FrameCost.Pass(rawValue: pass) != nil else {
            throw ValidationError("--pass must be one of \(FrameCost.Pass.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard (1...100_000).contains(frames) else { throw ValidationError("--frames must be 1…100000") }
        do { _ = try CommandLineValues.pixelSize.parse(size) } catch { throw ValidationError("--size: \(error)") }
    }

    func run() throws {
        let pass = FrameCost.Pass(rawValue: pass)!, folder = photos.map { URL(fileURLWithPath: $0) }, frames = frames
        let size = try CommandLineValues.pixelSize.parse(size)
        Task { @MainActor in
            do {
                let library = if let folder { try await PhotoLibrary.folder(folder) } else {
                    PhotoLibrary.synthetic(count: 49, width: 480, height: 360, mixedShapes: true)
                }
                let result = try await FrameCost.run(pass, library: library, size: size, frames: frames)
                print(String(format: "pass %@ frames %d tiles %d wall-clock p50 %.3f ms p99 %.3f ms max %.3f ms", result.pass.rawValue,
                             result.frames, result.tiles, result.time(at: 0.5) * 1000, result.time(at: 0.99) * 1000,
                             result.time(at: 1) * 1000))
                Foundation.exit(0)
            } catch {
                FileHandle.standardError.write(Data("parallax-frame-cost: \(error)\n".utf8))
                Foundation.exit(1)
            }
        }
        RunLoop.main.run()
    }
}

FrameCostCommand.main()
