#if canImport(CParallaxCodecs)
import CParallaxCodecs
import Foundation

/// The Linux decoder: libjpeg-turbo and libpng through `CParallaxCodecs`.
///
/// The picture is never held whole. The header is read first (pixel limit,
/// EXIF orientation, and whether the file's bytes could hold the size it
/// claims), then the most memory the decode will hold is worked out and
/// checked against ``DecodingOptions/maximumDecodeBytes`` and reserved in
/// the shared ``DecodingMemoryBudget``. The codec then hands over one row
/// at a time (a JPEG at the smallest DCT scale, 1/8 to 1, that still
/// covers the thumbnail; a PNG's rows, Adam7 passes included) straight into
/// an area resampler, so peak memory is the thumbnail plus one row, plus,
/// for a progressive JPEG, the coefficients libjpeg keeps for every block,
/// whatever size the header claims. Progressive JPEGs stop after the scans
/// the scaled decode needs; a baseline JPEG or non-interlaced PNG stops at
/// the last row the crop needs.
///
/// Colour policy: pixels are shown as stored, taken to be sRGB (`gAMA`,
/// `cHRM`, `iCCP` and ICC profiles are not applied, as Pillow does not);
/// 16-bit samples keep their high byte. docs/decoding.md in the repository
/// explains the policy, the budget and how both compare with ImageIO.
public struct CodecImageDecoder: ImageDecoding {
    /// The limits and choices every decode follows.
    public var options: DecodingOptions
    /// The budget this decoder's decodes reserve their memory in.
    public let memoryBudget: DecodingMemoryBudget

    /// A decoder following `options` (the fast path by default) that
    /// reserves its decodes' memory in `memoryBudget` (the shared budget
    /// unless given another).
    public init(options: DecodingOptions = DecodingOptions(), memoryBudget: DecodingMemoryBudget = .shared) {
        self.options = options
        self.memoryBudget = memoryBudget
    }

