import Foundation
import Testing
@testable import ParallaxImages

/// ``ImageFormat/init(sniffing:)``: each format by its first bytes, HEIF and
/// AVIF told apart by their `ftyp` brands, and videos in the same container
/// refused.
struct ImageFormatSniffingTests {
    /// An `ftyp` box with `major` and `compatible` brands, then filler.
    private func ftyp(_ major: String, _ compatible: [String]) -> Data {
        let size = 16 + 4 * compatible.count
        var bytes: [UInt8] = [0, 0, UInt8(size >> 8), UInt8(size & 0xFF)] + Array("ftyp".utf8) + Array(major.utf8) + [0, 0, 0, 0]
        for brand in compatible { bytes += Array(brand.utf8) }
        return Data(bytes + [0, 0, 0, 8] + Array("meta".utf8))
    }

    @Test func tellsEveryFormatByItsFirstBytes() {
        #expect(ImageFormat(sniffing: Data([0xFF, 0xD8, 0xFF, 0xE0])) == .jpeg)
        #expect(ImageFormat(sniffing: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0])) == .png)
        #expect(ImageFormat(sniffing: Data(Array("RIFF".utf8) + [1, 2, 3, 4] + Array("WEBPVP8 ".utf8))) == .webp)
        #expect(ImageFormat(sniffing: ftyp("heic", ["mif1", "heic"])) == .heif)
        #expect(ImageFormat(sniffing: ftyp("mif1", ["heic"])) == .heif)
        #expect(ImageFormat(sniffing: ftyp("avif", ["mif1", "miaf"])) == .avif)
        // AVIF files often give mif1 as the major brand and avif among the compatible ones.
        #expect(ImageFormat(sniffing: ftyp("mif1", ["avif", "miaf"])) == .avif)
    }

    @Test func refusesLookAlikes() {
        #expect(ImageFormat(sniffing: ftyp("isom", ["iso2", "mp41"])) == nil)            // an MP4 video
        #expect(ImageFormat(sniffing: ftyp("qt  ", [])) == nil)                          // a QuickTime movie
        #expect(ImageFormat(sniffing: Data(Array("RIFF".utf8) + [1, 2, 3, 4] + Array("WAVE".utf8))) == nil)
        #expect(ImageFormat(sniffing: Data(Array("GIF89a".utf8))) == nil)
        #expect(ImageFormat(sniffing: Data()) == nil)
        // A box size below the 16 bytes an ftyp needs.
        var short = [UInt8](ftyp("heic", ["mif1"]))
        short[3] = 8
        #expect(ImageFormat(sniffing: Data(short)) == nil)
    }

    @Test func namesAndExtensionsMapToFormats() {
        #expect(ImageFormat(fileExtension: "HEIC") == .heif)
        #expect(ImageFormat(fileExtension: "hif") == .heif)
        #expect(ImageFormat(fileExtension: "webp") == .webp)
        #expect(ImageFormat(manifestName: "image/avif") == .avif)
        #expect(ImageFormat(manifestName: "image/JPEG") == .jpeg)
        #expect(ImageFormat(manifestName: "gif") == nil)
    }
}
