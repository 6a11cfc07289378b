// The libheif decoder exists on Linux only (Apple platforms decode with ImageIO).
#if canImport(CParallaxCodecs)
import Foundation
import Testing
@testable import ParallaxImages

@Suite("HEIF through libheif: thumbnail items, grids, irot, alpha, 10-bit")
struct HEIFDecoderTests {
    typealias F = CodecFixtures

    @Test func quadrantsDecodeAtEverySize() throws {
        let data = try F.data("quad.heic")
        for size in [try ThumbnailSize(width: 96, height: 64), try ThumbnailSize(width: 24, height: 16),
                     try ThumbnailSize(width: 30, height: 30), try ThumbnailSize(width: 50, height: 50, mode: .fit)] {
            let thumbnail = try CodecImageDecoder().thumbnail(from: data, size: size)
            let geometry = ThumbnailGeometry(width: 96, height: 64, orientation: .up, size: size)
            #expect((thumbnail.image.width, thumbnail.image.height) == geometry.storedOutput)
            #expect((thumbnail.sourceWidth, thumbnail.sourceHeight) == (96, 64))
            F.expectQuadrants(thumbnail.image, [F.red, F.green, F.blue, F.white], "quad.heic as \(size)")
        }
    }

    @Test func theThumbnailItemServesTilesItCovers() throws {
        let data = try F.data("quad-thumbnail.heic")       // 96 × 64 with a 48 × 32 thumbnail item
        let small = try CodecImageDecoder().thumbnail(from: data, size: ThumbnailSize(width: 24, height: 16))
        #expect(small.decodedPixelCount == 48 * 32)
        #expect((small.sourceWidth, small.sourceHeight) == (96, 64))
        F.expectQuadrants(small.image, [F.red, F.green, F.blue, F.white], "thumbnail item")
        let exact = try CodecImageDecoder().thumbnail(from: data, size: ThumbnailSize(width: 48, height: 32))
        #expect(exact.decodedPixelCount == 48 * 32)
        // Larger than the thumbnail item, or a reference decode: the primary image.
        let large = try CodecImageDecoder().thumbnail(from: data, size: ThumbnailSize(width: 60, height: 40))
        #expect(large.decodedPixelCount == 96 * 64)
        let reference = try CodecImageDecoder(options: .reference).thumbnail(from: data, size: ThumbnailSize(width: 24, height: 16))
        #expect(reference.decodedPixelCount == 96 * 64)
    }

    @Test func itemChoiceWantsTheShapeAndThePixels() throws {
        let thumbnails = [(width: 320, height: 240), (width: 160, height: 120), (width: 100, height: 100)]
        func choice(_ width: Int, _ height: Int) throws -> HEIFItemChoice {
            HEIFItemChoice(primaryWidth: 4032, primaryHeight: 3024, thumbnails: thumbnails,
                           size: try ThumbnailSize(width: width, height: height))
        }
        #expect(try choice(150, 100).thumbnailIndex == 1)            // the smallest that covers
        #expect(try choice(300, 200).thumbnailIndex == 0)
        #expect(try choice(120, 120).thumbnailIndex == 1)            // a square crop of 160 × 120 holds 120 × 120
        #expect(try choice(400, 300).thumbnailIndex == nil)          // none does: the primary image
        #expect(try choice(100, 100).thumbnailIndex == 1)            // the square item is another shape
        let primary = try choice(2000, 1500)
        #expect(primary.thumbnailIndex == nil && (primary.width, primary.height) == (4032, 3024))
        #expect(HEIFItemChoice(primaryWidth: 100, primaryHeight: 100, thumbnails: [], size: try ThumbnailSize(width: 10, height: 10))
            .thumbnailIndex == nil)
    }

    @Test func aGridImageIsAssembledByLibheif() throws {
        // heif-enc writes an odd size as a grid of one 96 × 64 tile, cropped to 95 × 63.
        let thumbnail = try CodecImageDecoder().thumbnail(from: F.data("odd-grid.heic"), size: ThumbnailSize(width: 95, height: 63))
        #expect((thumbnail.sourceWidth, thumbnail.sourceHeight) == (95, 63))
        F.expectQuadrants(thumbnail.image, [F.red, F.green, F.blue, F.white], "odd-grid.heic")
    }

    @Test func aGridOfSeveralTilesIsAssembledAndCropped() throws {
        // Four 64 × 64 tiles (red, green / blue, white) in a 2 × 2 grid whose output is 120 × 100.
        let data = try F.data("grid-2x2.heic")
        let full = try CodecImageDecoder(options: .reference).thumbnail(from: data, size: ThumbnailSize(width: 120, height: 100))
        #expect((full.sourceWidth, full.sourceHeight) == (120, 100))
        for (x, y, colour) in [(63, 63, F.red), (64, 63, F.green), (63, 64, F.blue), (64, 64, F.white), (119, 99, F.white)] {
            let pixel = try #require(full.image.pixel(x: x, y: y))
            #expect(max(abs(Int(pixel.r) - Int(colour.0)), abs(Int(pixel.g) - Int(colour.1)), abs(Int(pixel.b) - Int(colour.2))) <= 8,
                    "(\(x), \(y)): \(pixel)")
        }
        let small = try CodecImageDecoder().thumbnail(from: data, size: ThumbnailSize(width: 30, height: 25))
        #expect((small.image.width, small.image.height) == (30, 25))
    }

    @Test func irotIsAppliedByLibheifAndExifOrientationIsNot() throws {
        let thumbnail = try CodecImageDecoder().thumbnail(from: F.data("quad-irot.heic"), size: ThumbnailSize(width: 32, height: 48))
        #expect((thumbnail.sourceWidth, thumbnail.sourceHeight) == (64, 96))
        // Stored upright quadrants shown turned 90° clockwise: blue, red / white, green.
        F.expectQuadrants(thumbnail.image, [F.blue, F.red, F.white, F.green], "quad-irot.heic")
    }

    @Test func alphaArrivesPremultipliedAndTenBitsBecomeEight() throws {
        let size = try ThumbnailSize(width: 96, height: 64)
        let alpha = try CodecImageDecoder(options: .reference).thumbnail(from: F.data("alpha.heic"), size: size)
        for x in [0, 30, 60, 95] {
            let pixel = try #require(alpha.image.pixel(x: x, y: 10))
            #expect(abs(Int(pixel.a) - x * 255 / 95) <= 4, "alpha at \(x): \(pixel.a)")
            #expect(pixel.r <= pixel.a && pixel.g <= pixel.a && pixel.b <= pixel.a, "premultiplied at \(x)")
        }
        let deep = try CodecImageDecoder().thumbnail(from: F.data("quad-10bit.heic"), size: size)
        F.expectQuadrants(deep.image, [F.red, F.green, F.blue, F.white], "quad-10bit.heic")
    }

    @Test func limitsAreCheckedBeforeTheDecode() throws {
        let data = try F.data("quad.heic")
        let size = try ThumbnailSize(width: 24, height: 16)
        #expect(throws: ImageDecodingError.tooLarge(width: 96, height: 64, limit: 1000)) {
            try CodecImageDecoder(options: DecodingOptions(maximumPixelCount: 1000)).thumbnail(from: data, size: size)
        }
        var small = DecodingOptions()
        small.maximumDecodeBytes = 64 << 10
        do {
            _ = try CodecImageDecoder(options: small).thumbnail(from: data, size: size)
            Issue.record("a decode over its budget succeeded")
        } catch {
            guard case .overBudget(let needed, let budget) = error else { Issue.record("\(error)"); return }
            #expect(needed > budget && budget == 64 << 10)
        }
    }
}
#endif
