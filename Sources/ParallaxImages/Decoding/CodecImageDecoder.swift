#if canImport(CParallaxCodecs)
import CParallaxCodecs
import Foundation

/// The Linux decoder: libjpeg-turbo and libpng through `CParallaxCodecs`.
///
/// JPEG: the header is read first (size limit, EXIF orientation), then the
/// codec decodes at the smallest DCT scale (1/8, 1/4, 1/2) that still
/// covers the thumbnail, so a 12-megapixel photo never exists in memory at
/// full size; progressive files stop after the scans the scaled decode
/// needs. PNG has no scaled decode and is read whole. Both are then area
/// resampled to the exact size and turned upright.
public struct CodecImageDecoder: ImageDecoding {
    public var options: DecodingOptions

    public init(options: DecodingOptions = DecodingOptions()) {
        self.options = options
    }

    public func thumbnail(from data: Data, size: ThumbnailSize) throws(ImageDecodingError) -> DecodedThumbnail {
        guard !data.isEmpty else { throw .empty }
        guard let format = ImageFormat(sniffing: data) else { throw .unsupportedFormat }
        let orientation = ExifOrientationReader.orientation(in: data)
        let result: Result<DecodedThumbnail, ImageDecodingError> = data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            switch format {
            case .jpeg: return Result { () throws(ImageDecodingError) in try jpeg(bytes, size: size, orientation: orientation) }
            case .png: return Result { () throws(ImageDecodingError) in try png(bytes, size: size, orientation: orientation) }
            }
        }
        return try result.get()
    }

    // MARK: JPEG

    private func jpeg(_ bytes: UnsafeBufferPointer<UInt8>, size: ThumbnailSize,
                      orientation: ImageOrientation) throws(ImageDecodingError) -> DecodedThumbnail {
        var message = [CChar](repeating: 0, count: 200)
        var info = pk_jpeg_info()
        let status = pk_jpeg_read_info(bytes.baseAddress, bytes.count, &info, &message, message.count)
        try check(status, message)
        try options.checkPixelLimit(width: Int(info.width), height: Int(info.height))
        try HeaderPlausibility.check(.jpeg, width: Int(info.width), height: Int(info.height), byteCount: bytes.count)
        if options.requiresCompleteFile, !ImageFormat.jpegHasEndOfImage(bytes) {
            throw .truncated("the file ends before its end-of-image marker")
        }

        let geometry = ThumbnailGeometry(width: Int(info.width), height: Int(info.height), orientation: orientation, size: size)
        let denominator = options.usesScaledDecoding ? geometry.jpegScaleDenominator : 1
        var scaledWidth: Int32 = 0, scaledHeight: Int32 = 0
        pk_jpeg_scaled_size(info.width, info.height, Int32(denominator), &scaledWidth, &scaledHeight)
        let width = Int(scaledWidth), height = Int(scaledHeight)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let missingBits = Int32(options.progressiveMissingBits ?? -1)
        var damaged: Int32 = 0
        let decodeStatus = pixels.withUnsafeMutableBufferPointer { buffer in
            pk_jpeg_decode_rgba(bytes.baseAddress, bytes.count, Int32(denominator), missingBits,
                                buffer.baseAddress, width * 4, scaledWidth, scaledHeight, options.usesSmoothUpsampling ? 1 : 0,
                                nil, &damaged, &message, message.count)
        }
        try check(decodeStatus, message)
        if damaged != 0, options.requiresCompleteFile {
            // A file cut short and closed with an end-of-image marker: the rest would be grey.
            throw .truncated(Self.text(message))
        }
        let decoded = PixelImage(unchecked: width, height: height, pixels: pixels)
        let sx = Double(width) / Double(info.width), sy = Double(height) / Double(info.height)
        let crop = (geometry.crop.x * sx, geometry.crop.y * sy, geometry.crop.width * sx, geometry.crop.height * sy)
        return finish(decoded, crop: crop, geometry: geometry, orientation: orientation,
                      sourceWidth: Int(info.width), sourceHeight: Int(info.height))
    }

    // MARK: PNG

    private func png(_ bytes: UnsafeBufferPointer<UInt8>, size: ThumbnailSize,
                     orientation: ImageOrientation) throws(ImageDecodingError) -> DecodedThumbnail {
        var message = [CChar](repeating: 0, count: 200)
        var width: Int32 = 0, height: Int32 = 0
        try HeaderPlausibility.checkPNGChunks(bytes)
        try check(pk_png_read_info(bytes.baseAddress, bytes.count, &width, &height, &message, message.count), message)
        try options.checkPixelLimit(width: Int(width), height: Int(height))
        try HeaderPlausibility.check(.png, width: Int(width), height: Int(height), byteCount: bytes.count)
        var pixels = [UInt8](repeating: 0, count: Int(width) * Int(height) * 4)
        let status = pixels.withUnsafeMutableBufferPointer { buffer in
            pk_png_decode_premultiplied_rgba(bytes.baseAddress, bytes.count, buffer.baseAddress, Int(width) * 4,
                                             width, height, &message, message.count)
        }
        try check(status, message)
        let decoded = PixelImage(unchecked: Int(width), height: Int(height), pixels: pixels)
        let geometry = ThumbnailGeometry(width: Int(width), height: Int(height), orientation: orientation, size: size)
        return finish(decoded, crop: geometry.crop, geometry: geometry, orientation: orientation,
                      sourceWidth: Int(width), sourceHeight: Int(height))
    }

    // MARK: Shared

    private func finish(_ decoded: PixelImage, crop: (x: Double, y: Double, width: Double, height: Double),
                        geometry: ThumbnailGeometry, orientation: ImageOrientation,
                        sourceWidth: Int, sourceHeight: Int) -> DecodedThumbnail {
        let resampled = AreaResampler.resample(decoded, crop: crop, width: geometry.storedOutput.width,
                                               height: geometry.storedOutput.height)
        let displayed = orientation.displayedSize(width: sourceWidth, height: sourceHeight)
        return DecodedThumbnail(image: orientation.apply(to: resampled), sourceWidth: displayed.width,
                                sourceHeight: displayed.height, decodedPixelCount: decoded.width * decoded.height)
    }

    private static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func check(_ status: pk_status, _ message: [CChar]) throws(ImageDecodingError) {
        let text = Self.text(message)
        switch status {
        case PK_OK: return
        case PK_ERROR_TRUNCATED: throw .truncated(text)
        case PK_ERROR_UNSUPPORTED:
            // libjpeg built for 8-bit samples names the precision it met ("Unsupported JPEG data precision 12").
            if let precision = text.split(separator: " ").last.flatMap({ Int($0) }), text.contains("precision") {
                throw .unsupportedVariant("a \(precision)-bit JPEG (this decoder reads 8-bit JPEGs)")
            }
            throw text.isEmpty ? .unsupportedFormat : .unsupportedVariant(text)
        case PK_ERROR_NO_MEMORY: throw .outOfMemory
        default: throw .corrupt(text.isEmpty ? "decoder status \(status.rawValue)" : text)
        }
    }
}
#endif
