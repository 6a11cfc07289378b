import Foundation
import ParallaxCore
import Testing
@testable import ParallaxImages

/// The thumbnail a camera embeds: found exactly (the bytes exiftool
/// extracts), turned upright by the photo's orientation, read by a folder
/// from the file's first bytes, made a preview by the loader, and never a
/// crash or a read outside the Exif segment whatever the bytes say.
struct EmbeddedThumbnailTests {
    static let thumbnail = TestImages.jpeg(width: 40, height: 30, quality: 90) { x, y in TestImages.quadrant(x, y, width: 40, height: 30) }

    /// A 400 × 300 photo (stored sideways: orientation 6) whose Exif embeds a 40 × 30 thumbnail.
    static func photo(orientation: Int = 6) -> Data {
        TestImages.jpeg(width: 400, height: 300, exif: TestImages.exifPayload(orientation: orientation, thumbnail: thumbnail)) { x, y in
            TestImages.quadrant(x, y, width: 400, height: 300)
        }
    }

    @Test func theThumbnailIsFoundWithThePhotosOrientation() throws {
        let embedded = try #require(EmbeddedThumbnail(jpeg: Self.photo()))
        #expect(embedded.data == Self.thumbnail)
        #expect(embedded.orientation == .right)
        // Only the first bytes are needed; a photo without one has none.
        #expect(EmbeddedThumbnail(jpeg: Self.photo().prefix(EmbeddedThumbnail.readLength)) == embedded)
        #expect(EmbeddedThumbnail(jpeg: TestImages.jpeg(width: 40, height: 30, orientation: 6) { _, _ in (1, 2, 3) }) == nil)
        #expect(EmbeddedThumbnail(jpeg: Data()) == nil)
    }

    @Test func damagedOrHostileExifNeverCrashesOrReadsOutside() {
        let photo = Self.photo()
        var generator = SplitMix64(seed: 26)
        for _ in 0..<2_000 {
            var bytes = [UInt8](photo.prefix(400))
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            let cut = Data(bytes.prefix(Int.random(in: 0...bytes.count, using: &generator)))
            if let found = EmbeddedThumbnail(jpeg: cut) {
                // Whatever was found lies inside the bytes and is a JPEG's start.
                #expect(found.data.count >= 4 && found.data.starts(with: [0xFF, 0xD8]))
            }
        }
    }

    @Test func exiftoolAgreesOnTheBytes() throws {
        guard let tool = ["/usr/bin/exiftool", "/usr/local/bin/exiftool"].first(where: FileManager.default.isExecutableFile) else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("embedded-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A photo with no thumbnail, given one by exiftool, as a camera-style test set is made.
        let photo = folder.appendingPathComponent("camera.jpg"), thumb = folder.appendingPathComponent("thumb.jpg")
        try TestImages.jpeg(width: 400, height: 300, orientation: 1) { x, y in TestImages.quadrant(x, y, width: 400, height: 300) }.write(to: photo)
        try Self.thumbnail.write(to: thumb)
        func run(_ arguments: [String]) throws -> Data {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return output
        }
        _ = try run(["-q", "-overwrite_original", "-ThumbnailImage<=\(thumb.path)", photo.path])
        let extracted = try run(["-b", "-ThumbnailImage", photo.path])
        #expect(!extracted.isEmpty)
        let embedded = try #require(EmbeddedThumbnail(jpeg: try Data(contentsOf: photo)))
        #expect(embedded.data == extracted)
    }

    @Test func aFolderReadsItAndTheLoaderMakesItAnUprightPreview() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("embedded-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.photo().write(to: folder.appendingPathComponent("camera.jpg"))
        try TestImages.png(width: 2, height: 2, rgba: [UInt8](repeating: 200, count: 16)).write(to: folder.appendingPathComponent("plain.png"))
        let source = FolderImageSource(directory: folder)
        #expect(await source.embeddedThumbnail(for: "camera.jpg")?.data == Self.thumbnail)
        #expect(await source.embeddedThumbnail(for: "plain.png") == nil)
        #expect(await source.embeddedThumbnail(for: "missing.jpg") == nil)

        let loader = ImageLoader(source: source)
        // Too small for a tile more than four times its side: no preview.
        #expect(await loader.embeddedPreview(for: ThumbnailKey(id: "camera.jpg", size: try ThumbnailSize(width: 400, height: 400))) == nil)
        let key = ThumbnailKey(id: "camera.jpg", size: try ThumbnailSize(width: 120, height: 160))
        let preview = try #require(await loader.embeddedPreview(for: key))
        // Turned upright as the photo is (orientation 6: a quarter turn clockwise): 30 × 40, red top right.
        #expect(preview.width == 30 && preview.height == 40)
        let topRight = try #require(preview.pixel(x: 25, y: 5)), bottomRight = try #require(preview.pixel(x: 25, y: 35))
        #expect(topRight.r > 200 && topRight.g < 60 && topRight.b < 60, "red goes top right: \(topRight)")
        #expect(bottomRight.g > 200 && bottomRight.r < 60, "green goes bottom right: \(bottomRight)")
        // Filed: the next request shows it at once, and its hash is kept for an index.
        #expect(loader.previews.image(for: "camera.jpg") == preview)
        #expect(loader.previews.takeMadeHashes().map(\.id) == ["camera.jpg"])
    }

    #if canImport(CParallaxCodecs)
    @Test func aHEIFThumbnailItemIsDecodedAloneNeverThePrimary() async throws {
        let withItem = try CodecFixtures.data("quad-thumbnail.heic")   // 96 × 64 with a 48 × 32 thumbnail item
        let without = try CodecFixtures.data("quad.heic")
        let decoder = CodecImageDecoder()
        let item = try #require(try decoder.embeddedThumbnail(in: withItem))
        #expect(item.width == 48 && item.height == 32)
        CodecFixtures.expectQuadrants(item, [CodecFixtures.red, CodecFixtures.green, CodecFixtures.blue, CodecFixtures.white],
                                      "the thumbnail item")
        #expect(try decoder.embeddedThumbnail(in: without) == nil)
        #expect(try decoder.embeddedThumbnail(in: Self.photo()) == nil)      // a JPEG's is read from its Exif instead

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("embedded-heif-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try withItem.write(to: folder.appendingPathComponent("phone.heic"))
        try without.write(to: folder.appendingPathComponent("plain.heic"))
        let loader = ImageLoader(source: FolderImageSource(directory: folder))
        let size = try ThumbnailSize(width: 96, height: 64)
        let preview = try #require(await loader.embeddedPreview(for: ThumbnailKey(id: "phone.heic", size: size)))
        #expect(preview == item)
        #expect(await loader.embeddedPreview(for: ThumbnailKey(id: "plain.heic", size: size)) == nil)
    }
    #endif
}
