import Foundation

/// A thumbnail and what it took to make it.
public struct DecodedThumbnail: Sendable, Hashable {
    /// The thumbnail, oriented for display.
    public var image: PixelImage
    /// The full picture's displayed size (after EXIF orientation).
    public var sourceWidth: Int
    /// The full picture's displayed height, in pixels (after EXIF
    /// orientation).
    public var sourceHeight: Int
    /// How many pixels the codec actually produced (after DCT scaling):
    /// the work the decode cost. They streamed through one row at a time.
    public var decodedPixelCount: Int
    /// The most memory the decode held at once, in bytes, as budgeted from
    /// the header (``DecodingOptions/maximumDecodeBytes``); 0 when the
    /// decoder does not say (ImageIO manages its own).
    public var workingBytes: Int

    /// A thumbnail `image` made from a picture shown `sourceWidth ×
    /// sourceHeight` pixels, with the pixels the codec produced and the most
    /// memory the decode held (0, the default, when not known). Values are
    /// stored as given; decoders make these.
    public init(image: PixelImage, sourceWidth: Int, sourceHeight: Int, decodedPixelCount: Int, workingBytes: Int = 0) {
        self.image = image
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.decodedPixelCount = decodedPixelCount
        self.workingBytes = workingBytes
    }
}

/// Settings shared by every decoder.
public struct DecodingOptions: Sendable, Hashable {
    /// The most pixels a picture may have. A header claiming more fails
    /// with ``ImageDecodingError/tooLarge(width:height:limit:)`` before
    /// anything of that size is allocated (decompression bombs). The default,
    /// 200 million, admits any camera photo.
    public var maximumPixelCount: Int
    /// Let the codec decode at 1/2, 1/4 or 1/8 scale when the thumbnail is
    /// that much smaller (JPEG DCT scaling). Turn off only for reference
    /// decodes.
    public var usesScaledDecoding: Bool
    /// For progressive JPEGs: stop reading scans once every coefficient the
    /// scaled decode uses has arrived with at most this many low-order bits
    /// missing; `nil` reads every scan. One bit (the default) is invisible
    /// in a thumbnail and, at 1/8 scale, means the first DC scan is enough.
    public var progressiveMissingBits: Int?

    /// Refuse a JPEG whose end-of-image marker is missing, even when the
    /// scans a thumbnail needs all arrived. A progressive file cut short
    /// can still give a perfect thumbnail (that is what progressive files
    /// are for), but a truncated file is reported, not half trusted; turn
    /// this off to show partial downloads.
    public var requiresCompleteFile: Bool
    /// Interpolate a JPEG's subsampled chroma (as djpeg, Pillow and
    /// browsers do) rather than replicate it. Off by default: a thumbnail
    /// is area resampled from a much larger decode, which averages the
    /// chroma anyway; on in ``reference``.
    public var usesSmoothUpsampling: Bool
    /// The most memory one decode may hold at once, in bytes: the codec's
    /// own buffers (a progressive JPEG keeps every DCT coefficient, 128
    /// bytes per 8 × 8 block, whatever the output scale), one row of source
    /// pixels and the thumbnail. Worked out from the header before anything
    /// is allocated; a decode that would need more fails with
    /// ``ImageDecodingError/overBudget(needed:budget:)``. The default,
    /// 256 MiB, decodes a progressive JPEG of about 85 megapixels and a
    /// baseline JPEG or PNG of any size the pixel limit admits; a full-size
    /// (unscaled, uncropped) decode needs 4 bytes per pixel on top.
    public var maximumDecodeBytes: Int
    /// The most scans a progressive JPEG may have. Encoders write about 10;
    /// a file of thousands of tiny scans would only burn time. Default 1,000.
    public var maximumScanCount: Int

    /// Options for every decode. The defaults are the fast path: at most 200
    /// million pixels, scaled decoding, progressive scans stopped once at most
    /// one low-order bit is missing, complete files required, replicated
    /// chroma, 256 MiB per decode and 1,000 scans. Values are stored as
    /// given; a pixel limit below 1 counts as 1.
    public init(maximumPixelCount: Int = 200_000_000, usesScaledDecoding: Bool = true, progressiveMissingBits: Int? = 1,
                requiresCompleteFile: Bool = true, usesSmoothUpsampling: Bool = false,
                maximumDecodeBytes: Int = 256 << 20, maximumScanCount: Int = 1_000) {
        self.maximumPixelCount = maximumPixelCount
        self.usesScaledDecoding = usesScaledDecoding
        self.progressiveMissingBits = progressiveMissingBits
        self.requiresCompleteFile = requiresCompleteFile
        self.usesSmoothUpsampling = usesSmoothUpsampling
        self.maximumDecodeBytes = maximumDecodeBytes
        self.maximumScanCount = maximumScanCount
    }

