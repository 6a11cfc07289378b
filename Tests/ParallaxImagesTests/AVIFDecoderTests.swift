// The libavif decoder exists on Linux only (Apple platforms decode with ImageIO).
#if canImport(CParallaxCodecs)
import CParallaxCodecs
import Foundation
import Testing
@testable import ParallaxImages

@Suite("AVIF through libavif: irot and imir, alpha, lossless, 10 and 12 bits, grids")
struct AVIFDecoderTests {
    typealias F = CodecFixtures

    @Test func quadrantsDecodeAtEverySizeAndLosslessExactly() throws {
        let data = try F.data("quad.avif")
        for size in [try ThumbnailSize(width: 96, height: 64), try ThumbnailSize(width: 24, height: 16),
                     try ThumbnailSize(width: 30, height: 30), try ThumbnailSize(width: 50, height: 50, mode: .fit)] {
            let thumbnail = try CodecImageDecoder().thumbnail(from: data, size: size)
            let geometry = ThumbnailGeometry(width: 96, height: 64, orientation: .up, size: size)
            #expect((thumbnail.image.width, thumbnail.image.height) == geometry.storedOutput)
            F.expectQuadrants(thumbnail.image, [F.red, F.green, F.blue, F.white], "quad.avif as \(size)")
        }
        let lossless = try CodecImageDecoder(options: .reference).thumbnail(from: F.data("quad-lossless.avif"),
                                                                            size: ThumbnailSize(width: 96, height: 64))
        #expect(lossless.image == F.quadrantPicture(alpha: false))
    }

    @Test func irotAndImirTurnTheThumbnail() throws {
        // Rotation anticlockwise first, then the mirror (MIAF's order), as EXIF orientations.
        let cases: [(String, ImageOrientation, [(UInt8, UInt8, UInt8)])] = [
            ("quad-irot1.avif", .left, [F.green, F.white, F.red, F.blue]),
            ("quad-irot1-imir0.avif", .leftMirrored, [F.red, F.blue, F.green, F.white]),
            ("quad-imir1.avif", .upMirrored, [F.green, F.red, F.white, F.blue]),
        ]
        for (name, orientation, quadrants) in cases {
            let data = try F.data(name)
            var info = pk_avif_info()
            var message = [CChar](repeating: 0, count: 200)
            let status = data.withUnsafeBytes {
                pk_avif_read_info($0.bindMemory(to: UInt8.self).baseAddress, data.count, 1 << 28, &info, &message, message.count)
            }
            #expect(status == PK_OK && info.orientation == Int32(orientation.rawValue), "\(name): \(info.orientation)")
            let displayed = orientation.displayedSize(width: 96, height: 64)
            let thumbnail = try CodecImageDecoder().thumbnail(from: data, size: ThumbnailSize(width: displayed.width / 2,
                                                                                                height: displayed.height / 2))
            #expect((thumbnail.sourceWidth, thumbnail.sourceHeight) == displayed)
            F.expectQuadrants(thumbnail.image, quadrants, name)
            // libheif, which applies irot and imir itself, shows the same picture.
            let reference = try Self.libheifDecode(data)
            let full = try CodecImageDecoder(options: .reference).thumbnail(from: data, size: ThumbnailSize(width: displayed.width,
                                                                                                              height: displayed.height))
            #expect(F.maximumDifference(full.image, reference) <= 2, "\(name) against libheif")
        }
    }

    @Test func alphaDeepSamplesAndGrids() throws {
        let size = try ThumbnailSize(width: 96, height: 64)
        let alpha = try CodecImageDecoder(options: .reference).thumbnail(from: F.data("alpha.avif"), size: size)
        for x in [0, 30, 60, 95] {
            let pixel = try #require(alpha.image.pixel(x: x, y: 10))
            #expect(abs(Int(pixel.a) - x * 255 / 95) <= 2, "alpha at \(x): \(pixel.a)")
            #expect(pixel.r <= pixel.a && pixel.g <= pixel.a && pixel.b <= pixel.a, "premultiplied at \(x)")
        }
        for name in ["quad-10bit.avif", "quad-12bit.avif"] {
            F.expectQuadrants(try CodecImageDecoder().thumbnail(from: F.data(name), size: size).image,
                              [F.red, F.green, F.blue, F.white], tolerance: 4, name)
        }
        let grid = try CodecImageDecoder().thumbnail(from: F.data("grid.avif"), size: ThumbnailSize(width: 64, height: 64))
        #expect((grid.sourceWidth, grid.sourceHeight) == (128, 128))
        F.expectQuadrants(grid.image, [F.red, F.green, F.blue, F.white], "grid.avif")
    }

    /// libheif's decode of an AVIF (it reads them too, through its own AV1 plugin), premultiplied RGBA.
    static func libheifDecode(_ data: Data) throws -> PixelImage {
        final class Rows { var pixels: [UInt8] = [] }
        let rows = Rows()
        var info = pk_heif_info()
        var message = [CChar](repeating: 0, count: 200)
        let status = data.withUnsafeBytes { raw -> pk_status in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard pk_heif_read_info(bytes.baseAddress, bytes.count, 4096, &info, &message, message.count) == PK_OK else { return PK_ERROR_CORRUPT }
            return pk_heif_decode_rows(bytes.baseAddress, bytes.count, 4096, -1, info.width, info.height, { context, _, _, _, count, pixels in
                Unmanaged<Rows>.fromOpaque(context!).takeUnretainedValue().pixels.append(contentsOf: UnsafeBufferPointer(start: pixels, count: Int(count) * 4))
                return 0
            }, Unmanaged.passUnretained(rows).toOpaque(), &message, message.count)
        }
        try #require(status == PK_OK)
        return try #require(withExtendedLifetime(rows) { PixelImage(width: Int(info.width), height: Int(info.height), pixels: rows.pixels) })
    }
}
#endif
