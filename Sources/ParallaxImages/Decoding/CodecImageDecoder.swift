#if canImport(CParallaxCodecs)
import CParallaxCodecs
import Foundation

/// The Linux decoder: libjpeg-turbo, libpng, libwebp, libheif and libavif
/// through `CParallaxCodecs`, the codecs Debian ships.
///
/// The header is read first (pixel limit, orientation, and whether the
/// file's bytes could hold the size it claims), then the most memory the
/// decode will hold is worked out and checked against
/// ``DecodingOptions/maximumDecodeBytes`` and reserved in the shared
/// ``DecodingMemoryBudget``. The codec then hands over one row at a time
/// straight into an area resampler. What each codec costs:
/// - **JPEG**: decoded at the smallest DCT scale, 1/8 to 1, that still
///   covers the thumbnail, so peak memory is the thumbnail plus one row,
///   plus, for a progressive JPEG, the coefficients libjpeg keeps for every
///   block. Progressive files stop after the scans the scaled decode needs;
///   baseline files at the last row the crop needs. At 1/8 scale a
///   progressive file is read from its DC coefficients alone, 2 bytes a
///   block instead of libjpeg's 128 (`pk_jpeg_decode_dc_rows`, the same
///   pixels as libjpeg's decode of the same scans).
/// - **PNG**: rows (Adam7 passes included) as libpng inflates them; a
///   non-interlaced file stops at the last row the crop needs.
/// - **WebP** (lossy, lossless, alpha): libwebp crops to the thumbnail's
///   region and scales it to about the thumbnail's size as it decodes, so
///   the full-size picture never exists in RGBA; lossless data and alpha
///   still cost libwebp 4 and 1 bytes per source pixel. EXIF orientation
///   comes from the `EXIF` chunk. An animated WebP shows its first frame.
/// - **HEIF/HEIC**: the primary image's thumbnail item when it has at
///   least the thumbnail's pixels in the crop, the primary image (grids
///   included) otherwise. libheif decodes the whole item and applies `irot`,
///   `imir` and `clap` itself, so EXIF orientation is never applied on top
///   (the HEIF specification makes the properties, not EXIF, authoritative).
/// - **AVIF**: libavif decodes the first image whole; its `irot` and `imir`
///   are applied to the thumbnail. Clean apertures (`clap`) are not
///   applied, as `avifdec` does not.
///
/// HEIF and AVIF samples of 10 or 12 bits are reduced to 8 by the codec.
/// GIF, TIFF, BMP and JPEG XL are refused as
/// ``ImageDecodingError/unsupportedVariant(_:)`` naming the format: GIFs
/// are animations more than photos, TIFFs come from scanners and raw
/// converters, and JPEG XL waits for an ``ImageFormat`` case of its own
/// (docs/decoding.md in the repository says more).
/// ``DecodingOptions/requiresCompleteFile`` is for JPEG: the other codecs
/// never decode a file cut short (they fail as `truncated` or `corrupt`).
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

    /// A thumbnail of `size` from the JPEG, PNG, WebP, HEIF or AVIF bytes
    /// `data`: the header read and checked, the rows streamed from the codec
    /// into the area resampler, cropped to fill or fitted, then turned
    /// upright. Runs on the calling thread, which may wait there until
    /// ``memoryBudget`` has room.
    ///
    /// - Throws: ``ImageDecodingError``: `empty` for no bytes,
    ///   `unsupportedFormat` for data of no format it knows,
    ///   `unsupportedVariant` for a GIF, TIFF, BMP or JPEG XL (named),
    ///   `tooLarge` past the pixel limit, `overBudget` past a memory limit,
    ///   `truncated` for a file shorter than its header needs, and the
    ///   codec's own `truncated`, `unsupportedVariant`, `outOfMemory` and
    ///   `corrupt`.
    public func thumbnail(from data: Data, size: ThumbnailSize) throws(ImageDecodingError) -> DecodedThumbnail {
        try decode(data, target: .thumbnail(size))
    }

    /// `region` of the JPEG, PNG, WebP, HEIF or AVIF picture in `data`, at
    /// its pixel size: a JPEG decodes only the iMCU columns around the
    /// region and the rows down to its last, at the smallest DCT scale that
    /// still gives it its pixels (`jpeg_crop_scanline`, `jpeg_skip_scanlines`);
    /// a WebP decodes its crop; a PNG streams its rows down to the region's
    /// last one; HEIF and AVIF decode the whole picture (libheif decodes a
    /// grid image's tiles one by one, but Debian 12's libheif 1.15 has no
    /// call for a single tile). The memory budget is the thumbnail's.
    ///
    /// - Throws: the errors of ``thumbnail(from:size:)``.
    public func image(from data: Data, region: ImageRegion) throws(ImageDecodingError) -> DecodedThumbnail {
        try decode(data, target: .region(region))
    }

    private func decode(_ data: Data, target: DecodeTarget) throws(ImageDecodingError) -> DecodedThumbnail {
        guard !data.isEmpty else { throw .empty }
        guard let format = ImageFormat(sniffing: data) else {
            if let name = UnreadImageFormat(sniffing: data) { throw .unsupportedVariant(name.description) }
            throw .unsupportedFormat
        }
        let result: Result<DecodedThumbnail, ImageDecodingError> = data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            return Result { () throws(ImageDecodingError) in
                switch format {
                case .jpeg: return try jpeg(bytes, target: target, orientation: ExifOrientationReader.orientation(in: data))
                case .png: return try png(bytes, target: target, orientation: ExifOrientationReader.orientation(in: data))
                case .webp: return try webp(bytes, target: target, orientation: ExifOrientationReader.orientation(in: data))
                case .heif: return try heif(bytes, target: target)
                case .avif: return try avif(bytes, target: target)
                }
            }
        }
        return try result.get()
    }

    // MARK: JPEG

    private func jpeg(_ bytes: UnsafeBufferPointer<UInt8>, target: DecodeTarget,
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

        let geometry = target.geometry(width: sourceWidth, height: sourceHeight, orientation: orientation)
        let denominator = options.usesScaledDecoding ? geometry.jpegScaleDenominator : 1
        var scaledWidth: Int32 = 0, scaledHeight: Int32 = 0
        pk_jpeg_scaled_size(info.width, info.height, Int32(denominator), &scaledWidth, &scaledHeight)
        let width = Int(scaledWidth), height = Int(scaledHeight)
        let sx = Double(width) / Double(sourceWidth), sy = Double(height) / Double(sourceHeight)
        let crop = (geometry.crop.x * sx, geometry.crop.y * sy, geometry.crop.width * sx, geometry.crop.height * sy)

        // A progressive file at 1/8 scale: each block's DC coefficient is its pixel, and the file sends
        // them first, so they are read alone (2 bytes a block; libjpeg would hold 128 for every block).
        // Files that path does not read exactly as libjpeg would go to libjpeg below.
        if denominator == 8, info.dc_decodable != 0, let missing = options.progressiveMissingBits, missing >= 0,
           !options.usesSmoothUpsampling {
            var decoded = false
            let dcBytes = Self.sum(Int(clamping: info.dc_bytes), width * 8)
            let (resampled, needed, _) = try streamRows(width: width, height: height, crop: crop, geometry: geometry,
                                                     codecBytes: dcBytes) { (sink, message) throws(ImageDecodingError) in
                let status = pk_jpeg_decode_dc_rows(bytes.baseAddress, bytes.count, Int32(clamping: missing),
                                                    Int32(clamping: max(options.maximumScanCount, 1)), scaledWidth, scaledHeight,
                                                    Self.rowSink, sink, nil)
                guard status != PK_ERROR_UNSUPPORTED else { return }
                try check(status, message)
                decoded = true
            }
            if decoded {
                return finish(resampled, orientation: orientation, sourceWidth: sourceWidth, sourceHeight: sourceHeight,
                              decodedPixelCount: width * height, workingBytes: needed)
            }
        }

        // Memory: libjpeg's (its whole-image coefficients for multi-scan files, and its row buffers), the
        // scanline (twice for CMYK) and the resampler.
        let codecBytes = Self.sum(Int(clamping: info.coefficient_bytes), Int(clamping: info.buffer_bytes), width * 8)
        // The columns and rows the resampler reads (a pixel of margin for its edge taps); a thumbnail's crop
        // spans most of the picture, so only a region is cut out.
        var columns = (x: 0, width: 0), firstRow = 0
        let isRegion: Bool
        if case .region = target { isRegion = true } else { isRegion = false }
        if isRegion {
            let x0 = max(Int(crop.0.rounded(.down)) - 1, 0), x1 = min(Int((crop.0 + crop.2).rounded(.up)) + 1, width)
            columns = x1 - x0 < width ? (x0, x1 - x0) : (0, 0)
            firstRow = min(max(Int(crop.1.rounded(.down)) - 1, 0), height - 1)
        }
        let (resampled, needed, handedOver) = try streamRows(width: width, height: height, crop: crop, geometry: geometry,
                                                 codecBytes: codecBytes) { (sink, message) throws(ImageDecodingError) in
            var damaged: Int32 = 0
            let status = pk_jpeg_decode_region_rows(
                bytes.baseAddress, bytes.count, Int32(denominator), Int32(options.progressiveMissingBits ?? -1),
                Int32(clamping: max(options.maximumScanCount, 1)), scaledWidth, scaledHeight,
                options.usesSmoothUpsampling ? 1 : 0, codecBytes, Int32(columns.x), Int32(columns.width), Int32(firstRow),
                Self.rowSink, sink, nil, &damaged, &message, message.count)
            try check(status, message)
            if damaged != 0, options.requiresCompleteFile {
                // A file cut short and closed with an end-of-image marker: the rest would be grey.
                throw .truncated(Self.text(message))
            }
        }
        return finish(resampled, orientation: orientation, sourceWidth: sourceWidth, sourceHeight: sourceHeight,
                      decodedPixelCount: isRegion ? handedOver : width * height, workingBytes: needed)
    }

    // MARK: PNG

    private func png(_ bytes: UnsafeBufferPointer<UInt8>, target: DecodeTarget,
                     orientation: ImageOrientation) throws(ImageDecodingError) -> DecodedThumbnail {
        var message = [CChar](repeating: 0, count: 200)
        try HeaderPlausibility.checkPNGChunks(bytes)
        var info = pk_png_info()
        try check(pk_png_read_info(bytes.baseAddress, bytes.count, &info, &message, message.count), message)
        let width = Int(info.width), height = Int(info.height)
        try options.checkPixelLimit(width: width, height: height)
        try HeaderPlausibility.check(.png, width: width, height: height, byteCount: bytes.count)
        let geometry = target.geometry(width: width, height: height, orientation: orientation)
        let crop = geometry.crop

        // Memory: libpng's rows (at up to 8 bytes a pixel for 16-bit RGBA, with the previous row kept for
        // unfiltering), its RGBA8 row, zlib's window and state, and the resampler. libpng's and zlib's
        // allocations are counted and capped for real at what the resampler leaves of the budget. Photos and
        // screenshots (8-bit RGB or RGBA) are rather inflated by ISA-L and unfiltered by ParallaxKit
        // (`pk_png_streamed_rows`, about 2.5 times as fast as libpng's rows), in a 64 KB block of rows, the row
        // above it, an RGBA row and ISA-L's 87 KB of state: within the same figure.
        let codecBytes = Self.sum(width * 24, 256 << 10)
        let (resampled, needed, _) = try streamRows(width: width, height: height, crop: crop, geometry: geometry,
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
    /// the bytes budgeted and the pixels the codec handed over.
    func streamRows(
        width: Int, height: Int, crop: (x: Double, y: Double, width: Double, height: Double), geometry: ThumbnailGeometry,
        codecBytes: Int,
        _ decode: (_ sink: UnsafeMutableRawPointer, _ message: inout [CChar]) throws(ImageDecodingError) -> Void
    ) throws(ImageDecodingError) -> (PixelImage, Int, handedOver: Int) {
        let needed = Self.sum(codecBytes, Self.resamplerBytes(crop: crop, width: width, height: height, geometry: geometry))
        guard needed <= options.maximumDecodeBytes else {
            throw .overBudget(needed: needed, budget: options.maximumDecodeBytes)
        }
        var handedOver = 0
        let image = try memoryBudget.withReservation(of: needed) { () throws(ImageDecodingError) -> PixelImage in
            let resampler = StreamingAreaResampler(sourceWidth: width, sourceHeight: height, crop: crop,
                                                   outputWidth: geometry.storedOutput.width,
                                                   outputHeight: geometry.storedOutput.height)
            var message = [CChar](repeating: 0, count: 200)
            try withExtendedLifetime(resampler) { () throws(ImageDecodingError) in
                try decode(Unmanaged.passUnretained(resampler).toOpaque(), &message)
            }
            handedOver = resampler.pixelsHandedOver
            return resampler.finish()
        }
        return (image, needed, handedOver)
    }

    /// Hands each row the codec decodes to the ``StreamingAreaResampler`` behind `context`.
    static let rowSink: pk_row_sink = { context, y, x0, dx, count, pixels in
        guard let context, let pixels else { return 1 }
        let resampler = Unmanaged<StreamingAreaResampler>.fromOpaque(context).takeUnretainedValue()
        return resampler.consume(y: Int(y), x0: Int(x0), dx: Int(dx), count: Int(count), pixels: pixels) ? 1 : 0
    }

    /// The resampler's bytes, plus the oriented copy of its output.
    static func resamplerBytes(crop: (x: Double, y: Double, width: Double, height: Double), width: Int, height: Int,
                                       geometry: ThumbnailGeometry) -> Int {
        let output = geometry.storedOutput
        return sum(StreamingAreaResampler.workingBytes(crop: crop, sourceWidth: width, sourceHeight: height,
                                                       outputWidth: output.width, outputHeight: output.height),
                   output.width * output.height * 4)
    }

    /// The most memory libheif or libavif holds decoding a `width × height` image of
    /// `bitDepth`-bit samples: the HEVC decoder's picture and libheif's copy
    /// of it (YCbCr, counted as 4:4:4, the most a file can have), the alpha
    /// plane twice if there is one, the RGBA8 conversion and a row to
    /// premultiply, plus 4 MiB for the decoder's state and the boxes.
    /// About 10 bytes a pixel at 8 bits: 122 MB for a 12-megapixel photo.
    static func wholePictureBytes(width: Int, height: Int, bitDepth: Int, hasAlpha: Bool) -> Int {
        let sample = bitDepth > 8 ? 2 : 1
        let perPixel = 4 + 6 * sample + (hasAlpha ? 2 * sample : 0)
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        let (bytes, overflow2) = pixels.multipliedReportingOverflow(by: perPixel)
        guard !overflow, !overflow2 else { return .max }
        return sum(bytes, width * 4, 4 << 20)
    }

    /// A sum that saturates instead of overflowing (sizes come from headers).
    static func sum(_ values: Int...) -> Int {
        values.reduce(0) { total, value in
            let (result, overflow) = total.addingReportingOverflow(max(value, 0))
            return overflow ? .max : result
        }
    }

    func finish(_ resampled: PixelImage, orientation: ImageOrientation, sourceWidth: Int, sourceHeight: Int,
                        decodedPixelCount: Int, workingBytes: Int) -> DecodedThumbnail {
        let displayed = orientation.displayedSize(width: sourceWidth, height: sourceHeight)
        return DecodedThumbnail(image: orientation.apply(to: resampled), sourceWidth: displayed.width,
                                sourceHeight: displayed.height, decodedPixelCount: decodedPixelCount,
                                workingBytes: workingBytes)
    }

    static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func check(_ status: pk_status, _ message: [CChar]) throws(ImageDecodingError) {
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
