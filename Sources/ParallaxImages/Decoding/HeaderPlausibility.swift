/// Whether the bytes of a file could possibly hold the picture its header
/// claims, checked before anything of the claimed size is allocated.
///
/// A header is a promise the rest of the file must keep. A 69-byte PNG
/// that claims 14000 × 14000 pixels, or a 733-byte JPEG that claims the
/// same, cannot hold them however well compressed; a decoder that believes
/// the header allocates hundreds of megabytes before finding that out. As
/// libvips and ImageIO do, a picture is only as large as its bytes can
/// prove. The bounds here are deliberately loose (no real file comes near
/// them) so they never refuse a valid picture:
/// - **JPEG**: every 8 × 8 block of the first component costs at least one
///   bit of entropy-coded data (a DC difference code, or a share of an
///   end-of-band run in a progressive scan).
/// - **PNG**: each row is a filter byte plus at least one bit per pixel,
///   and deflate cannot compress by more than 1032 : 1.
///
/// It also walks a PNG's chunks, which each state their own length: a
/// chunk claiming more bytes than the file has left (libpng allocates the
/// claimed length of a text chunk before reading it) is refused.
enum HeaderPlausibility {
    /// The fewest bytes of entropy-coded data a `width` × `height` JPEG can have.
    static func minimumJPEGBytes(width: Int, height: Int) -> Int {
        guard width > 0, height > 0 else { return 0 }
        let blocks = ((width - 1) / 8 + 1).multipliedReportingOverflow(by: (height - 1) / 8 + 1)
        return blocks.overflow ? .max : blocks.partialValue / 8
    }

    /// The fewest bytes of compressed data a `width` × `height` PNG can have.
    static func minimumPNGBytes(width: Int, height: Int) -> Int {
        guard width > 0, height > 0 else { return 0 }
        let row = 1 + ((width - 1) / 8 + 1)
        let raw = row.multipliedReportingOverflow(by: height)
        return raw.overflow ? .max : raw.partialValue / 1032
    }

    /// Throws if `byteCount` bytes cannot hold the claimed picture.
    static func check(_ format: ImageFormat, width: Int, height: Int, byteCount: Int) throws(ImageDecodingError) {
        let needed = format == .jpeg ? minimumJPEGBytes(width: width, height: height)
                                     : minimumPNGBytes(width: width, height: height)
        guard byteCount >= needed else {
            throw .truncated("the header claims \(width) × \(height) pixels, which need at least \(needed) bytes of image data; the file has \(byteCount)")
        }
    }

    /// Throws if a chunk of the PNG in `bytes` claims more bytes than
    /// remain in the file. Runs before libpng sees the file.
    static func checkPNGChunks(_ bytes: UnsafeBufferPointer<UInt8>) throws(ImageDecodingError) {
        func u32(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        var offset = 8                                           // after the signature
        while offset + 8 <= bytes.count {
            let length = u32(offset)
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let remaining = bytes.count - offset - 12            // after the length, type and CRC
            guard length <= max(remaining, 0) else {
                throw .truncated("the \(type) chunk claims \(length) bytes, but only \(max(remaining, 0)) remain in the file")
            }
            if type == "IEND" { return }
            offset += 12 + length
        }
    }
}
