#if canImport(CParallaxCodecs)
import CParallaxCodecs
import Foundation

extension CodecImageDecoder {
    /// The largest thumbnail item of a HEIF file's primary image with its
    /// shape (up to 1,024 pixels a side), decoded at its own size; `nil`
    /// for another format, or a HEIF file without one. The primary image is
    /// never decoded here.
    public func embeddedThumbnail(in data: Data) throws(ImageDecodingError) -> PixelImage? {
        guard ImageFormat(sniffing: data) == .heif, options.usesScaledDecoding else { return nil }
        let result: Result<PixelImage?, ImageDecodingError> = data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            return Result { () throws(ImageDecodingError) in
                var message = [CChar](repeating: 0, count: 200)
                let maxDimension = Int32(min(max(options.maximumPixelCount, 1), 32_768))
                var info = pk_heif_info()
                try check(pk_heif_read_info(bytes.baseAddress, bytes.count, maxDimension, &info, &message, message.count), message)
                let largest = Self.thumbnailSizes(of: info).filter { max($0.width, $0.height) <= 1_024 }
                    .max { $0.width * $0.height < $1.width * $1.height }
                guard let largest, let size = try? ThumbnailSize(width: largest.width, height: largest.height, mode: .fit) else {
                    return nil
                }
                // Only if the item serves at its own size (the primary's shape): else `heif` would decode the primary.
                let choice = HEIFItemChoice(primaryWidth: Int(info.width), primaryHeight: Int(info.height),
                                            thumbnails: Self.thumbnailSizes(of: info), size: size)
                guard choice.thumbnailIndex != nil else { return nil }
                return try heif(bytes, target: .thumbnail(size)).image
            }
        }
        return try result.get()
    }

    /// The sizes of the thumbnail items `info` lists.
    private static func thumbnailSizes(of info: pk_heif_info) -> [(width: Int, height: Int)] {
        withUnsafeBytes(of: info.thumbnail_width) { widths in
            withUnsafeBytes(of: info.thumbnail_height) { heights in
                (0..<min(Int(info.thumbnail_count), Int(PK_HEIF_MAX_THUMBNAILS))).map {
                    (width: Int(widths.load(fromByteOffset: $0 * 4, as: Int32.self)),
                     height: Int(heights.load(fromByteOffset: $0 * 4, as: Int32.self)))
                }
            }
        }
    }

    /// A HEIF thumbnail: from the smallest thumbnail item of the primary
    /// image's shape that still has the thumbnail's pixels in its crop
    /// (phones store one of about 320 pixels a side, so a small tile never
    /// decodes the 12-megapixel picture), else from the primary image,
    /// grid images included. With ``DecodingOptions/usesScaledDecoding`` off
    /// the primary image is always used.
    ///
    /// libheif applies `irot`, `imir` and `clap` and reports the size after
    /// them, so the picture arrives upright and EXIF orientation is not
    /// applied on top. HEVC has no downscaled decode: libheif holds the whole
    /// item, which the budget counts.
    func heif(_ bytes: UnsafeBufferPointer<UInt8>, target: DecodeTarget) throws(ImageDecodingError) -> DecodedThumbnail {
        var message = [CChar](repeating: 0, count: 200)
        // libheif's own size limit (per side): never past its default of 32768.
        let maxDimension = Int32(min(max(options.maximumPixelCount, 1), 32_768))
        var info = pk_heif_info()
        try check(pk_heif_read_info(bytes.baseAddress, bytes.count, maxDimension, &info, &message, message.count), message)
        let width = Int(info.width), height = Int(info.height)
        try options.checkPixelLimit(width: width, height: height)
        let thumbnails = Self.thumbnailSizes(of: info)
        let choice = HEIFItemChoice(primaryWidth: width, primaryHeight: height, thumbnails: options.usesScaledDecoding ? thumbnails : [],
                                    target: target)
        let geometry = target.geometry(width: choice.width, height: choice.height, orientation: .up)
        let codecBytes = Self.wholePictureBytes(width: choice.width, height: choice.height,
                                                    bitDepth: Int(info.bit_depth), hasAlpha: info.has_alpha != 0)
        let (resampled, needed, _) = try streamRows(width: choice.width, height: choice.height, crop: geometry.crop,
                                                 geometry: geometry, codecBytes: codecBytes) { (sink, message) throws(ImageDecodingError) in
            let status = pk_heif_decode_rows(bytes.baseAddress, bytes.count, maxDimension, Int32(choice.thumbnailIndex ?? -1),
                                             Int32(choice.width), Int32(choice.height), Self.rowSink, sink,
                                             &message, message.count)
            try check(status, message)
        }
        return finish(resampled, orientation: .up, sourceWidth: width, sourceHeight: height,
                      decodedPixelCount: choice.width * choice.height, workingBytes: needed)
    }
}
#endif
