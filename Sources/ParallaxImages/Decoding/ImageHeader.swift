import Foundation

/// What a picture's first bytes say about it: its format, its pixel size
/// and its EXIF orientation, read without decoding a pixel. Layouts that
/// need each photo's shape before its pixels (a quilt, a waterfall) read
/// this for every photo as the list arrives.
///
/// A JPEG's size is in its start-of-frame segment (SOF0–SOF15, after any
/// APPn segments, where an Exif APP1 carries the orientation); a PNG's in
/// its IHDR chunk, the first one (an `eXIf` chunk, if any, comes before the
/// image data); a HEIF's or AVIF's in the `ispe` property of its primary
/// item, with `irot` and `imir` as its orientation, all in the `meta` box
/// before the coded pixels; a WebP's in its first chunk. Reading stops
/// there, so a 40 MB photo costs the few kilobytes up to its frame header.
public struct ImageHeader: Sendable, Hashable {
    // The two one-byte enums after the integers: 24 bytes a header instead of
    // 32, which a manifest's million listed sizes feel.
    /// The size as stored, before orientation.
    public var storedWidth: Int
    /// The height as stored, in pixels, before orientation.
    public var storedHeight: Int
    /// The file's format.
    public var format: ImageFormat
    /// The EXIF orientation; `.up` when the file has none, or a malformed one.
    public var orientation: ImageOrientation

    /// A header as given; ``read(from:)`` makes these from a file's first
    /// bytes.
    public init(format: ImageFormat, storedWidth: Int, storedHeight: Int, orientation: ImageOrientation) {
        self.format = format
        self.storedWidth = storedWidth
        self.storedHeight = storedHeight
        self.orientation = orientation
    }

    /// The size as shown, after the EXIF orientation turns the picture.
    public var width: Int { orientation.swapsWidthAndHeight ? storedHeight : storedWidth }
    /// The height as shown, after the EXIF orientation turns the picture.
    public var height: Int { orientation.swapsWidthAndHeight ? storedWidth : storedHeight }

    /// The header of the picture that starts with `bytes`, or `nil` if they
    /// end before it does (read more; `bytes` may be any prefix of the file).
    ///
    /// Complexity: O(bytes up to the frame header); for JPEG, PNG and WebP
    /// nothing is allocated but the result, for HEIF and AVIF the tables
    /// of the `meta` box (a few kilobytes).
    /// - Throws: ``ImageDecodingError/unsupportedFormat`` for anything but
    ///   the formats of ``ImageFormat``; ``ImageDecodingError/corrupt(_:)``
    ///   for a header that is malformed or gives an empty size.
    public static func read(from bytes: Data) throws(ImageDecodingError) -> ImageHeader? {
        guard let format = ImageFormat(sniffing: bytes) else {
            // Too few bytes to tell is not an error yet.
            if bytes.count < 64, isPrefixOfAKnownSignature(bytes) { return nil }
            throw .unsupportedFormat
        }
        // Parsed into an outcome rather than thrown from inside the closure: typed throws through
        // `withUnsafeBytes` needs a newer standard library than the oldest Apple SDK supported.
        let outcome: Outcome = bytes.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            switch format {
            case .jpeg: return jpeg(bytes)
            case .png: return png(bytes)
            case .heif, .avif: return isoMedia(ByteView(bytes), format: format)
            case .webp: return Outcome(WebPHeaderReader.header(ByteView(bytes)))
            }
        }
        switch outcome {
        case .needsMoreBytes:
            return nil
        case .failure(let error):
            throw error
        case .header(var header):
            // HEIF's and WebP's readers set the orientation their format defines.
            if format == .jpeg || format == .png { header.orientation = ExifOrientationReader.orientation(in: bytes) }
            return header
        }
    }

    private enum Outcome {
        case header(ImageHeader)
        case needsMoreBytes
        case failure(ImageDecodingError)

        init(_ result: Result<ImageHeader, ImageDecodingError>?) {
            switch result {
            case .success(let header): self = .header(header)
            case .failure(let error): self = .failure(error)
            case nil: self = .needsMoreBytes
            }
        }
    }

    /// A HEIF or AVIF header: the primary item's size and orientation from
    /// the `meta` box, which must lie whole in `view`.
    private static func isoMedia(_ view: ByteView, format: ImageFormat) -> Outcome {
        switch HEIFMetaBox.find(in: view) {
        case .needsMoreBytes:
            return .needsMoreBytes
        case .malformed(let reason):
            return .failure(.corrupt(reason))
        case .found(let meta):
            guard let primary = meta.primaryItem else { return .failure(.corrupt("the meta box names no primary item (pitm)")) }
            switch HEIFItemProperties.of(primary, in: meta, view: view) {
            case .success(let item):
                return .header(ImageHeader(format: format, storedWidth: item.width, storedHeight: item.height, orientation: item.orientation))
            case .failure(let error):
                return .failure(error)
            }
        }
    }

    private static func isPrefixOfAKnownSignature(_ bytes: Data) -> Bool {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF], png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let riff = Array("RIFF".utf8)
        // An ISO base media file (HEIF, AVIF) is told by its `ftyp` box at bytes 4–7.
        let ftyp = Array("ftyp".utf8)
        return jpeg.starts(with: bytes.prefix(3)) || png.starts(with: bytes) || riff.starts(with: bytes.prefix(4))
            || bytes.count <= 4 || ftyp.starts(with: bytes.dropFirst(4))
    }

    private static func jpeg(_ bytes: UnsafeBufferPointer<UInt8>) -> Outcome {
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return .failure(.corrupt("no JPEG marker at byte \(offset)")) }
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue }                  // fill byte
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { offset += 2; continue }
            if marker == 0xD9 || marker == 0xDA { return .failure(.corrupt("the image data starts before any frame header")) }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2 else { return .failure(.corrupt("a JPEG segment of length \(length)")) }
            // Start of frame: every SOFn but DHT (C4), JPG (C8) and DAC (CC).
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                guard offset + 9 <= bytes.count else { return .needsMoreBytes }
                let height = Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6])
                let width = Int(bytes[offset + 7]) << 8 | Int(bytes[offset + 8])
                guard width > 0, height > 0 else {
                    return .failure(.corrupt("the frame header gives an empty size \(width) × \(height)"))
                }
                return .header(ImageHeader(format: .jpeg, storedWidth: width, storedHeight: height, orientation: .up))
            }
            offset += 2 + length
        }
        return .needsMoreBytes
    }

    private static func png(_ bytes: UnsafeBufferPointer<UInt8>) -> Outcome {
        // Signature (8), then IHDR: length (4), type (4), width (4), height (4).
        guard bytes.count >= 24 else { return .needsMoreBytes }
        guard bytes[12] == 0x49, bytes[13] == 0x48, bytes[14] == 0x44, bytes[15] == 0x52 else {
            return .failure(.corrupt("the first PNG chunk is not IHDR"))
        }
        func u32(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        let width = u32(16), height = u32(20)
        // The PNG specification caps each side at 2³¹ − 1.
        guard (1...0x7FFF_FFFF).contains(width), (1...0x7FFF_FFFF).contains(height) else {
            return .failure(.corrupt("IHDR gives the size \(width) × \(height)"))
        }
        return .header(ImageHeader(format: .png, storedWidth: width, storedHeight: height, orientation: .up))
    }
}
