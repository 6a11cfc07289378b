import Foundation
import Testing
@testable import ParallaxImages

/// A PNG's raw Exif profile (ImageMagick's and GIMP's zTXt of hexadecimal)
/// is inflated a little first (``PNGTextChunks/quickLimit``) and whole only
/// when the first part held no date: a date near the start or far in is
/// found either way, and the better one wins.
struct PNGRawProfileTests {
    /// Little-endian TIFF data: IFD0 with `DateTime` (modified) and a
    /// pointer to an Exif IFD holding `DateTimeOriginal`, whose 20 bytes lie
    /// after `padding` bytes of filler.
    static func exif(modified: String, original: String, padding: Int) -> [UInt8] {
        var out: [UInt8] = Array("II".utf8) + [42, 0, 8, 0, 0, 0]
        func u16(_ value: Int) { out += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func u32(_ value: Int) { u16(value & 0xFFFF); u16(value >> 16) }
        let ifd0 = 8, exifIFD = ifd0 + 2 + 2 * 12 + 4
        let modifiedAt = exifIFD + 2 + 12 + 4, originalAt = modifiedAt + 20 + padding
        u16(2)
        u16(0x0132); u16(2); u32(20); u32(modifiedAt)                  // DateTime
        u16(0x8769); u16(4); u32(1); u32(exifIFD)                      // Exif IFD pointer
        u32(0)
        u16(1)
        u16(0x9003); u16(2); u32(20); u32(originalAt)                  // DateTimeOriginal
        u32(0)
        out += Array(modified.utf8) + [0]
        out += [UInt8](repeating: 0x20, count: padding)
        out += Array(original.utf8) + [0]
        return out
    }

    /// `bytes` as a zlib stream of stored blocks, with its Adler-32.
    static func zlibStored(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01], offset = 0
        repeat {
            let count = min(65_535, bytes.count - offset), last: UInt8 = offset + count == bytes.count ? 1 : 0
            out += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8(~count >> 8 & 0xFF)]
            out += bytes[offset..<(offset + count)]
            offset += count
        } while offset < bytes.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes { a = (a + UInt32(byte)) % 65_521; b = (b + a) % 65_521 }
        let adler = b << 16 | a
        return out + [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }

    /// A small PNG with `exif` as an ImageMagick raw profile in a zTXt chunk after its IHDR.
    static func png(rawProfile exif: [UInt8]) -> Data {
        let profile = Array("Exif".utf8) + [0, 0] + exif
        let hex = profile.map { String(format: "%02x", $0) }.joined()
        var text = "\nexif\n\(String(format: "%8d", profile.count))\n"
        var index = hex.startIndex
        while index < hex.endIndex {
            let end = hex.index(index, offsetBy: 72, limitedBy: hex.endIndex) ?? hex.endIndex
            text += hex[index..<end] + "\n"
            index = end
        }
        let data = Array("Raw profile type exif".utf8) + [0, 0] + zlibStored(Array(text.utf8))
        let type = Array("zTXt".utf8)
        let length = UInt32(data.count), crc = crc32(type + data)
        let chunk = [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            + type + data + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        let base = [UInt8](TestImages.png(width: 2, height: 2, rgba: [UInt8](repeating: 200, count: 16)))
        return Data(base[..<33] + chunk + base[33...])
    }

    @Test(arguments: [0, 100, PNGTextChunks.quickLimit - 200, PNGTextChunks.quickLimit + 500, 3 * PNGTextChunks.quickLimit])
    func theOriginalDateIsFoundNearOrFar(padding: Int) throws {
        let file = Self.png(rawProfile: Self.exif(modified: "2020:01:02 03:04:05", original: "2019:06:07 08:09:10", padding: padding))
        let date = try #require(CaptureDateReader.read(fromWholeFile: file, format: .png))
        #expect(date.source == .exifOriginal, "padding \(padding): \(date)")
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date.date)
        #expect([parts.year, parts.month, parts.day, parts.hour, parts.minute, parts.second] == [2019, 6, 7, 8, 9, 10])
    }
}
