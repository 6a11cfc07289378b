// The libjpeg/libpng decoder and its C helpers exist on Linux only (Apple platforms decode with ImageIO).
#if canImport(CParallaxCodecs)
import Foundation
import ParallaxCore
import Testing
@testable import ParallaxImages

@Suite("Decoder")
struct DecoderTests {
    let decoder = CodecImageDecoder()

    @Test func pngAtOneToOneIsPixelExactAndPremultiplied() throws {
        var rgba: [UInt8] = []
        for y in 0..<6 { for x in 0..<5 { rgba += [UInt8(x * 50), UInt8(y * 40), 200, UInt8(55 + x * 40)] } }
        let thumbnail = try decoder.thumbnail(from: TestImages.png(width: 5, height: 6, rgba: rgba),
                                              size: try ThumbnailSize(width: 5, height: 6))
        #expect(thumbnail.sourceWidth == 5 && thumbnail.sourceHeight == 6)
        for y in 0..<6 {
            for x in 0..<5 {
                let i = (y * 5 + x) * 4
                let a = Int(rgba[i + 3])
                let expected = (0..<3).map { UInt8((Int(rgba[i + $0]) * a + 127) / 255) } + [UInt8(a)]
                let p = thumbnail.image.pixel(x: x, y: y)!
                #expect([p.r, p.g, p.b, p.a] == expected)
            }
        }
    }

    @Test func pngHalvingIsTheExactTwoByTwoAverage() throws {
        var rgba: [UInt8] = []
        for y in 0..<8 { for x in 0..<8 { rgba += [UInt8((x * 37 + y * 11) % 256), UInt8((x * y * 5) % 256), UInt8(y * 30), 255] } }
        let thumbnail = try decoder.thumbnail(from: TestImages.png(width: 8, height: 8, rgba: rgba),
                                              size: try ThumbnailSize(width: 4, height: 4))
        for y in 0..<4 {
            for x in 0..<4 {
                for c in 0..<3 {
                    var sum = 0
                    for dy in 0..<2 { for dx in 0..<2 { sum += Int(rgba[((2 * y + dy) * 8 + 2 * x + dx) * 4 + c]) } }
                    let expected = UInt8((Double(sum) / 4 + 0.5).rounded(.down))
                    #expect(thumbnail.image.pixels[(y * 4 + x) * 4 + c] == expected)
                }
            }
        }
    }

    @Test func jpegBlocksDecodeToTheirColoursAtEveryScale() throws {
        // 16-pixel blocks of flat colour survive JPEG almost exactly, at 1/8 scale too.
        let colours: [(UInt8, UInt8, UInt8)] = [(200, 30, 30), (30, 200, 30), (30, 30, 200), (220, 220, 220)]
        let data = TestImages.jpeg(width: 64, height: 64, quality: 100) { x, y in colours[(x / 32) + 2 * (y / 32)] }
        for side in [2, 4, 8, 16, 64] {
            let thumbnail = try decoder.thumbnail(from: data, size: try ThumbnailSize(width: side, height: side))
            #expect(thumbnail.image.width == side && thumbnail.image.height == side)
            let probe = thumbnail.image.pixel(x: side / 4, y: side / 4)!
            #expect(abs(Int(probe.r) - 200) <= 3 && abs(Int(probe.g) - 30) <= 3 && abs(Int(probe.b) - 30) <= 3)
            let white = thumbnail.image.pixel(x: side - 1, y: side - 1)!
            #expect(abs(Int(white.r) - 220) <= 3 && white.a == 255)
        }
        // The 8-pixel thumbnail came from a 1/8 decode: 64 pixels decoded, not 4,096.
        #expect(try decoder.thumbnail(from: data, size: try ThumbnailSize(width: 8, height: 8)).decodedPixelCount == 64)
    }