    /// A thumbnail of `size` from the JPEG or PNG bytes `data`: the header
    /// read and checked, the rows streamed from the codec into the area
    /// resampler, cropped to fill or fitted, then turned upright. Runs on the
    /// calling thread, which may wait there until ``memoryBudget`` has room.
    ///
    /// - Throws: ``ImageDecodingError``: `empty` for no bytes,
    ///   `unsupportedFormat` for anything but JPEG and PNG, `tooLarge` past
    ///   the pixel limit, `overBudget` past a memory limit, `truncated` for
    ///   a file shorter than its header needs, and the codec's own
    ///   `truncated`, `unsupportedVariant`, `outOfMemory` and `corrupt`.
    public func thumbnail(from data: Data, size: ThumbnailSize) throws(ImageDecodingError) -> DecodedThumbnail {
        guard !data.isEmpty else { throw .empty }
        guard let format = ImageFormat(sniffing: data) else { throw .unsupportedFormat }
        let orientation = ExifOrientationReader.orientation(in: data)
        let result: Result<DecodedThumbnail, ImageDecodingError> = data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            switch format {
            case .jpeg: return Result { () throws(ImageDecodingError) in try jpeg(bytes, size: size, orientation: orientation) }
            case .png: return Result { () throws(ImageDecodingError) in try png(bytes, size: size, orientation: orientation) }
            case .heif, .avif, .webp: return .failure(.unsupportedFormat)
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
        let sourceWidth = Int(info.width), sourceHeight = Int(info.height)
        try options.checkPixelLimit(width: sourceWidth, height: sourceHeight)
        // Arithmetic coding can spend far less than a bit on a block, so its size proves nothing; the memory
        // budget still bounds such a file.
        if info.is_arithmetic == 0 {
            try HeaderPlausibility.check(.jpeg, width: sourceWidth, height: sourceHeight, byteCount: bytes.count)
        }
        if options.requiresCompleteFile, !ImageFormat.jpegHasEndOfImage(bytes) {
            throw .truncated("the file ends before its end-of-image marker")
        }

        let geometry = ThumbnailGeometry(width: sourceWidth, height: sourceHeight, orientation: orientation, size: size)
        let denominator = options.usesScaledDecoding ? geometry.jpegScaleDenominator : 1
        var scaledWidth: Int32 = 0, scaledHeight: Int32 = 0
        pk_jpeg_scaled_size(info.width, info.height, Int32(denominator), &scaledWidth, &scaledHeight)
        let width = Int(scaledWidth), height = Int(scaledHeight)
        let sx = Double(width) / Double(sourceWidth), sy = Double(height) / Double(sourceHeight)
        let crop = (geometry.crop.x * sx, geometry.crop.y * sy, geometry.crop.width * sx, geometry.crop.height * sy)

        // Memory: libjpeg's (its whole-image coefficients for multi-scan files, and its row buffers), the
        // scanline (twice for CMYK) and the resampler.
        let codecBytes = Self.sum(Int(clamping: info.coefficient_bytes), Int(clamping: info.buffer_bytes), width * 8)
        let (resampled, needed) = try streamRows(width: width, height: height, crop: crop, geometry: geometry,
                                                 codecBytes: codecBytes) { (sink, message) throws(ImageDecodingError) in
            var damaged: Int32 = 0
            let status = pk_jpeg_decode_rows(
                bytes.baseAddress, bytes.count, Int32(denominator), Int32(options.progressiveMissingBits ?? -1),
                Int32(clamping: max(options.maximumScanCount, 1)), scaledWidth, scaledHeight,
                options.usesSmoothUpsampling ? 1 : 0, codecBytes,
                Self.rowSink, sink, nil, &damaged, &message, message.count)
            try check(status, message)
            if damaged != 0, options.requiresCompleteFile {
                // A file cut short and closed with an end-of-image marker: the rest would be grey.
                throw .truncated(Self.text(message))
            }
        }
        return finish(resampled, orientation: orientation, sourceWidth: sourceWidth, sourceHeight: sourceHeight,
                      decodedPixelCount: width * height, workingBytes: needed)
    }

    // MARK: PNG

    private func png(_ bytes: UnsafeBufferPointer<UInt8>, size: ThumbnailSize,
                     orientation: ImageOrientation) throws(ImageDecodingError) -> DecodedThumbnail {
        var message = [CChar](repeating: 0, count: 200)
        try HeaderPlausibility.checkPNGChunks(bytes)
        var info = pk_png_info()
        try check(pk_png_read_info(bytes.baseAddress, bytes.count, &info, &message, message.count), message)
        let width = Int(info.width), height = Int(info.height)
        try options.checkPixelLimit(width: width, height: height)
        try HeaderPlausibility.check(.png, width: width, height: height, byteCount: bytes.count)
        let geometry = ThumbnailGeometry(width: width, height: height, orientation: orientation, size: size)
        let crop = geometry.crop

        // Memory: libpng's rows (at up to 8 bytes a pixel for 16-bit RGBA, with the previous row kept for
        // unfiltering), its RGBA8 row, zlib's window and state, and the resampler. libpng's and zlib's
        // allocations are counted and capped for real at what the resampler leaves of the budget.
        let codecBytes = Self.sum(width * 24, 256 << 10)
        let (resampled, needed) = try streamRows(width: width, height: height, crop: crop, geometry: geometry,
                                                 codecBytes: codecBytes) { (sink, message) throws(ImageDecodingError) in
            let status = pk_png_decode_rows(bytes.baseAddress, bytes.count, codecBytes, Self.rowSink, sink, nil,
                                            &message, message.count)
            try check(status, message)
        }
        return finish(resampled, orientation: orientation, sourceWidth: width, sourceHeight: height,
                      decodedPixelCount: width * height, workingBytes: needed)
    }

    // MARK: Shared

    /// Runs `decode` (a codec handing rows to ``rowSink`` with the context it
    /// is given) into a ``StreamingAreaResampler`` for `geometry`, after
    /// checking the decode's memory (`codecBytes` plus the resampler's)
    /// against ``DecodingOptions/maximumDecodeBytes`` and while holding it in
    /// ``memoryBudget``. Returns the resampled (not yet oriented) pixels and
    /// the bytes budgeted.
    private func streamRows(
        width: Int, height: Int, crop: (x: Double, y: Double, width: Double, height: Double), geometry: ThumbnailGeometry,
        codecBytes: Int,
        _ decode: (_ sink: UnsafeMutableRawPointer, _ message: inout [CChar]) throws(ImageDecodingError) -> Void
    ) throws(ImageDecodingError) -> (PixelImage, Int) {
        let needed = Self.sum(codecBytes, Self.resamplerBytes(crop: crop, width: width, height: height, geometry: geometry))
        guard needed <= options.maximumDecodeBytes else {
            throw .overBudget(needed: needed, budget: options.maximumDecodeBytes)
        }
        let image = try memoryBudget.withReservation(of: needed) { () throws(ImageDecodingError) -> PixelImage in
            let resampler = StreamingAreaResampler(sourceWidth: width, sourceHeight: height, crop: crop,
                                                   outputWidth: geometry.storedOutput.width,
                                                   outputHeight: geometry.storedOutput.height)
            var message = [CChar](repeating: 0, count: 200)
            try withExtendedLifetime(resampler) { () throws(ImageDecodingError) in
                try decode(Unmanaged.passUnretained(resampler).toOpaque(), &message)
            }
            return resampler.finish()
        }
        return (image, needed)
    }

    /// Hands each row the codec decodes to the ``StreamingAreaResampler`` behind `context`.
    private static let rowSink: pk_row_sink = { context, y, x0, dx, count, pixels in
        guard let context, let pixels else { return 1 }
        let resampler = Unmanaged<StreamingAreaResampler>.fromOpaque(context).takeUnretainedValue()
        return resampler.consume(y: Int(y), x0: Int(x0), dx: Int(dx), count: Int(count), pixels: pixels) ? 1 : 0
    }

    /// The resampler's bytes, plus the oriented copy of its output.
    private static func resamplerBytes(crop: (x: Double, y: Double, width: Double, height: Double), width: Int, height: Int,
                                       geometry: ThumbnailGeometry) -> Int {
        let output = geometry.storedOutput
        return sum(StreamingAreaResampler.workingBytes(crop: crop, sourceWidth: width, sourceHeight: height,
                                                       outputWidth: output.width, outputHeight: output.height),
                   output.width * output.height * 4)
    }

    /// A sum that saturates instead of overflowing (sizes come from headers).
    private static func sum(_ values: Int...) -> Int {
        values.reduce(0) { total, value in
            let (result, overflow) = total.addingReportingOverflow(max(value, 0))
            return overflow ? .max : result
        }
    }

    private func finish(_ resampled: PixelImage, orientation: ImageOrientation, sourceWidth: Int, sourceHeight: Int,
                        decodedPixelCount: Int, workingBytes: Int) -> DecodedThumbnail {
        let displayed = orientation.displayedSize(width: sourceWidth, height: sourceHeight)
        return DecodedThumbnail(image: orientation.apply(to: resampled), sourceWidth: displayed.width,
                                sourceHeight: displayed.height, decodedPixelCount: decodedPixelCount,
                                workingBytes: workingBytes)
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
