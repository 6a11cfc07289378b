/// A WebP file's pixel size and orientation from its first chunk:
/// - `VP8 ` (lossy): a 3-byte frame tag (bit 0 clear on a key frame), the
///   start code 9D 01 2A, then 14-bit width and height (the top two bits
///   of each are a scale hint, not the size);
/// - `VP8L` (lossless): the signature byte 0x2F, then width − 1 and
///   height − 1 in 14 bits each, packed little-endian;
/// - `VP8X` (extended: alpha, animation, metadata): flags, then the canvas
///   width − 1 and height − 1 in 24 bits each.
///
/// The orientation comes from the `EXIF` chunk, as the decoder applies it
/// (``ExifOrientationReader``). Most writers put that chunk after the image
/// data, so in a large file it lies beyond the first bytes: the header then
/// says `.up` rather than wait for megabytes, and
/// `FolderImageSource.headerAndCaptureDate(for:)` completes it from the
/// chunk the date reader reads anyway (one more read of a few hundred
/// bytes).
enum WebPHeaderReader {
    /// The header, or `nil` if the bytes end before it; a failure for a
    /// malformed one.
    static func header(_ view: ByteView) -> Result<ImageHeader, ImageDecodingError>? {
        guard let type = view.u32(12), let size = view.u32(16, littleEndian: true) else { return nil }
        let data = 20
        func header(_ width: Int, _ height: Int, _ orientation: ImageOrientation = .up) -> Result<ImageHeader, ImageDecodingError> {
            guard width > 0, height > 0 else { return .failure(.corrupt("the WebP header gives an empty size \(width) × \(height)")) }
            return .success(ImageHeader(format: .webp, storedWidth: width, storedHeight: height, orientation: orientation))
        }
        switch type {
        case fourCC("VP8 "):
            guard let tag = view.u8(data), let width = view.u16(data + 6, littleEndian: true),
                  let height = view.u16(data + 8, littleEndian: true) else { return nil }
            guard size >= 10 else { return .failure(.corrupt("a VP8 chunk of \(size) bytes")) }
            guard tag & 1 == 0, view.matches(data + 3, [0x9D, 0x01, 0x2A]) else {
                return .failure(.corrupt("the VP8 data does not start with a key frame"))
            }
            return header(width & 0x3FFF, height & 0x3FFF)
        case fourCC("VP8L"):
            guard let signature = view.u8(data), let bits = view.u32(data + 1, littleEndian: true) else { return nil }
            guard signature == 0x2F, size >= 5 else { return .failure(.corrupt("the VP8L data lacks its signature")) }
            return header((bits & 0x3FFF) + 1, (bits >> 14 & 0x3FFF) + 1)
        case fourCC("VP8X"):
            guard let flags = view.u8(data), let width = view.u24LittleEndian(data + 4),
                  let height = view.u24LittleEndian(data + 7) else { return nil }
            guard size >= 10 else { return .failure(.corrupt("a VP8X chunk of \(size) bytes")) }
            let hasExif = flags & 0x08 != 0
            guard hasExif else { return header(width + 1, height + 1) }
            return header(width + 1, height + 1, exifOrientation(view, from: data + size + (size & 1)))
        default:
            return .failure(.corrupt("the first WebP chunk is \(HEIFMetaBox.name(type)), not VP8, VP8L or VP8X"))
        }
    }

    /// The orientation in the `EXIF` chunk, found by walking the chunks
    /// from `start` by their lengths (image data skipped, never read);
    /// `.up` when there is none or it lies beyond the bytes in `view`.
    private static func exifOrientation(_ view: ByteView, from start: Int) -> ImageOrientation {
        var offset = start
        for _ in 0..<64 {
            guard let type = view.u32(offset), let size = view.u32(offset + 4, littleEndian: true) else { return .up }
            guard type == fourCC("EXIF") else {
                offset += 8 + size + (size & 1)
                continue
            }
            guard view.contains(offset + 8, count: size) else { return .up }
            var tiff = offset + 8
            if view.matches(tiff, Array("Exif\0\0".utf8)) { tiff += 6 }
            guard tiff < offset + 8 + size else { return .up }
            return TIFFMetadata(view, range: tiff..<(offset + 8 + size))?.orientation ?? .up
        }
        return .up
    }
}
