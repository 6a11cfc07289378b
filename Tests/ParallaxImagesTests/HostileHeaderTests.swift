// The libjpeg/libpng decoder exists on Linux only (Apple platforms decode with ImageIO).
#if canImport(CParallaxCodecs)
import Foundation
import ParallaxCore
import Testing
@testable import ParallaxImages

/// Files whose headers lie: each must fail typed, before anything of the
/// claimed size is allocated, with a sentence that says what is wrong.
@Suite("Decoder against lying headers")
struct HostileHeaderTests {
    let decoder = CodecImageDecoder()
    let size = try! ThumbnailSize(width: 64, height: 64)

    /// A PNG chunk: length, type, data, CRC over type and data.
    static func chunk(_ type: String, _ data: [UInt8], claimedLength: UInt32? = nil) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(claimedLength ?? UInt32(data.count)) + body + bigEndian(TestImages.crc32(body))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func header(width: UInt32, height: UInt32) -> [UInt8] {
        chunk("IHDR", bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0])
    }

    func error(_ data: Data, options: DecodingOptions = DecodingOptions()) -> ImageDecodingError? {
        do {
            _ = try CodecImageDecoder(options: options).thumbnail(from: data, size: size)
            return nil
        } catch {
            return error
        }
    }

    /// Issue 23's file: 69 bytes whose header claims 1 × 2,147,483,647 pixels
    /// (PNG's largest side), with a 12-byte IDAT (four zero bytes, deflated).
    static let tallestPNG = Data(signature + header(width: 1, height: 2_147_483_647)
                                 + chunk("IDAT", [0x78, 0x01, 0x63, 0x60, 0x60, 0x60, 0x00, 0x00, 0x00, 0x04, 0x00, 0x01])
                                 + chunk("IEND", []))

    @Test func theSixtyNineBytePNGClaimingTwoBillionRowsHasItsHeaderReadAndFailsToDecodeCleanly() throws {
        #expect(Self.tallestPNG.count == 69)
        let header = try #require(try ImageHeader.read(from: Self.tallestPNG))
        #expect(header.width == 1 && header.height == 2_147_483_647)
        let failure = try #require(error(Self.tallestPNG))
        #expect(!failure.description.isEmpty)
    }

    @Test func aPNGHeaderClaimingMorePixelsThanItsBytesCanHoldIsRefusedAtOnce() {
        let png = Data(Self.signature + Self.header(width: 14_000, height: 14_000)
                       + Self.chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) + Self.chunk("IEND", []))
        #expect(png.count == 65)
        // 14000 rows of 1 + 1750 bytes, deflated at most 1032 : 1.
        #expect(HeaderPlausibility.minimumPNGBytes(width: 14_000, height: 14_000) == 14_000 * 1_751 / 1_032)
        #expect(error(png) == .truncated("the header claims 14000 × 14000 pixels, which need at least 23753 bytes of image data; the file has 65"))
    }

    @Test func aPNGChunkClaimingMoreBytesThanRemainIsRefusedBeforeLibpngAllocatesIt() {
        let png = Data(Self.signature + Self.header(width: 8, height: 8)
                       + Self.chunk("iTXt", Array("key\0\0\0\0\0text".utf8), claimedLength: 0x4000_0000))
        #expect(error(png) == .truncated("the iTXt chunk claims 1073741824 bytes, but only 12 remain in the file"))
    }

    @Test func aLargeAncillaryChunkThatIsReallyThereIsSkippedWithoutBeingRead() throws {
        // 16 MB of iTXt that the file does hold (so no length check refuses it), then the picture. With libpng's and
        // zlib's allocations capped at a few hundred kilobytes, the decode succeeds only if libpng skips the chunk
        // instead of allocating it (as libpng 1.6.39 does for text chunks it keeps).
        let png = [UInt8](TestImages.png(width: 8, height: 8, rgba: [UInt8]([200, 200, 200, 255]).repeated(64)))
        let text = Self.chunk("iTXt", Array("Comment\0\0\0\0\0".utf8) + [UInt8](repeating: 0x41, count: 16 << 20))
        let withText = Data(png[0..<33] + text + png[33...])                   // after the signature and IHDR
        var tight = DecodingOptions()
        tight.maximumDecodeBytes = 1 << 20
        let decoded = try CodecImageDecoder(options: tight).thumbnail(from: withText, size: try ThumbnailSize(width: 8, height: 8))
        #expect(decoded.image.pixels.prefix(4).elementsEqual([200, 200, 200, 255]))
    }

    @Test func aJPEGHeaderClaimingMorePixelsThanItsBytesCanHoldIsRefusedAtOnce() throws {
        var jpeg = [UInt8](TestImages.jpeg(width: 16, height: 16) { x, y in (UInt8(x * 16), UInt8(y * 16), 90) })
        let sof = try #require((0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        // SOF0: marker, length (2), precision (1), height (2), width (2).
        jpeg.replaceSubrange((sof + 5)..<(sof + 9), with: [0x36, 0xB0, 0x36, 0xB0])          // 14000 × 14000
        #expect(jpeg.count < 1_000)
        // 1750 × 1750 blocks of at least one bit each.
        #expect(HeaderPlausibility.minimumJPEGBytes(width: 14_000, height: 14_000) == 1_750 * 1_750 / 8)
        #expect(error(Data(jpeg)) == .truncated("the header claims 14000 × 14000 pixels, which need at least 382812 bytes of image data; the file has \(jpeg.count)"))
    }

    @Test func aJPEGCutShortAndClosedWithAnEndMarkerIsTruncatedUnlessPartialFilesAreAllowed() throws {
        var rng = SplitMix64(seed: 3)
        let full = TestImages.jpeg(width: 256, height: 256, quality: 92) { _, _ in
            (UInt8.random(in: 0...255, using: &rng), UInt8.random(in: 0...255, using: &rng), UInt8.random(in: 0...255, using: &rng))
        }
        let cut = Data(full.prefix(full.count / 2) + [0xFF, 0xD9])
        guard case .truncated(let reason)? = error(cut) else {
            Issue.record("expected truncated, got \(String(describing: error(cut)))")
            return
        }
        #expect(reason.contains("premature end of data segment"), "\(reason)")
        var lenient = DecodingOptions()
        lenient.requiresCompleteFile = false
        #expect(error(cut, options: lenient) == nil, "a partial file may be shown when asked for")
        #expect(error(full) == nil)
    }

    @Test func aTwelveBitJPEGSaysWhatItIs() throws {
        var jpeg = [UInt8](TestImages.jpeg(width: 16, height: 16) { _, _ in (1, 2, 3) })
        let sof = try #require((0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        jpeg[sof + 4] = 12                                                                    // sample precision
        let failure = error(Data(jpeg))
        #expect(failure == .unsupportedVariant("a 12-bit JPEG (this decoder reads 8-bit JPEGs)"))
        #expect(failure?.description == "a 12-bit JPEG (this decoder reads 8-bit JPEGs) is not supported")
    }

    @Test func theReferenceDecodeUpsamplesChromaSmoothly() throws {
        // A chroma gradient: 4:2:0 JPEG keeps one chroma sample per 2 × 2 block, which replication turns into steps.
        let side = 64
        let jpeg = TestImages.jpeg(width: side, height: side, quality: 100) { x, y in (UInt8(x * 4), 128, UInt8(255 - y * 4)) }
        let original = PixelImage(width: side, height: side, pixels: TestImages.rgb(width: side, height: side) { x, y in
            (UInt8(x * 4), 128, UInt8(255 - y * 4))
        }.chunked4())!
        let full = try ThumbnailSize(width: side, height: side)
        var replicated = DecodingOptions.reference
        replicated.usesSmoothUpsampling = false
        let smooth = try CodecImageDecoder(options: .reference).thumbnail(from: jpeg, size: full).image
        let blocky = try CodecImageDecoder(options: replicated).thumbnail(from: jpeg, size: full).image
        let smoothPSNR = TestImages.psnr(smooth, original), blockyPSNR = TestImages.psnr(blocky, original)
        #expect(smoothPSNR > blockyPSNR + 1, "smooth \(smoothPSNR) dB, replicated \(blockyPSNR) dB")
        #expect(DecodingOptions().usesSmoothUpsampling == false && DecodingOptions.reference.usesSmoothUpsampling)
    }

    @Test func realPicturesAreFarAboveTheBounds() {
        // A 4000 × 3000 photo needs 23 KB of JPEG data at the least; real ones have megabytes.
        #expect(HeaderPlausibility.minimumJPEGBytes(width: 4_000, height: 3_000) == 23_437)
        #expect(HeaderPlausibility.minimumJPEGBytes(width: .max, height: .max) == .max)
        #expect(HeaderPlausibility.minimumPNGBytes(width: .max / 2, height: 100) == .max)
        let tiny = TestImages.png(width: 1, height: 1, rgba: [1, 2, 3, 255])
        #expect(error(tiny) == nil)
    }
}

extension Array where Element == UInt8 {
    /// RGB triples as opaque RGBA.
    func chunked4() -> [UInt8] {
        var rgba: [UInt8] = []
        rgba.reserveCapacity(count / 3 * 4)
        for i in stride(from: 0, to: count, by: 3) { rgba += [self[i], self[i + 1], self[i + 2], 255] }
        return rgba
    }
}
#endif
