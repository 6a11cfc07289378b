#if canImport(CParallaxCodecs)
import CParallaxCodecs
import Foundation

extension CodecImageDecoder {
    /// A WebP thumbnail: libwebp crops to the whole pixels around the
    /// thumbnail's region and scales them, as it decodes, to the smallest
    /// size that still gives the crop the thumbnail's pixels (never larger
    /// than the region); the area resampler then cuts the exact crop. With
    /// ``DecodingOptions/usesScaledDecoding`` off the whole picture is
    /// decoded at full size. An animation gives its first frame at canvas
    /// size.
    ///
    /// No bound on the file's length follows from the size a WebP claims
    /// (a lossless file of one colour takes a few hundred bytes at any
    /// size), so the memory budget alone bounds what a header can ask for.
    func webp(_ bytes: UnsafeBufferPointer<UInt8>, target: DecodeTarget,
              orientation: ImageOrientation) throws(ImageDecodingError) -> DecodedThumbnail {
        var message = [CChar](repeating: 0, count: 200)
        var info = pk_webp_info()
        try check(pk_webp_read_info(bytes.baseAddress, bytes.count, &info, &message, message.count), message)
        let width = Int(info.width), height = Int(info.height)
        try options.checkPixelLimit(width: width, height: height)
        let geometry = target.geometry(width: width, height: height, orientation: orientation)
        let plan = info.has_animation != 0 || !options.usesScaledDecoding
            ? WebPDecodePlan(wholeOf: width, height, geometry: geometry)
            : WebPDecodePlan(width: width, height: height, geometry: geometry)

        // Memory: the scaled output (ours); libwebp's rows and scaler for lossy data, its whole-picture
        // ARGB for lossless data (with 32 rows of cache), a byte a pixel for alpha; an animation's canvas
        // and the previous one it keeps.
        let pixels = width * height
        var codecBytes = Self.sum(plan.outputWidth * plan.outputHeight * 4, width * 96, plan.outputWidth * 64, 512 << 10)
        if info.format != 0 { codecBytes = Self.sum(codecBytes, width * (height + 32) * 4) }
        if info.has_alpha != 0 { codecBytes = Self.sum(codecBytes, pixels) }
        if info.has_animation != 0 { codecBytes = Self.sum(codecBytes, pixels * 8) }
        let (resampled, needed, _) = try streamRows(width: plan.outputWidth, height: plan.outputHeight, crop: plan.crop,
                                                 geometry: geometry, codecBytes: codecBytes) { (sink, message) throws(ImageDecodingError) in
            let region = plan.region
            let status = pk_webp_decode_rows(bytes.baseAddress, bytes.count, Int32(region.x), Int32(region.y),
                                             Int32(region.width), Int32(region.height), Int32(plan.outputWidth),
                                             Int32(plan.outputHeight), Self.rowSink, sink, &message, message.count)
            try check(status, message)
        }
        return finish(resampled, orientation: orientation, sourceWidth: width, sourceHeight: height,
                      decodedPixelCount: plan.outputWidth * plan.outputHeight, workingBytes: needed)
    }
}
#endif