    @Test(arguments: 1...8)
    func exifOrientationIsApplied(orientation: Int) throws {
        // Stored: 32 × 16, red | green over blue | white. Each orientation moves the quadrants differently.
        let data = TestImages.jpeg(width: 32, height: 16, quality: 100, orientation: orientation) {
            TestImages.quadrant($0, $1, width: 32, height: 16)
        }
        #expect(ExifOrientationReader.orientation(in: data).rawValue == orientation)
        let o = ImageOrientation(rawValue: orientation)!
        let size = o.swapsWidthAndHeight ? (16, 32) : (32, 16)
        let thumbnail = try decoder.thumbnail(from: data, size: try ThumbnailSize(width: size.0, height: size.1))
        #expect(thumbnail.sourceWidth == size.0 && thumbnail.sourceHeight == size.1)
        for (dx, dy) in [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)] {
            let x = Int(Double(size.0) * dx), y = Int(Double(size.1) * dy)
            let stored = o.storedPixel(forDisplayedX: x, y: y, width: 32, height: 16)
            let want = TestImages.quadrant(stored.x, stored.y, width: 32, height: 16)
            let got = thumbnail.image.pixel(x: x, y: y)!
            #expect(abs(Int(got.r) - Int(want.0)) < 40 && abs(Int(got.g) - Int(want.1)) < 40 && abs(Int(got.b) - Int(want.2)) < 40,
                    "orientation \(orientation) at \(x),\(y)")
        }
    }

    @Test func progressiveEarlyExitMatchesTheFullDecode() throws {
        let smooth: (Int, Int) -> (UInt8, UInt8, UInt8) = { x, y in
            (UInt8(128 + 100 * sin(Double(x) / 40)), UInt8(128 + 90 * cos(Double(y) / 33)), UInt8((x + y) / 8 % 256))
        }
        let progressive = TestImages.jpeg(width: 1600, height: 1200, quality: 90, progressive: true, smooth)
        for size in [try ThumbnailSize(width: 200, height: 150), try ThumbnailSize(width: 400, height: 400), try ThumbnailSize(width: 700, height: 500)] {
            let fast = try decoder.thumbnail(from: progressive, size: size)
            let reference = try CodecImageDecoder(options: .reference).thumbnail(from: progressive, size: size)
            #expect(TestImages.psnr(fast.image, reference.image) >= 35, "\(size)")
            #expect(fast.decodedPixelCount < reference.decodedPixelCount)
        }
    }

    @Test func badInputGivesTypedErrors() throws {
        let size = try ThumbnailSize(width: 40, height: 40)
        let jpeg = TestImages.jpeg(width: 200, height: 120, quality: 80) { x, y in (UInt8(x % 256), UInt8(y % 256), 99) }
        let progressive = TestImages.jpeg(width: 200, height: 120, quality: 80, progressive: true) { x, y in (UInt8(x % 256), UInt8(y % 256), 99) }
        let png = TestImages.png(width: 50, height: 50, rgba: [UInt8](repeating: 200, count: 50 * 50 * 4))

        #expect(throws: ImageDecodingError.empty) { try decoder.thumbnail(from: Data(), size: size) }
        #expect(throws: ImageDecodingError.unsupportedFormat) { try decoder.thumbnail(from: Data("hello, not a photo".utf8), size: size) }
        #expect(throws: ImageDecodingError.unsupportedFormat) { try decoder.thumbnail(from: Data([0xFF, 0xD8]), size: size) }
        for cut in [4, 40, jpeg.count / 2, jpeg.count - 2] {
            #expect(throws: ImageDecodingError.self) { try decoder.thumbnail(from: jpeg.prefix(cut), size: size) }
        }
        let half = jpeg.prefix(jpeg.count / 2)
        let halfError = catching { () throws(ImageDecodingError) in try decoder.thumbnail(from: half, size: size) }
        if case .truncated = try #require(halfError) {} else {
            Issue.record("a JPEG cut in half must be reported as truncated, got \(String(describing: halfError))")
        }
        #expect(throws: ImageDecodingError.self) { try decoder.thumbnail(from: progressive.prefix(progressive.count / 3), size: size) }
        for cut in [10, 40, png.count / 2, png.count - 14] {   // inside the pixel data (cutting only IEND leaves every pixel intact)
            #expect(throws: ImageDecodingError.self) { try decoder.thumbnail(from: png.prefix(cut), size: size) }
        }
        var corrupt = jpeg
        for i in stride(from: 700, to: corrupt.count - 10, by: 7) { corrupt[i] ^= 0x5A }
        // Corrupt entropy data either decodes to garbage pixels or fails: it must not crash.
        _ = try? decoder.thumbnail(from: corrupt, size: size)
        var random = SplitMix64(seed: 9)
        for _ in 0..<50 {
            var noise = Data([0xFF, 0xD8, 0xFF]) + Data((0..<Int(random.next() % 2000)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
            _ = try? decoder.thumbnail(from: noise, size: size)
            noise = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + noise
            _ = try? decoder.thumbnail(from: noise, size: size)
        }
    }

    @Test func aCutProgressiveFileIsRefusedUnlessPartialFilesAreAllowed() throws {
        let smooth = TestImages.jpeg(width: 800, height: 800, quality: 90, progressive: true) { x, y in (UInt8(x / 4), UInt8(y / 4), 128) }
        let cut = smooth.prefix(smooth.count * 2 / 3)
        let size = try ThumbnailSize(width: 100, height: 100)
        #expect(throws: ImageDecodingError.truncated("the file ends before its end-of-image marker")) {
            try decoder.thumbnail(from: cut, size: size)
        }
        // At 1/8 scale the first DC scan is all a thumbnail needs, and it is complete: the partial file gives it.
        let lenient = CodecImageDecoder(options: DecodingOptions(requiresCompleteFile: false))
        let partial = try lenient.thumbnail(from: cut, size: size)
        let whole = try decoder.thumbnail(from: smooth, size: size)
        #expect(partial.image == whole.image)
    }

    @Test func decompressionBombsAreRefusedBeforeAllocation() throws {
        let size = try ThumbnailSize(width: 40, height: 40)
        // A JPEG whose SOF header claims 100,000 × 100,000.
        var jpeg = TestImages.jpeg(width: 16, height: 16) { _, _ in (1, 2, 3) }
        let sof = try #require((0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && (jpeg[$0 + 1] == 0xC0 || jpeg[$0 + 1] == 0xC2) })
        let huge = 100_000
        jpeg[sof + 5] = UInt8(huge >> 8 & 0xFF); jpeg[sof + 6] = UInt8(huge & 0xFF)      // height
        jpeg[sof + 7] = UInt8(huge >> 8 & 0xFF); jpeg[sof + 8] = UInt8(huge & 0xFF)      // width
        // 100,000 doesn't fit 16 bits; the largest a JPEG can claim is 65,535 × 65,535 (4.3 gigapixels).
        #expect(throws: ImageDecodingError.tooLarge(width: huge & 0xFFFF, height: huge & 0xFFFF, limit: 200_000_000)) {
            try decoder.thumbnail(from: jpeg, size: size)
        }
        // A PNG whose IHDR claims 100,000 × 100,000, with a correct CRC.
        var png = TestImages.png(width: 4, height: 4, rgba: [UInt8](repeating: 9, count: 64))
        let be: [UInt8] = [0, 0x01, 0x86, 0xA0]                                            // 100,000
        png.replaceSubrange(16..<20, with: be)
        png.replaceSubrange(20..<24, with: be)
        let crc = TestImages.crc32(png[12..<29])
        png.replaceSubrange(29..<33, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        #expect(throws: ImageDecodingError.tooLarge(width: huge, height: huge, limit: 200_000_000)) {
            try decoder.thumbnail(from: png, size: size)
        }
        // A configurable limit.
        let strict = CodecImageDecoder(options: DecodingOptions(maximumPixelCount: 100))
        #expect(throws: ImageDecodingError.tooLarge(width: 16, height: 16, limit: 100)) {
            try strict.thumbnail(from: TestImages.jpeg(width: 16, height: 16) { _, _ in (0, 0, 0) }, size: size)
        }
    }
}

/// Runs `body` and returns the error it threw, if any.
func catching<T>(_ body: () throws(ImageDecodingError) -> T) -> ImageDecodingError? {
    do { _ = try body(); return nil } catch { return error }
}

#endif
