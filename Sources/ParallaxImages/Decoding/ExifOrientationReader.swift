import Foundation

/// Finds the EXIF orientation tag (0x0112) in a JPEG's APP1 segment, a
/// PNG's `eXIf` chunk or a WebP's `EXIF` chunk, reading only the headers. Anything malformed reads as
/// `.up`: a broken EXIF block must never cost the picture.
public enum ExifOrientationReader {
    /// The orientation recorded in `data`, or `.up`.
    public static func orientation(in data: Data) -> ImageOrientation {
        data.withUnsafeBytes { raw -> ImageOrientation in
            let bytes = raw.bindMemory(to: UInt8.self)
            if bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 { return jpeg(bytes) ?? .up }
            if bytes.count >= 8, bytes[0] == 0x89, bytes[1] == 0x50, bytes[2] == 0x4E, bytes[3] == 0x47 {
                return png(bytes) ?? .up
            }
            if bytes.count >= 12, bytes[0] == 0x52, bytes[1] == 0x49, bytes[2] == 0x46, bytes[3] == 0x46,
               bytes[8] == 0x57, bytes[9] == 0x45, bytes[10] == 0x42, bytes[11] == 0x50 {
                return webp(bytes) ?? .up
            }
            return .up
        }
    }

    private static func jpeg(_ bytes: UnsafeBufferPointer<UInt8>) -> ImageOrientation? {
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue }                  // fill byte
            if marker == 0xD9 || marker == 0xDA { return nil }            // end of image, start of scan
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { offset += 2; continue }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else { return nil }
            let payload = offset + 4
            if marker == 0xE1, length >= 8,
               bytes[payload] == 0x45, bytes[payload + 1] == 0x78, bytes[payload + 2] == 0x69,
               bytes[payload + 3] == 0x66, bytes[payload + 4] == 0, bytes[payload + 5] == 0 {
                return tiff(bytes, start: payload + 6, end: offset + 2 + length)
            }
            offset += 2 + length
        }
        return nil
    }

    private static func png(_ bytes: UnsafeBufferPointer<UInt8>) -> ImageOrientation? {
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 0, offset + 12 + length <= bytes.count else { return nil }
            let type = (bytes[offset + 4], bytes[offset + 5], bytes[offset + 6], bytes[offset + 7])
            if type == (0x65, 0x58, 0x49, 0x66) { return tiff(bytes, start: offset + 8, end: offset + 8 + length) }  // eXIf
            if type == (0x49, 0x44, 0x41, 0x54) { return nil }                                               // IDAT: too late
            offset += 12 + length
        }
        return nil
    }

    /// Reads IFD0 of a TIFF structure in `bytes[start..<end]`.
    static func tiff(_ bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> ImageOrientation? {
        guard end <= bytes.count, start + 8 <= end else { return nil }
        let little: Bool
        switch (bytes[start], bytes[start + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= start, at + 2 <= end else { return nil }
            return little ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : Int(bytes[at]) << 8 | Int(bytes[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let a = u16(at), let b = u16(at + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(start + 2) == 42, let ifd = u32(start + 4), let count = u16(start + ifd) else { return nil }
        for entry in 0..<min(count, 512) {
            let at = start + ifd + 2 + entry * 12
            guard let tag = u16(at) else { return nil }
            if tag == 0x0112 {
                guard let value = u16(at + 8) else { return nil }
                return ImageOrientation(rawValue: value)
            }
        }
        return nil
    }
}
