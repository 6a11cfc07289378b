import Foundation
import ParallaxImages
import Testing
@testable import ParallaxGallery

@Suite("Uncompressed PNGs")
struct StoredPNGTests {
    /// Random pictures of random sizes, one stored block and many (a block
    /// holds at most 65,535 bytes): decoded by the gallery's decoder at
    /// their own size, every pixel is the one written, opaque.
    @Test func decodersReadBackEveryPixel() throws {
        var random = SeededGenerator(seed: 31)
        for round in 0..<24 {
            let width = round == 0 ? 1 : Int.random(in: 1...260, using: &random)
            let height = round == 0 ? 1 : Int.random(in: 1...200, using: &random)
            let rgb = (0..<width * height * 3).map { _ in UInt8.random(in: 0...255, using: &random) }
            let file = try #require(StoredPNG.rgb(rgb, width: width, height: height))
            let header = try #require(try ImageHeader.read(from: file))
            #expect(header.format == .png && header.width == width && header.height == height)
            let decoded = try CodecImageDecoder().thumbnail(from: file, size: ThumbnailSize(width: width, height: height)).image
            #expect(decoded.width == width && decoded.height == height)
            var expected: [UInt8] = []
            for pixel in 0..<width * height { expected += rgb[pixel * 3..<pixel * 3 + 3] + [255] }
            let difference = (0..<min(expected.count, decoded.pixels.count)).first { expected[$0] != decoded.pixels[$0] }
            #expect(difference == nil && expected.count == decoded.pixels.count, "round \(round), \(width)×\(height): first difference at byte \(difference ?? -1)")
        }
    }

    /// The checksums against their definitions' published check values.
    @Test func checksumsMatchTheirCheckValues() {
        let text = Array("123456789".utf8)
        #expect(PNGChunk.crc32(text) == 0xCBF4_3926)         // CRC-32/ISO-HDLC's check value
        #expect(StoredPNG.adler32(text) == 0x091E_01DE)       // Adler-32 of the same
        #expect(StoredPNG.adler32([]) == 1)
        // Past one modulo interval (5,552 bytes of 255): the sums wrap as zlib's do.
        let long = [UInt8](repeating: 255, count: 20_000)
        var a: UInt64 = 1, b: UInt64 = 0
        for byte in long { a = (a + UInt64(byte)) % 65_521; b = (b + a) % 65_521 }
        #expect(StoredPNG.adler32(long) == UInt32(b << 16 | a))
    }

    /// A picture whose bytes do not match its size, or of no pixels, is refused.
    @Test func mismatchedSizesAreRefused() {
        #expect(StoredPNG.rgb([1, 2, 3], width: 2, height: 1) == nil)
        #expect(StoredPNG.rgb([], width: 0, height: 0) == nil)
    }
}
