// The libjpeg/libpng decoder and its C helpers exist on Linux only (Apple platforms decode with ImageIO).
#if canImport(CParallaxCodecs)
import Foundation
import Testing
@testable import ParallaxImages

/// The real photographs `scripts/fetch-photos.sh` takes from Debian's
/// wallpaper packages (`make test` fetches them first).
enum RealPhotos {
    struct Photo { var file: String; var width: Int; var height: Int; var format: String }

    static var directory: URL { TestData.folder(environment: "PARALLAX_PHOTOS", named: "photos") }

    static func manifest() -> [Photo]? {
        guard let text = try? String(contentsOf: directory.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8) else { return nil }
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count >= 5, let width = Int(fields[1]), let height = Int(fields[2]) else { return nil }
            return Photo(file: fields[0], width: width, height: height, format: fields[4])
        }
    }
}

@Suite("Real photos")
struct RealPhotoTests {
    /// The smallest photo of each kind, so the full-resolution reference
    /// stays quick in a debug build.
    @Test func fastPathMatchesTheFullDecodeReference() throws {
        guard let photos = RealPhotos.manifest(), !photos.isEmpty else {
            Issue.record("no photos in \(RealPhotos.directory.path): run scripts/fetch-photos.sh (make test does)")
            return
        }
        var chosen: [RealPhotos.Photo] = []
        for format in ["jpeg-progressive", "jpeg-baseline", "png"] {
            chosen += photos.filter { $0.format == format }.sorted { $0.width * $0.height < $1.width * $1.height }.prefix(format == "png" ? 1 : 2)
        }
        #expect(chosen.count >= 4)
        let fast = CodecImageDecoder(), reference = CodecImageDecoder(options: .reference)
        for photo in chosen {
            let data = try Data(contentsOf: RealPhotos.directory.appendingPathComponent(photo.file))
            for size in [try ThumbnailSize(width: 400, height: 400, mode: .fit), try ThumbnailSize(width: 400, height: 400, mode: .fill)] {
                let ours = try fast.thumbnail(from: data, size: size)
                let full = try reference.thumbnail(from: data, size: size)
                #expect(ours.image.width == full.image.width && ours.image.height == full.image.height)
                #expect(max(ours.image.width, ours.image.height) == 400)
                let psnr = TestImages.psnr(ours.image, full.image)
                #expect(psnr >= 30, "\(photo.file) \(size): \(psnr) dB")
                if photo.format.hasPrefix("jpeg") {
                    #expect(ours.decodedPixelCount * 3 < full.decodedPixelCount, "\(photo.file) decoded at a reduced scale")
                }
            }
        }
    }

    @Test func everyPhotoDecodesAndTruncatedCopiesFailCleanly() throws {
        guard let photos = RealPhotos.manifest(), !photos.isEmpty else {
            Issue.record("no photos in \(RealPhotos.directory.path): run scripts/fetch-photos.sh (make test does)")
            return
        }
        let decoder = CodecImageDecoder()
        let size = try ThumbnailSize(width: 160, height: 160)
        for photo in photos {
            let data = try Data(contentsOf: RealPhotos.directory.appendingPathComponent(photo.file))
            let thumbnail = try decoder.thumbnail(from: data, size: size)
            #expect(thumbnail.sourceWidth == photo.width && thumbnail.sourceHeight == photo.height, "\(photo.file)")
            #expect(thumbnail.image.width == 160 && thumbnail.image.height == 160)
            #expect(throws: ImageDecodingError.self) { try decoder.thumbnail(from: data.prefix(data.count / 3), size: size) }
        }
    }
}
#endif
