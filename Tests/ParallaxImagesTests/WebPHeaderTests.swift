import Foundation
import Testing
@testable import ParallaxImages

/// ``ImageHeader/read(from:)`` for WebP: lossy, lossless and extended files,
/// and the orientation rule for an `EXIF` chunk.
@Suite("WebP headers from the first chunk")
struct WebPHeaderTests {
    static func le32(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24 & 0xFF)] }
    static func le24(_ value: Int) -> [UInt8] { Array(le32(value).prefix(3)) }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        Array(type.utf8) + le32(data.count) + data + (data.count % 2 == 1 ? [0] : [])
    }

    static func riff(_ chunks: [[UInt8]]) -> Data {
        let body = Array("WEBP".utf8) + chunks.flatMap { $0 }
        return Data(Array("RIFF".utf8) + le32(body.count) + body)
    }

    static func vp8(width: Int, height: Int) -> [UInt8] {
        chunk("VP8 ", [0x30, 0x01, 0x00, 0x9D, 0x01, 0x2A] + [UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8)] + [0, 0])
    }

    static func vp8x(flags: UInt8, width: Int, height: Int) -> [UInt8] {
        chunk("VP8X", [flags, 0, 0, 0] + le24(width - 1) + le24(height - 1))
    }

    /// A little-endian TIFF structure whose IFD0 holds only an orientation.
    static func tiff(orientation: Int) -> [UInt8] {
        Array("II".utf8) + [42, 0] + le32(8) + [1, 0] + [0x12, 0x01, 3, 0] + le32(1) + [UInt8(orientation), 0, 0, 0] + le32(0)
    }

    @Test func filesMadeByCwebpGiveTheirSize() throws {
        for file in [MetadataFixtures.xmpWebP, MetadataFixtures.losslessWebP, MetadataFixtures.alphaWebP] {
            #expect(try ImageHeader.read(from: file) == ImageHeader(format: .webp, storedWidth: 16, storedHeight: 12, orientation: .up))
        }
    }

    @Test func lossyLosslessAndExtendedSizesAreRead() throws {
        // VP8: the top two bits of each 16-bit size are a scale, not size.
        #expect(try ImageHeader.read(from: Self.riff([Self.vp8(width: 0xC000 | 4000, height: 0x4000 | 3000)]))?.storedWidth == 4000)
        #expect(try ImageHeader.read(from: Self.riff([Self.vp8(width: 4000, height: 0x4000 | 3000)]))?.storedHeight == 3000)
        // VP8L: 14-bit width − 1 and height − 1 after the signature byte 0x2F.
        let bits = (16383 - 1) | (2 - 1) << 14
        let lossless = Self.riff([Self.chunk("VP8L", [0x2F] + Self.le32(bits) + [0, 0])])
        #expect(try ImageHeader.read(from: lossless) == ImageHeader(format: .webp, storedWidth: 16383, storedHeight: 2, orientation: .up))
        // VP8X: 24-bit canvas sizes minus one, up to 2²⁴.
        let extended = Self.riff([Self.vp8x(flags: 0x10, width: 1 << 24, height: 70_000), Self.vp8(width: 1, height: 1)])
        #expect(try ImageHeader.read(from: extended) == ImageHeader(format: .webp, storedWidth: 1 << 24, storedHeight: 70_000, orientation: .up))
    }

    @Test func theExifChunkTurnsThePictureWhenTheBytesGivenReachIt() throws {
        let early = Self.riff([Self.vp8x(flags: 0x08, width: 40, height: 30), Self.chunk("EXIF", Self.tiff(orientation: 6)), Self.vp8(width: 40, height: 30)])
        #expect(try ImageHeader.read(from: early)?.orientation == .right)
        #expect(try ImageHeader.read(from: early)?.width == 30)
        let withPrefix = Self.riff([Self.vp8x(flags: 0x08, width: 40, height: 30), Self.chunk("EXIF", Array("Exif\0\0".utf8) + Self.tiff(orientation: 8)), Self.vp8(width: 40, height: 30)])
        #expect(try ImageHeader.read(from: withPrefix)?.orientation == .left)
        // After the image data, where cwebp and most writers put it, as the decoder reads it.
        let late = Self.riff([Self.vp8x(flags: 0x08, width: 40, height: 30), Self.vp8(width: 40, height: 30), Self.chunk("EXIF", Self.tiff(orientation: 6))])
        #expect(try ImageHeader.read(from: late)?.orientation == .right)
        #expect(try ImageHeader.read(from: late)?.orientation == ExifOrientationReader.orientation(in: late))
        // Beyond the bytes given: the header does not wait for them.
        #expect(try ImageHeader.read(from: late.prefix(38))?.orientation == .up)
        #expect(try ImageHeader.read(from: early.prefix(40))?.orientation == .up)
        #expect(try ImageHeader.read(from: MetadataFixtures.datedWebP)?.orientation == .right)
    }

    @Test func prefixesAskForMoreAndMalformedFilesSayWhy() throws {
        let file = Self.riff([Self.vp8(width: 40, height: 30)])
        for length in [0, 4, 11, 12, 19, 20, 29] { #expect(try ImageHeader.read(from: file.prefix(length)) == nil, "\(length)") }
        #expect(try ImageHeader.read(from: file.prefix(30))?.storedWidth == 40)
        #expect(throws: ImageDecodingError.corrupt("the VP8 data does not start with a key frame")) {
            var bytes = [UInt8](file)
            bytes[20] |= 1
            return try ImageHeader.read(from: Data(bytes))
        }
        #expect(throws: ImageDecodingError.corrupt("the WebP header gives an empty size 0 × 30")) {
            try ImageHeader.read(from: Self.riff([Self.vp8(width: 0, height: 30)]))
        }
        #expect(throws: ImageDecodingError.corrupt("the VP8L data lacks its signature")) {
            try ImageHeader.read(from: Self.riff([Self.chunk("VP8L", [0x2E, 0, 0, 0, 0])]))
        }
        #expect(throws: ImageDecodingError.corrupt("the first WebP chunk is 'ALPH', not VP8, VP8L or VP8X")) {
            try ImageHeader.read(from: Self.riff([Self.chunk("ALPH", [0, 0])]))
        }
    }
}