    /// A full-resolution decode of every scan with smooth chroma, then area
    /// resampling: the quality reference the fast path is measured against.
    public static let reference = DecodingOptions(usesScaledDecoding: false, progressiveMissingBits: nil,
                                                  usesSmoothUpsampling: true)

    /// Checks a header's size against ``maximumPixelCount`` before anything
    /// of that size is allocated; every decoder calls it.
    /// - Throws: `.corrupt` for an empty size, `.tooLarge` over the limit
    ///   (overflow included).
    func checkPixelLimit(width: Int, height: Int) throws(ImageDecodingError) {
        guard width > 0, height > 0 else { throw .corrupt("the header gives an empty size \(width) × \(height)") }
        let limit = max(maximumPixelCount, 1)
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || pixels > limit { throw .tooLarge(width: width, height: height, limit: limit) }
    }
}

/// Turns encoded bytes into a thumbnail of an exact size: the decode and
/// process stages of the pipeline.
///
/// On Linux, ``CodecImageDecoder`` (libjpeg-turbo, libpng, libwebp, libheif
/// and libavif); on Apple platforms `ImageIODecoder` (ImageIO's thumbnail
/// path) drops in behind the same protocol.
/// Implementations are value types, safe to call from any thread at once.
public protocol ImageDecoding: Sendable {
    /// A thumbnail of `size` from `data`.
    /// - Throws: ``ImageDecodingError`` for every kind of bad input.
    func thumbnail(from data: Data, size: ThumbnailSize) throws(ImageDecodingError) -> DecodedThumbnail
    /// The thumbnail the picture in `data` carries as an image of its own
    /// (a HEIF thumbnail item, as phones write one of about 320 pixels),
    /// decoded upright at its own size: never the full picture. `nil` when
    /// it has none (the default, for decoders that do not read them).
    func embeddedThumbnail(in data: Data) throws(ImageDecodingError) -> PixelImage?
    /// `region` of the picture in `data`, upright, at its pixel size: what a
    /// zoomed-in detail view shows. Decoders read only what the region
    /// needs where their codec allows it. The default makes it from a `fit`
    /// thumbnail of the whole picture large enough for the region to have
    /// its pixels, under the same limits, then cuts the region out.
    func image(from data: Data, region: ImageRegion) throws(ImageDecodingError) -> DecodedThumbnail
}

extension ImageDecoding {
    /// None: this decoder does not read embedded thumbnails.
    public func embeddedThumbnail(in data: Data) throws(ImageDecodingError) -> PixelImage? { nil }

    /// The region cut from a `fit` thumbnail of the whole picture at the
    /// size that gives the region its pixels (capped at the largest
    /// thumbnail side).
    public func image(from data: Data, region: ImageRegion) throws(ImageDecodingError) -> DecodedThumbnail {
        let side = { (pixels: Int, fraction: Double) in min(Int((Double(pixels) / fraction).rounded(.up)), ThumbnailSize.maximumSide) }
        let size: ThumbnailSize
        do {
            size = try ThumbnailSize(width: side(region.pixelWidth, region.width), height: side(region.pixelHeight, region.height),
                                     mode: .fit)
        } catch {
            throw .tooLarge(width: side(region.pixelWidth, region.width), height: side(region.pixelHeight, region.height),
                            limit: ThumbnailSize.maximumSide * ThumbnailSize.maximumSide)
        }
        let whole = try thumbnail(from: data, size: size)
        let image = whole.image
        let crop = (region.x * Double(image.width), region.y * Double(image.height),
                    max(region.width * Double(image.width), 1e-9), max(region.height * Double(image.height), 1e-9))
        let resampler = StreamingAreaResampler(sourceWidth: image.width, sourceHeight: image.height, crop: crop,
                                               outputWidth: region.pixelWidth, outputHeight: region.pixelHeight)
        image.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<image.height {
                guard let row = pixels.baseAddress?.advanced(by: y * image.width * 4),
                      !resampler.consume(y: y, x0: 0, dx: 1, count: image.width, pixels: row) else { break }
            }
        }
        return DecodedThumbnail(image: resampler.finish(), sourceWidth: whole.sourceWidth, sourceHeight: whole.sourceHeight,
                                decodedPixelCount: whole.decodedPixelCount, workingBytes: whole.workingBytes)
    }
}

