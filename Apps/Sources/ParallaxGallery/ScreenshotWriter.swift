#if canImport(CSDL2)
import Foundation
import ParallaxImages

/// The window's screenshots (P), numbered in one folder: each frame's
/// pixels are encoded as a PNG and written on a thread of their own, then
/// announced on standard output (unbuffered: scripts read it while the
/// window is open). Encoding 1280 × 800 on the frame loop took the frames
/// after a keypress past their time (the HUD showed 44 ms/s of hitches at
/// rest after one screenshot). The window waits for the writes before it
/// closes (``waitForWrites()``).
@MainActor
final class ScreenshotWriter {
    let directory: URL
    private var count = 0
    private var writes: [Task<Void, Never>] = []

    init(directory: URL) {
        self.directory = directory
    }

    /// Writes `pixels` as the next screenshot, and then prints the line
    /// `announcement` makes of its file.
    func write(_ pixels: PixelImage, announcement: (URL) -> String) {
        count += 1
        let url = directory.appendingPathComponent(String(format: "screenshot-%03d.png", count))
        let line = announcement(url)
        writes.append(Task {
            await withCheckedContinuation { (written: CheckedContinuation<Void, Never>) in
                let thread = Thread {
                    Self.write(pixels, to: url, announcing: line)
                    written.resume()
                }
                thread.qualityOfService = .utility
                thread.start()
            }
        })
    }

    /// Returns once every screenshot asked for is written (or has failed).
    func waitForWrites() async {
        for write in writes { await write.value }
        writes.removeAll()
    }

    /// Encodes `pixels` as a PNG at `url` and prints `line` once it is there.
    private nonisolated static func write(_ pixels: PixelImage, to url: URL, announcing line: String) {
        do {
            guard let png = pixels.pngData() else { throw CocoaError(.fileWriteUnknown) }
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try OutputFile.write(png, to: url.path)
        } catch {
            FileHandle.standardError.write(Data("parallax-gallery: no screenshot: \(error)\n".utf8))
            return
        }
        FileHandle.standardOutput.write(Data(line.utf8))
    }
}
#endif
