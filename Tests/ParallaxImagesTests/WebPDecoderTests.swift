// The libwebp decoder exists on Linux only (Apple platforms decode with ImageIO).
#if canImport(CParallaxCodecs)
import Foundation
import Testing
@testable import ParallaxImages

@Suite("WebP through libwebp: scaled and cropped decodes, lossless, alpha, EXIF orientation, animation")
struct WebPDecoderTests {
    typealias F = CodecFixtures

    @Test func lossyQuadrantsAreScaledByLibwebpStraightToTheThumbnail() throws {
        let data = try F.data("quad.webp")
        let thumbnail = try CodecImageDecoder().thumbnail(from: data, size: ThumbnailSize(width: 48, height: 32))
        #expect(thumbnail.image.width == 48 && thumbnail.image.height == 32)
        #expect((thumbnail.sourceWidth, thumbnail.sourceHeight) == (96, 64))
        // libwebp's scaler made exactly the thumbnail: nothing larger was converted to RGBA.
        #expect(thumbnail.decodedPixelCount == 48 * 32)
        F.expectQuadrants(thumbnail.image, [F.red, F.green, F.blue, F.white], "quad.webp")
    }

    @Test func fillCropsAndFitsMatchAFullDecodeResampled() throws {
        let data = try F.data("quad.webp")
        let full = try CodecImageDecoder(options: .reference).thumbnail(from: data, size: ThumbnailSize(width: 96, height: 64))
        #expect(full.decodedPixelCount == 96 * 64)
        for size in [try ThumbnailSize(width: 30, height: 30), try ThumbnailSize(width: 20, height: 50),
                     try ThumbnailSize(width: 90, height: 20), try ThumbnailSize(width: 40, height: 40, mode: .fit),
                     try ThumbnailSize(width: 200, height: 100)] {
            let thumbnail = try CodecImageDecoder().thumbnail(from: data, size: size)
            let geometry = ThumbnailGeometry(width: 96, height: 64, orientation: .up, size: size)
            #expect(thumbnail.image.width == geometry.storedOutput.width && thumbnail.image.height == geometry.storedOutput.height)
            let expected = AreaResampler.resample(full.image, crop: geometry.crop, width: geometry.storedOutput.width,
                                                  height: geometry.storedOutput.height)
            // Quadrant edges stay sharp either way; libwebp's scaler and the area resampler differ only there.
            #expect(TestImages.psnr(thumbnail.image, expected) >= 24, "\(size)")
            #expect(thumbnail.decodedPixelCount <= 96 * 64)
        }
        // A fit into 40 × 40 keeps the 3 : 2 shape.
        let fit = try CodecImageDecoder().thumbnail(from: data, size: ThumbnailSize(width: 40, height: 40, mode: .fit))
        #expect((fit.image.width, fit.image.height) == (40, 27))
    }

    @Test func losslessDecodesExactly() throws {
        let decoded = try CodecImageDecoder(options: .reference).thumbnail(from: F.data("quad-lossless.webp"),
                                                                           size: ThumbnailSize(width: 96, height: 64))
        #expect(decoded.image == F.quadrantPicture(alpha: false))
    }

    @Test func alphaArrivesPremultiplied() throws {
        let size = try ThumbnailSize(width: 96, height: 64)
        let lossless = try CodecImageDecoder(options: .reference).thumbnail(from: F.data("alpha-lossless.webp"), size: size)
        // libwebp premultiplies with its own rounding: within one step of (c · a + 127) / 255.
        #expect(F.maximumDifference(lossless.image, F.quadrantPicture(alpha: true)) <= 1)
        let lossy = try CodecImageDecoder(options: .reference).thumbnail(from: F.data("alpha.webp"), size: size)
        for x in [0, 30, 60, 95] {
            let pixel = try #require(lossy.image.pixel(x: x, y: 10))
            #expect(abs(Int(pixel.a) - x * 255 / 95) <= 3, "alpha at \(x): \(pixel.a)")
            #expect(pixel.r <= pixel.a && pixel.g <= pixel.a && pixel.b <= pixel.a, "premultiplied at \(x)")
        }
    }