/// The image formats the pipeline recognises by their first bytes.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    /// JPEG (files starting `FF D8 FF`) and PNG (the 8-byte PNG signature).
    case jpeg, png
    /// HEIF, the HEVC-coded photos of phones (iPhone's default since iOS 11):
    /// an ISO base media file whose `ftyp` box names a HEIF brand (`heic`,
    /// `heix`, `mif1`, …).
    case heif
    /// AVIF: the same container as HEIF with AV1-coded images (`ftyp` brand
    /// `avif` or `avis`).
    case avif
    /// WebP: a RIFF file of form type `WEBP` (lossy, lossless, alpha).
    case webp

    /// Whether a JPEG's end-of-image marker (FF D9) is in its last 4 KiB:
    /// entropy-coded data never contains FF D9 (a data FF is always followed
    /// by 00), and writers may leave a little padding after the marker.
    /// Every decoder uses this for ``DecodingOptions/requiresCompleteFile``.
    static func jpegHasEndOfImage(_ bytes: some BidirectionalCollection<UInt8>) -> Bool {
        var previous: UInt8?
        for byte in bytes.suffix(4096).reversed() {
            if byte == 0xFF, previous == 0xD9 { return true }
            previous = byte
        }
        return false
    }

    /// The format of `data`, or `nil` for anything else. HEIF and AVIF are
    /// told apart by the brands of their `ftyp` box, which is always first
    /// and rarely longer than 40 bytes; a prefix that ends inside it is
    /// sniffed by the brands it holds.
    ///
    /// Complexity: O(1): at most the first 256 bytes are read.
    public init?(sniffing data: Data) {
        let signature = data.prefix(12)
        if signature.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if signature.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if signature.count == 12, signature.starts(with: Array("RIFF".utf8)),
                  signature.dropFirst(8).elementsEqual("WEBP".utf8) {
            self = .webp
        } else if let format = Self.isoBrandFormat(data) {
            self = format
        } else {
            return nil
        }
    }

    /// HEIF or AVIF by the brands of the `ftyp` box that opens an ISO base
    /// media file: AVIF when any brand is `avif`/`avis`, HEIF when any is a
    /// HEIF brand, `nil` otherwise (an MP4 video, a QuickTime movie).
    private static func isoBrandFormat(_ data: Data) -> ImageFormat? {
        let bytes = Array(data.prefix(256))
        guard bytes.count >= 12, bytes[4] == 0x66, bytes[5] == 0x74, bytes[6] == 0x79, bytes[7] == 0x70 else { return nil }
        let boxSize = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        guard boxSize >= 16 else { return nil }
        let end = min(boxSize, bytes.count)
        // The major brand at 8, the minor version at 12, compatible brands from 16 on.
        var brands: [String] = [String(decoding: bytes[8..<12], as: UTF8.self)]
        var offset = 16
        while offset + 4 <= end {
            brands.append(String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self))
            offset += 4
        }
        if brands.contains(where: { $0 == "avif" || $0 == "avis" }) { return .avif }
        if brands.contains(where: heifBrands.contains) { return .heif }
        return nil
    }

    /// The `ftyp` brands of HEIF images and image sequences (ISO/IEC 23008-12).
    private static let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs", "mif1", "msf1"]
}

#if canImport(ImageIO)
/// The decoder for this platform: ImageIO's thumbnail path on Apple
/// platforms; the codecs of ``CodecImageDecoder`` elsewhere. ``ImageLoader`` uses it
/// unless given another.
public typealias PlatformImageDecoder = ImageIODecoder
#elseif canImport(CParallaxCodecs)
/// The decoder for this platform: ImageIO's thumbnail path on Apple
/// platforms; the codecs of ``CodecImageDecoder`` elsewhere. ``ImageLoader`` uses it
/// unless given another.
public typealias PlatformImageDecoder = CodecImageDecoder
#endif
