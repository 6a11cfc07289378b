// The libjpeg/libpng decoder and its C helpers exist on Linux only (Apple platforms decode with ImageIO).
#if canImport(CParallaxCodecs)
import CParallaxCodecs
import Foundation
@testable import ParallaxImages

/// Where fetched test data lives: the folder an environment variable names,
/// else `.cache/<name>` at the top of the repository (what `make test` fills).
enum TestData {
    static func folder(environment variable: String, named name: String) -> URL {
        if let path = ProcessInfo.processInfo.environment[variable] { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".cache").appendingPathComponent(name)
    }
}

/// Synthetic test pictures, encoded with the same libjpeg/libpng the decoder uses.
enum TestImages {
    /// An RGB8 picture of `width × height` where `color(x, y)` gives each pixel.
    static func rgb(width: Int, height: Int, _ color: (Int, Int) -> (UInt8, UInt8, UInt8)) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = color(x, y)
                let i = (y * width + x) * 3
                bytes[i] = r; bytes[i + 1] = g; bytes[i + 2] = b
            }
        }
        return bytes
    }

    static func jpeg(width: Int, height: Int, quality: Int = 95, progressive: Bool = false,
                     orientation: Int? = nil, exif app1: [UInt8]? = nil, _ color: (Int, Int) -> (UInt8, UInt8, UInt8)) -> Data {
        let pixels = rgb(width: width, height: height, color)
        let exif = app1 ?? orientation.map(exifPayload(orientation:)) ?? []
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        let status = pixels.withUnsafeBufferPointer { rgb in
            exif.withUnsafeBufferPointer { app1 in
                pk_jpeg_encode_rgb(rgb.baseAddress, Int32(width), Int32(height), Int32(quality), progressive ? 1 : 0,
                                   app1.count > 0 ? app1.baseAddress : nil, app1.count, &output, &size)
            }
        }
        precondition(status == PK_OK, "test JPEG encoding failed")
        defer { pk_free(output) }
        return Data(bytes: output!, count: size)
    }

    /// A PNG from straight (not premultiplied) RGBA bytes.
    static func png(width: Int, height: Int, rgba: [UInt8]) -> Data {
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        let status = rgba.withUnsafeBufferPointer { pk_png_encode_rgba($0.baseAddress, Int32(width), Int32(height), &output, &size) }
        precondition(status == PK_OK, "test PNG encoding failed")
        defer { pk_free(output) }
        return Data(bytes: output!, count: size)
    }

    /// An APP1 payload: "Exif\0\0", a little-endian TIFF header and IFD0
    /// holding only the orientation tag.
    static func exifPayload(orientation: Int) -> [UInt8] {
        var bytes: [UInt8] = Array("Exif".utf8) + [0, 0]
        bytes += [0x49, 0x49, 42, 0, 8, 0, 0, 0]                 // II, 42, IFD0 at 8
        bytes += [1, 0]                                          // one entry
        bytes += [0x12, 0x01, 3, 0, 1, 0, 0, 0, UInt8(orientation), 0, 0, 0]   // 0x0112 SHORT 1 value
        bytes += [0, 0, 0, 0]                                    // no next IFD
        return bytes
    }

    /// An APP1 payload as a camera writes it: "Exif\0\0", a little-endian
    /// TIFF header, IFD0 with the orientation, and IFD1 pointing at
    /// `thumbnail` (a JPEG), which follows.
    static func exifPayload(orientation: Int, thumbnail: Data) -> [UInt8] {
        var bytes: [UInt8] = Array("Exif".utf8) + [0, 0]
        func u16(_ value: Int) { bytes += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func u32(_ value: Int) { u16(value & 0xFFFF); u16(value >> 16) }
        bytes += [0x49, 0x49, 42, 0]; u32(8)                     // II, 42, IFD0 at 8
        u16(1)
        u16(0x0112); u16(3); u32(1); u16(orientation); u16(0)   // orientation, SHORT
        u32(26)                                                  // IFD1 at 8 + 2 + 12 + 4
        u16(3)
        u16(0x0103); u16(3); u32(1); u16(6); u16(0)              // compression: JPEG
        u16(0x0201); u16(4); u32(1); u32(68)                     // JPEGInterchangeFormat: after IFD1
        u16(0x0202); u16(4); u32(1); u32(thumbnail.count)        // JPEGInterchangeFormatLength
        u32(0)
        return bytes + Array(thumbnail)
    }

    /// Four quadrants: red, green / blue, white. Any turn or mirror moves them.
    static func quadrant(_ x: Int, _ y: Int, width: Int, height: Int) -> (UInt8, UInt8, UInt8) {
        switch (x < width / 2, y < height / 2) {
        case (true, true): return (255, 0, 0)
        case (false, true): return (0, 255, 0)
        case (true, false): return (0, 0, 255)
        case (false, false): return (255, 255, 255)
        }
    }

    /// The peak signal-to-noise ratio between two images of the same size, in dB (RGB only).
    static func psnr(_ a: PixelImage, _ b: PixelImage) -> Double {
        precondition(a.width == b.width && a.height == b.height)
        var squared = 0.0
        var count = 0
        for i in stride(from: 0, to: a.pixels.count, by: 4) {
            for c in 0..<3 {
                let d = Double(a.pixels[i + c]) - Double(b.pixels[i + c])
                squared += d * d
                count += 1
            }
        }
        let mse = squared / Double(count)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    /// CRC-32 (PNG's), to forge consistent chunks in tests.
    static func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
#endif
