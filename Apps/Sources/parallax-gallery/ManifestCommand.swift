import ArgumentParser
import Foundation
import ParallaxGallery
import ParallaxImages

/// `parallax-gallery manifest FOLDER`: the JSON manifest an HTTP server
/// offers beside its photos, so the gallery learns every shape in one
/// request.
struct Manifest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a JSON manifest of a photo folder (every photo's name, shown size and ThumbHash preview) for an HTTP server to offer: the gallery's --server URL/photos.json then has every shape without a request per photo, and shows every photo's preview before its pixels arrive.")

    @Argument(help: "The folder of JPEG/PNG photos.")
    var folder: String

    @Option(help: "The file to write (default: FOLDER/photos.json).")
    var out: String?

    @Flag(inversion: .prefixedNo, help: "Give each photo its ThumbHash (`thumbhash`, base64, as Immich serves it): each photo is read whole and decoded small, which takes longer than reading sizes.")
    var previews = true

    func validate() throws {
        if let out { try OutputCheck.requireWritable(out, option: "--out", kind: .file) }
    }

    func run() async throws {
        let directory = URL(fileURLWithPath: folder)
        let manifest: ImageManifest
        do {
            manifest = try await ImageManifest.reading(FolderImageSource(directory: directory), makingPreviews: previews)
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
        let previewed = manifest.entries.count { $0.previewHash != nil }
        print("wrote \(path): \(manifest.entries.count) photos, \(manifest.entries.count - unmeasured.count) with their size"
              + (previews ? ", \(previewed) with a preview" : ""))
    }
}
