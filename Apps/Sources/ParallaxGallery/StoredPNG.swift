import Foundation

/// A PNG written without compression: 8-bit RGB rows, each with filter
/// type 0 (none), in zlib's stored blocks (PNG specification, 10; RFC 1950
/// and 1951). Writing one is copying the rows and two checksums, and so is
/// reading it back, where a deflated PNG costs the gallery's generated
/// pictures most of their time twice over: zlib's compression when drawn
/// and its inflate when decoded (two thirds of a session's CPU time over
/// generated pictures went to them).
///
/// Complexity: O(width × height); the file is 3 bytes a pixel, plus 1 a row
/// and 5 every 65,535 bytes.
enum StoredPNG {
    /// `rgb` (3 bytes a pixel, rows top to bottom) as a PNG file; `nil` for
    /// an empty picture or one whose bytes do not match its size.
    static func rgb(_ rgb: [UInt8], width: Int, height: Int) -> Data? {
        guard width > 0, height > 0, width <= Int(Int32.max) / 3, height <= Int(Int32.max),
              rgb.count == width * height * 3 else { return nil }
        let rowBytes = width * 3
        var raw = [UInt8]()
        raw.reserveCapacity((rowBytes + 1) * height)
        for y in 0..<height {
            raw.append(0)                                             // filter type: none
            raw.append(contentsOf: rgb[y * rowBytes..<(y + 1) * rowBytes])
        }
        var stream: [UInt8] = [0x78, 0x01]                            // deflate, 32 KB window, no dictionary
        stream.reserveCapacity(raw.count + raw.count / 65_535 * 5 + 16)
        var offset = 0
        repeat {
            let length = min(65_535, raw.count - offset)
            let last: UInt8 = offset + length == raw.count ? 1 : 0
            stream.append(last)                                       // BFINAL, BTYPE 00: stored
            stream.append(contentsOf: [UInt8(length & 0xFF), UInt8(length >> 8)])
            stream.append(contentsOf: [UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)])
            stream.append(contentsOf: raw[offset..<offset + length])
            offset += length
        } while offset < raw.count
        stream.append(contentsOf: PNGChunk.bigEndian(adler32(raw)))

        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        file.reserveCapacity(stream.count + 64)
        let header = PNGChunk.bigEndian(UInt32(width)) + PNGChunk.bigEndian(UInt32(height)) + [8, 2, 0, 0, 0]
        PNGChunk.append("IHDR", header, to: &file)
        PNGChunk.append("IDAT", stream, to: &file)
        PNGChunk.append("IEND", [UInt8](), to: &file)
        return Data(file)
    }

    /// zlib's checksum of the uncompressed bytes (RFC 1950, 9).
    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        var index = 0
        while index < bytes.count {
            // 5,552 bytes is the most that cannot overflow before the modulo (zlib's NMAX).
            let end = min(index + 5_552, bytes.count)
            while index < end {
                a &+= UInt32(bytes[index])
                b &+= a
                index += 1
            }
            a %= 65_521
            b %= 65_521
        }
        return b << 16 | a
    }
}
