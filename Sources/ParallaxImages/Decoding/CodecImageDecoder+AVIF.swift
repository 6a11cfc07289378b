#if canImport(CParallaxCodecs)
import CParallaxCodecs
import Foundation

extension CodecImageDecoder {
    /// An AVIF thumbnail: libavif decodes the first image whole (AV1 has no
    /// downscaled decode) and converts it to premultiplied RGBA8, 10- and
    /// 12-bit samples reduced; the rows stream into the area resampler, and
    /// the thumbnail is turned by the file's `irot` and `imir`, which
    /// libavif reports but does not apply.
    func avif(_ bytes: UnsafeBufferPointer<UInt8>, target: DecodeTarget) throws(ImageDecodingError) -> DecodedThumbnail {
        var message = [CChar](repeating: 0, count: 200)
        let maxPixels = UInt32(clamping: max(options.maximumPixelCount, 1))
        var info = pk_avif_info()
        try check(pk_avif_read_info(bytes.baseAddress, bytes.count, maxPixels, &info, &message, message.count), message)
        let width = Int(info.width), height = Int(info.height)
        try options.checkPixelLimit(width: width, height: height)
        let orientation = ImageOrientation(rawValue: Int(info.orientation)) ?? .up
        let geometry = target.geometry(width: width, height: height, orientation: orientation)
        // Memory: the AV1 decoder's frame (and its copy, counted as 4:4:4), alpha, and the RGBA8 conversion.
        let codecBytes = Self.wholePictureBytes(width: width, height: height, bitDepth: Int(info.depth),
                                                    hasAlpha: info.has_alpha != 0)
        let (resampled, needed, _) = try streamRows(width: width, height: height, crop: geometry.crop, geometry: geometry,
                                                 codecBytes: codecBytes) { (sink, message) throws(ImageDecodingError) in
            let status = pk_avif_decode_rows(bytes.baseAddress, bytes.count, maxPixels, info.width, info.height,
                                             Self.rowSink, sink, &message, message.count)
            try check(status, message)
        }
        return finish(resampled, orientation: orientation, sourceWidth: width, sourceHeight: height,
                      decodedPixelCount: width * height, workingBytes: needed)
    }
}
#endif
