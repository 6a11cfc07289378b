#if canImport(CParallaxCodecs)
import CParallaxCodecs
import Foundation

extension CodecImageDecoder {
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
    func heif(_ bytes: UnsafeBufferPointer<UInt8>, size: ThumbnailSize) throws(ImageDecodingError) -> DecodedThumbnail {
        var message = [CChar](repeating: 0, count: 200)
        // libheif's own size limit (per side): never past its default of 32768.
        let maxDimension = Int32(min(max(options.maximumPixelCount, 1), 32_768))
        var info = pk_heif_info()
        try check(pk_heif_read_info(bytes.baseAddress, bytes.count, maxDimension, &info, &message, message.count), message)
        let width = Int(info.width), height = Int(info.height)
        try options.checkPixelLimit(width: width, height: height)
        let thumbnails = withUnsafeBytes(of: info.thumbnail_width) { widths in
            withUnsafeBytes(of: info.thumbnail_height) { heights in
                (0..<min(Int(info.thumbnail_count), Int(PK_HEIF_MAX_THUMBNAILS))).map {
                    (width: Int(widths.load(fromByteOffset: $0 * 4, as: Int32.self)),
                     height: Int(heights.load(fromByteOffset: $0 * 4, as: Int32.self)))
                }
            }
        }
        let choice = HEIFItemChoice(primaryWidth: width, primaryHeight: height, thumbnails: options.usesScaledDecoding ? thumbnails : [],
                                    size: size)
        let geometry = ThumbnailGeometry(width: choice.width, height: choice.height, orientation: .up, size: size)
        let codecBytes = Self.wholePictureBytes(width: choice.width, height: choice.height,
                                                    bitDepth: Int(info.bit_depth), hasAlpha: info.has_alpha != 0)
        let (resampled, needed) = try streamRows(width: choice.width, height: choice.height, crop: geometry.crop,
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
