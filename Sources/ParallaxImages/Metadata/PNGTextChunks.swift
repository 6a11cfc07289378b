/// The metadata PNG writers keep in text chunks rather than in `eXIf`:
/// - XMP in an `iTXt` chunk with the keyword `XML:com.adobe.xmp`, plain or
///   zlib-compressed;
/// - ImageMagick's and GIMP's "raw profiles" in `zTXt` (or `tEXt`) chunks
///   with the keyword `Raw profile type exif` (or `APP1`, or `xmp`): the
///   profile's bytes as hexadecimal text, after a line naming the profile
///   and a line giving its length, the EXIF one starting `Exif\0\0` as in
///   a JPEG. Many PNG photos converted from JPEG keep their EXIF only so.
enum PNGTextChunks {
    /// What a text chunk holds.
    enum Content: Equatable {
        case exif
        case xmp
    }

    /// The most bytes decompressed or decoded from one chunk.
    static let limit = 256 << 10
    /// The bytes decoded from a chunk first: a camera's dates lie in the
    /// first kilobyte or two of its Exif (IFD0 and the Exif IFD come before
    /// maker notes and thumbnails; in the sample photos' raw profiles, at
    /// bytes 176 to 1,028), so most of a raw profile (ImageMagick's 15-50 KB
    /// of hexadecimal in the sample photos) is never inflated; the rest is
    /// read only when the first part held no date. At 8 KB, inflating it was
    /// most of what reading a PNG's date cost, and a tenth of a first
    /// launch's work on a library of the sample photos.
    static let quickLimit = 2 << 10

    /// What the `tEXt`, `zTXt` or `iTXt` chunk of `type` whose data starts
    /// with `head` holds, if it is metadata this reader reads.
    static func content(type: Int, head: ByteView) -> Content? {
        guard let keyword = keyword(head) else { return nil }
        switch (type, keyword) {
        case (fourCC("iTXt"), "XML:com.adobe.xmp"): return .xmp
        case (fourCC("tEXt"), "Raw profile type exif"), (fourCC("zTXt"), "Raw profile type exif"),
             (fourCC("tEXt"), "Raw profile type APP1"), (fourCC("zTXt"), "Raw profile type APP1"): return .exif
        case (fourCC("tEXt"), "Raw profile type xmp"), (fourCC("zTXt"), "Raw profile type xmp"): return .xmp
        default: return nil
        }
    }

    /// The keyword that opens a text chunk: 1 to 79 bytes before a 0.
    private static func keyword(_ data: ByteView) -> String? {
        let head = data.bytes.prefix(80)
        guard let end = head.firstIndex(of: 0), end > 0 else { return nil }
        return String(decoding: head[..<end], as: UTF8.self)
    }

    /// The bytes a text chunk's `data` holds for `type`: decompressed, and
    /// a raw profile's hexadecimal decoded (its EXIF without `Exif\0\0`),
    /// at most `limit` of them, and whether that is all there is.
    static func payload(type: Int, data: ByteView, limit: Int = limit) -> (bytes: [UInt8], isWhole: Bool)? {
        let bytes = data.bytes
        guard let keywordEnd = bytes.prefix(80).firstIndex(of: 0) else { return nil }
        var at = keywordEnd + 1
        let text: [UInt8]
        switch type {
        case fourCC("tEXt"):
            text = Array(bytes[at..<min(bytes.count, at + limit * 2 + 64)])
        case fourCC("zTXt"):
            guard at < bytes.count, bytes[at] == 0,                // compression method 0: zlib
                  let inflated = Inflater.inflate(zlib: UnsafeBufferPointer(rebasing: bytes[(at + 1)...]), limit: limit * 2 + 64) else { return nil }
            text = inflated
        case fourCC("iTXt"):
            // Compression flag and method, then a language tag and a translated keyword, each ending in 0.
            guard at + 2 <= bytes.count else { return nil }
            let compressed = bytes[at] == 1
            at += 2
            for _ in 0..<2 {
                guard let zero = bytes[at...].firstIndex(of: 0) else { return nil }
                at = zero + 1
            }
            if compressed {
                return Inflater.inflate(zlib: UnsafeBufferPointer(rebasing: bytes[at...]), limit: limit).map { ($0, $0.count < limit) }
            }
            return (Array(bytes[at..<min(bytes.count, at + limit)]), bytes.count - at <= limit)
        default:
            return nil
        }
        return rawProfile(text, limit: limit)
    }

    /// The bytes of an ImageMagick raw profile: `"\nexif\n    5730\n4578…"`,
    /// hexadecimal after the length line, whitespace ignored.
    /// At most `limit` bytes, and whether they are all the length line declares.
    static func rawProfile(_ text: [UInt8], limit: Int = limit) -> (bytes: [UInt8], isWhole: Bool)? {
        var index = 0
        // Skip the blank first line and the profile name.
        var newlines = 0
        while index < text.count, newlines < 2 {
            if text[index] == 0x0A { newlines += 1 }
            index += 1
        }
        var length = 0, digits = 0
        while index < text.count, text[index] != 0x0A {
            if (0x30...0x39).contains(text[index]) {
                length = length * 10 + Int(text[index] - 0x30)
                digits += 1
                guard digits <= 9 else { return nil }
            }
            index += 1
        }
        guard digits > 0, length > 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(length, limit))
        var high: UInt8?
        while index < text.count, bytes.count < min(length, limit) {
            let character = text[index]
            index += 1
            let nibble: UInt8
            switch character {
            case 0x30...0x39: nibble = character - 0x30
            case 0x61...0x66: nibble = character - 0x61 + 10
            case 0x41...0x46: nibble = character - 0x41 + 10
            case 0x20, 0x0A, 0x0D, 0x09: continue
            default: return nil
            }
            if let first = high {
                bytes.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        if bytes.starts(with: Array("Exif\0\0".utf8)) { bytes.removeFirst(6) }
        return (bytes, length <= limit)
    }
}
