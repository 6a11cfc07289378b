import ArgumentParser
import Foundation
import ParallaxGallery
import ParallaxImages

/// `parallax-gallery manifest FOLDER`: the JSON manifest an HTTP server
/// offers beside its photos, so the gallery learns every shape in one
/// request.
struct Manifest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a JSON manifest of a photo folder (every photo's name and shown size) for an HTTP server to offer: the gallery's --server URL/photos.json then has every shape without a request per photo.")

    @Argument(help: "The folder of JPEG/PNG photos.")
    var folder: String

    @Option(help: "The file to write (default: FOLDER/photos.json).")
    var out: String?

    func validate() throws {
        if let out { try OutputCheck.requireWritable(out, option: "--out", kind: .file) }
    }

    func run() async throws {
        let directory = URL(fileURLWithPath: folder)
        let manifest: ImageManifest
        do {
            manifest = try await ImageManifest.reading(FolderImageSource(directory: directory))
        } catch {
            throw ValidationError("\(error)")
        }
        guard !manifest.entries.isEmpty else { throw ValidationError("the folder \(directory.path) holds no photo") }
        let path = out ?? directory.appendingPathComponent("photos.json").path
        try OutputFile.write(manifest.json(), to: path)
        let unmeasured = manifest.entries.filter { $0.header == nil }.map(\.id.rawValue)
        if !unmeasured.isEmpty {
            CommandOutput.warn("no readable header in \(unmeasured.joined(separator: ", ")); listed without a size")
        }
        print("wrote \(path): \(manifest.entries.count) photos, \(manifest.entries.count - unmeasured.count) with their size")
    }
}