    @Test func exifOrientationFromTheExifChunkTurnsTheThumbnail() throws {
        let data = try F.data("quad-exif6.webp")
        #expect(ExifOrientationReader.orientation(in: data) == .right)
        let thumbnail = try CodecImageDecoder().thumbnail(from: data, size: ThumbnailSize(width: 32, height: 48))
        #expect((thumbnail.sourceWidth, thumbnail.sourceHeight) == (64, 96))
        #expect((thumbnail.image.width, thumbnail.image.height) == (32, 48))
        // Turned 90° clockwise: blue, red / white, green.
        F.expectQuadrants(thumbnail.image, [F.blue, F.red, F.white, F.green], "quad-exif6.webp")
    }

    @Test func anAnimationShowsItsFirstFrame() throws {
        let data = try F.data("animated.webp")
        let full = try CodecImageDecoder().thumbnail(from: data, size: ThumbnailSize(width: 96, height: 64))
        #expect(full.image == F.quadrantPicture(alpha: false))
        let small = try CodecImageDecoder().thumbnail(from: data, size: ThumbnailSize(width: 24, height: 24))
        F.expectQuadrants(small.image, [F.red, F.green, F.blue, F.white], tolerance: 0, "animated.webp")
    }

    @Test func decodePlanCropsToEvenWholePixelsAndScalesTheRegion() throws {
        // 30 × 30 from 96 × 64: the crop is 64 × 64 from x = 16, scaled by 30/64.
        let geometry = ThumbnailGeometry(width: 96, height: 64, orientation: .up, size: try ThumbnailSize(width: 30, height: 30))
        let plan = WebPDecodePlan(width: 96, height: 64, geometry: geometry)
        #expect(plan.region == (16, 0, 64, 64))
        #expect((plan.outputWidth, plan.outputHeight) == (30, 30))
        #expect(plan.crop == (0, 0, 30, 30))
        // An odd crop start is taken down to even; the crop inside the output shifts to match.
        let odd = ThumbnailGeometry(width: 101, height: 50, orientation: .up, size: try ThumbnailSize(width: 10, height: 10))
        let oddPlan = WebPDecodePlan(width: 101, height: 50, geometry: odd)
        #expect(oddPlan.region.x % 2 == 0 && oddPlan.region.x <= Int(odd.crop.x))
        #expect(oddPlan.crop.width >= 10 - 1e-9 && oddPlan.crop.x >= 0)
        // A thumbnail larger than the picture: the whole picture, never enlarged by libwebp.
        let large = ThumbnailGeometry(width: 96, height: 64, orientation: .up, size: try ThumbnailSize(width: 300, height: 200))
        let largePlan = WebPDecodePlan(width: 96, height: 64, geometry: large)
        #expect(largePlan.region == (0, 0, 0, 0) && (largePlan.outputWidth, largePlan.outputHeight) == (96, 64))
    }

    @Test func exifChunksAreFoundByWalkingTheRiffChunks() {
        func webp(_ chunks: [(String, [UInt8])]) -> Data {
            var body: [UInt8] = Array("WEBP".utf8)
            for (type, payload) in chunks {
                body += Array(type.utf8) + withUnsafeBytes(of: UInt32(payload.count).littleEndian, Array.init) + payload
                if payload.count % 2 == 1 { body.append(0) }
            }
            return Data(Array("RIFF".utf8) + withUnsafeBytes(of: UInt32(body.count).littleEndian, Array.init) + body)
        }
        let tiff = Array(TestImages.exifPayload(orientation: 8).dropFirst(6))
        #expect(ExifOrientationReader.orientation(in: webp([("VP8X", [UInt8](repeating: 0, count: 10)), ("EXIF", tiff)])) == .left)
        // With the "Exif\0\0" prefix some writers keep, and after an odd-length chunk and its pad byte.
        #expect(ExifOrientationReader.orientation(in: webp([("ICCP", [1, 2, 3]), ("EXIF", TestImages.exifPayload(orientation: 3))])) == .down)
        // A chunk that claims more than the file holds ends the walk: upright.
        var broken = webp([("EXIF", tiff)])
        broken[16] = 0xFF
        #expect(ExifOrientationReader.orientation(in: broken) == .up)
        #expect(ExifOrientationReader.orientation(in: webp([("VP8 ", [0, 0])])) == .up)
    }
}
#endif
