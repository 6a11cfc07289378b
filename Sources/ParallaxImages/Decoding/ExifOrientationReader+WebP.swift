extension ExifOrientationReader {
    /// The orientation in a WebP's `EXIF` chunk: a RIFF file whose chunks
    /// (a four-letter type, a little-endian 32-bit length, the payload
    /// padded to an even length) follow the 12-byte `RIFF····WEBP` header.
    /// The chunk holds a TIFF structure, which some writers prefix with
    /// `Exif\0\0` as in a JPEG. Chunks are walked by their lengths, not
    /// searched, so pixel data is never read; `nil` if there is none or the
    /// walk leaves the file.
    static func webp(_ bytes: UnsafeBufferPointer<UInt8>) -> ImageOrientation? {
        var offset = 12
        while offset + 8 <= bytes.count {
            let length = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            let payload = offset + 8
            guard length <= bytes.count - payload else { return nil }
            if bytes[offset] == 0x45, bytes[offset + 1] == 0x58, bytes[offset + 2] == 0x49, bytes[offset + 3] == 0x46 {   // EXIF
                var start = payload
                if length >= 6, bytes[start] == 0x45, bytes[start + 1] == 0x78, bytes[start + 2] == 0x69,
                   bytes[start + 3] == 0x66, bytes[start + 4] == 0, bytes[start + 5] == 0 {
                    start += 6                                                                                   // "Exif\0\0"
                }
                return tiff(bytes, start: start, end: payload + length)
            }
            offset = payload + length + (length & 1)
        }
        return nil
    }
}
