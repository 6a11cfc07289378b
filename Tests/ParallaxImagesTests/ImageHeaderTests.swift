// The test pictures are encoded with libjpeg/libpng, which the tests use on Linux only.
#if canImport(CParallaxCodecs)
import Foundation
import Testing
@testable import ParallaxImages

@Suite("Image headers: a photo's shape from its first bytes")
struct ImageHeaderTests {
    @Test func jpegAndPNGSizesComeFromTheFrameHeaderWithTheOrientationApplied() throws {
        let jpeg = TestImages.jpeg(width: 40, height: 24, progressive: true, orientation: 6) { x, _ in (UInt8(x), 0, 0) }
        let header = try #require(try ImageHeader.read(from: jpeg))
        #expect(header.format == .jpeg && header.storedWidth == 40 && header.storedHeight == 24 && header.orientation == .right)
        #expect(header.width == 24 && header.height == 40)
        let png = TestImages.png(width: 7, height: 3, rgba: [UInt8](repeating: 9, count: 7 * 3 * 4))
        #expect(try ImageHeader.read(from: png) == ImageHeader(format: .png, storedWidth: 7, storedHeight: 3, orientation: .up))
    }

    @Test func aPrefixThatEndsBeforeTheHeaderAsksForMoreAndGarbageIsRefused() throws {
        let jpeg = TestImages.jpeg(width: 40, height: 24, orientation: 3) { _, y in (0, UInt8(y), 0) }
        let sof = try #require((0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        for length in [0, 1, 2, 5, sof, sof + 8] { #expect(try ImageHeader.read(from: jpeg.prefix(length)) == nil, "\(length)") }
        #expect(try ImageHeader.read(from: jpeg.prefix(sof + 9))?.width == 40)
        #expect(throws: ImageDecodingError.unsupportedFormat) { try ImageHeader.read(from: Data("GIF89a".utf8)) }
        #expect(throws: ImageDecodingError.self) { try ImageHeader.read(from: Data([0xFF, 0xD8, 0xFF, 0xDA, 0, 2])) }
        var empty = [UInt8](TestImages.png(width: 2, height: 2, rgba: [UInt8](repeating: 0, count: 16)))
        empty.replaceSubrange(16..<20, with: [0, 0, 0, 0])
        #expect(throws: ImageDecodingError.corrupt("IHDR gives the size 0 × 2")) { try ImageHeader.read(from: Data(empty)) }
    }

    @Test func everyConformanceFileAndRealPhotoHasTheSizeItsDecodeHas() async throws {
        var checked = 0
        if let entries = ConformanceCorpus.manifest() {
            // JPEG and PNG: the WebP, HEIF and AVIF files of the corpus wait for ImageHeader to read those formats.
            for entry in entries where entry.expect == "ok" && (entry.format == "jpeg" || entry.format == "png") {
                let data = try ConformanceCorpus.data(entry.file)
                let header = try #require(try ImageHeader.read(from: data), "\(entry.file)")
                let reference = try #require(ConformanceCorpus.reference(entry.file))
                #expect(header.width == reference.width && header.height == reference.height, "\(entry.file)")
                checked += 1
            }
        }
        if let photos = RealPhotos.manifest() {
            let source = FolderImageSource(directory: RealPhotos.directory)
            for photo in photos {
                let header = try await source.header(for: ImageID(photo.file))
                #expect(header.storedWidth == photo.width && header.storedHeight == photo.height, "\(photo.file)")
                checked += 1
            }
        }
        #expect(checked >= 230, "\(checked) files: fetch the photos and the conformance corpus (make test does)")
    }

    @Test func aFolderSaysWhyAHeaderCannotBeRead() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("headers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data([0xFF, 0xD8, 0xFF, 0xE1, 0x00]).write(to: folder.appendingPathComponent("short.jpg"))
        try Data("hello".utf8).write(to: folder.appendingPathComponent("text.jpg"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("dir.jpg"), withIntermediateDirectories: true)
        let source = FolderImageSource(directory: folder)
        await #expect(throws: ImageSourceError.unreadable("short.jpg", "ends before its frame header (5 bytes)")) {
            try await source.header(for: "short.jpg")
        }
        await #expect(throws: ImageSourceError.unreadable("text.jpg", "has no readable header: the data is not an image format the decoder reads")) {
            try await source.header(for: "text.jpg")
        }
        await #expect(throws: ImageSourceError.unreadable("dir.jpg", "is a folder, not a photo")) { try await source.header(for: "dir.jpg") }
        await #expect(throws: ImageSourceError.notFound("none.jpg")) { try await source.header(for: "none.jpg") }
    }
}
#endif
