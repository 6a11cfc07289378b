import Foundation

/// The small JPEG a camera or phone writes into a photo's Exif data (IFD1's
/// `JPEGInterchangeFormat`, typically 160 × 120): a preview of the whole
/// photo that costs a read of the file's first 64 KB and a decode of a few
/// kilobytes, long before the photo itself is decoded. Or a HEIF photo's
/// whole file (``isWholeFile``), whose thumbnail item (phones write one of
/// about 320 pixels) the decoder decodes on its own
/// (``ImageDecoding/embeddedThumbnail(in:)``).
///
/// Only JPEG files are read (the thumbnail lives in their Exif APP1
/// segment, which is at most 64 KB and comes before the image data). Every
/// offset is checked against the segment: a thumbnail that would lie
/// outside it, is empty, or is not a JPEG is no thumbnail.
///
/// Complexity: O(segments before the image data + IFD entries), on bytes
/// already read.
public struct EmbeddedThumbnail: Sendable, Hashable {
    /// The thumbnail's JPEG bytes, or the whole file when ``isWholeFile``.
    public var data: Data
    /// The photo's Exif orientation, which the thumbnail shares (it has
    /// no Exif of its own): turn it upright with this. `.up` for a whole
    /// file, whose decoder turns its thumbnail item itself.
    public var orientation: ImageOrientation
    /// Whether ``data`` is the photo's whole file, holding its thumbnail
    /// as an image of its own (a HEIF thumbnail item), rather than the
    /// thumbnail's bytes.
    public var isWholeFile = false

    /// How much of a file to read to find it: an Exif segment is at most
    /// 64 KB, and comes after at most a JFIF segment.
    public static let readLength = 68 << 10

    /// A thumbnail already found (`data`: any format the decoder reads),
    /// for a source that finds it its own way.
    public init(data: Data, orientation: ImageOrientation) {
        self.data = data
        self.orientation = orientation
    }

    /// A photo's whole file, whose decoder finds its thumbnail item.
    public init(wholeFile data: Data) {
        self.data = data
        orientation = .up
        isWholeFile = true
    }

    /// The thumbnail in `bytes`, the first bytes of a JPEG file (at least
    /// up to the end of its Exif segment), or `nil` if it has none.
    public init?(jpeg bytes: Data) {
        let found: (Range<Int>, ImageOrientation)? = bytes.withUnsafeBytes { raw in
            Self.locate(in: raw.bindMemory(to: UInt8.self))
        }
        guard let (range, orientation) = found else { return nil }
        data = bytes.subdata(in: (bytes.startIndex + range.lowerBound)..<(bytes.startIndex + range.upperBound))
        self.orientation = orientation
    }

    /// The thumbnail's range in `bytes` and the photo's orientation.
    static func locate(in bytes: UnsafeBufferPointer<UInt8>) -> (Range<Int>, ImageOrientation)? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var at = 2, segments = 0
        while at + 4 <= bytes.count, segments < 64 {
            segments += 1
            guard bytes[at] == 0xFF else { return nil }
            let marker = bytes[at + 1]
            if marker == 0xFF { at += 1; continue }                   // a fill byte
            if marker == 0xDA || marker == 0xD9 { return nil }        // the image data: no Exif before it
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard length >= 2 else { return nil }
            let segment = (at + 4)..<min(at + 2 + length, bytes.count)
            if marker == 0xE1, segment.count > 14, Array(bytes[segment.lowerBound..<segment.lowerBound + 6]) == Array("Exif\0\0".utf8) {
                return thumbnail(in: bytes, tiff: segment.lowerBound + 6, end: segment.upperBound)
            }
            at += 2 + length
        }
        return nil
    }

    /// IFD1's JPEG in the TIFF structure at `tiff`, which ends at `end`;
    /// every read is confined to that structure (a ``ByteView`` of it).
    private static func thumbnail(in bytes: UnsafeBufferPointer<UInt8>, tiff: Int, end: Int) -> (Range<Int>, ImageOrientation)? {
        guard let view = ByteView(bytes).slice(tiff..<end) else { return nil }
        let little: Bool
        switch view.u16(tiff) {
        case 0x4949: little = true
        case 0x4D4D: little = false
        default: return nil
        }
        /// Each entry's tag and value (a SHORT or LONG held in the entry), and the next IFD's offset.
        func entries(of ifd: Int) -> (values: [Int: Int], next: Int?)? {
            guard ifd >= 8, let count = view.u16(tiff + ifd, littleEndian: little), count <= 512 else { return nil }
            var values: [Int: Int] = [:]
            for index in 0..<count {
                let entry = tiff + ifd + 2 + index * 12
                guard let tag = view.u16(entry, littleEndian: little), let type = view.u16(entry + 2, littleEndian: little) else {
                    return nil
                }
                values[tag] = type == 3 ? view.u16(entry + 8, littleEndian: little) : view.u32(entry + 8, littleEndian: little)
            }
            return (values, view.u32(tiff + ifd + 2 + count * 12, littleEndian: little))
        }
        guard view.u16(tiff + 2, littleEndian: little) == 42, let ifd0Offset = view.u32(tiff + 4, littleEndian: little),
              let ifd0 = entries(of: ifd0Offset), let ifd1Offset = ifd0.next, ifd1Offset != ifd0Offset,
              let ifd1 = entries(of: ifd1Offset), let offset = ifd1.values[0x0201], let length = ifd1.values[0x0202],
              length >= 4, offset > 0 else { return nil }
        let start = tiff + offset
        guard view.contains(start, count: length), view.u16(start) == 0xFFD8 else { return nil }
        let orientation = ifd0.values[0x0112].flatMap(ImageOrientation.init(rawValue:)) ?? .up
        return (start..<(start + length), orientation)
    }
}
