#if canImport(ImageIO)
import CoreGraphics
import Foundation
import ImageIO

/// The Apple-platform decoder: ImageIO's thumbnail path, behind the same
/// ``ImageDecoding`` protocol as the Linux `CodecImageDecoder`.
///
/// The header is read first (size limit, EXIF orientation, completeness),
/// then `CGImageSourceCreateThumbnailAtIndex` makes a thumbnail whose longest
/// side is just large enough for the crop to cover the requested size
/// (`ThumbnailGeometry.imageIOMaxPixelSize(width:height:size:)`). ImageIO
/// decodes at a reduced scale where the codec can, so a 12-megapixel photo
/// never exists in memory at full size, and turns the thumbnail upright
/// itself. The crop is then drawn, with high-quality interpolation, into an
/// sRGB bitmap of the exact size and handed back as premultiplied RGBA.
///
/// Every format ImageIO reads is accepted (JPEG, PNG, HEIC, …), not only
/// the two the Linux decoder knows. `progressiveMissingBits` has no ImageIO
/// counterpart and is ignored; with `usesScaledDecoding` off (reference
/// decodes) the picture is decoded at full size before resampling.
public struct ImageIODecoder: ImageDecoding {
    /// The limits and choices every decode follows (`progressiveMissingBits`
    /// is ignored).
    public var options: DecodingOptions

    /// A decoder following `options` (the fast path by default).
    public init(options: DecodingOptions = DecodingOptions()) {
        self.options = options
    }

    /// A thumbnail of `size` from `data` in any format ImageIO reads: the
    /// header checked first (pixel limit, orientation, completeness), then
    /// ImageIO's thumbnail at a reduced scale, cropped or fitted and drawn
    /// at the thumbnail's exact pixel size. Runs on the calling thread.
    ///
    /// - Throws: ``ImageDecodingError``: `empty` for no bytes,
    ///   `unsupportedFormat` for data ImageIO does not read, `tooLarge` past
    ///   the pixel limit, `truncated` for an incomplete file (unless
    ///   ``DecodingOptions/requiresCompleteFile`` is off), `corrupt` when
    ///   ImageIO cannot make the thumbnail.
    public func thumbnail(from data: Data, size: ThumbnailSize) throws(ImageDecodingError) -> DecodedThumbnail {
        try decode(data, target: .thumbnail(size))
    }

    /// `region` of the picture in `data` at its pixel size: ImageIO's
    /// thumbnail just large enough for the region to have its pixels (the
    /// whole picture at full size when zoomed to 1:1), the region drawn from
    /// it. A detail view on an Apple platform would rather tile with
    /// `CGImageSourceCreateImageAtIndex` and `CATiledLayer`; this keeps the
    /// protocol's answer the same on every platform.
    public func image(from data: Data, region: ImageRegion) throws(ImageDecodingError) -> DecodedThumbnail {
        try decode(data, target: .region(region))
    }

    private func decode(_ data: Data, target: DecodeTarget) throws(ImageDecodingError) -> DecodedThumbnail {
        guard !data.isEmpty else { throw .empty }
        let sourceOptions = [kCGImageSourceShouldCache: false] as CFDictionary
        guard let source = CGImageSourceCreateWithData(data as CFData, sourceOptions),
              CGImageSourceGetType(source) != nil, CGImageSourceGetCount(source) > 0 else {
            throw .unsupportedFormat
        }

        // The header: size, limit and orientation, before anything is decoded.
        let header = try Self.header(of: source)
        try options.checkPixelLimit(width: header.width, height: header.height)
        if options.requiresCompleteFile {
            if CGImageSourceGetStatusAtIndex(source, 0) != .statusComplete {
                throw .truncated("ImageIO reports the image incomplete")
            }
            if ImageFormat(sniffing: data) == .jpeg, !ImageFormat.jpegHasEndOfImage(data) {
                throw .truncated("the file ends before its end-of-image marker")
            }
        }

        // The thumbnail, upright, no larger than the crop needs.
        let displayed = header.orientation.displayedSize(width: header.width, height: header.height)
        let geometry = target.geometry(width: displayed.width, height: displayed.height, orientation: .up)
        let maxPixelSize = options.usesScaledDecoding
            ? ThumbnailGeometry.imageIOMaxPixelSize(width: displayed.width, height: displayed.height, geometry: geometry)
            : max(displayed.width, displayed.height)
        let thumbnailOptions: [CFString: Any] = [
            kCGImageSourceCreateThumbnailFromImageAlways: true,
            kCGImageSourceCreateThumbnailWithTransform: true,
            kCGImageSourceShouldCacheImmediately: true,
            kCGImageSourceThumbnailMaxPixelSize: maxPixelSize,
        ]
        guard let thumbnail = CGImageSourceCreateThumbnailAtIndex(source, 0, thumbnailOptions as CFDictionary),
              thumbnail.width > 0, thumbnail.height > 0 else {
            throw .corrupt("ImageIO could not make a thumbnail")
        }

        // The crop, drawn to the exact size.
        let image = try Self.draw(thumbnail, geometry: geometry, displayedWidth: displayed.width,
                                  displayedHeight: displayed.height)
        return DecodedThumbnail(image: image, sourceWidth: displayed.width, sourceHeight: displayed.height,
                                decodedPixelCount: thumbnail.width * thumbnail.height)
    }

    // MARK: Header

    /// The stored size and the orientation of the first image in `source`.
    /// A missing orientation is `.up` (PNGs and many JPEGs have none), and
    /// so is one outside 1...8, as on Linux: a broken EXIF tag must never
    /// cost the picture.
    private static func header(of source: CGImageSource) throws(ImageDecodingError)
        -> (width: Int, height: Int, orientation: ImageOrientation) {
        guard let properties = CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [CFString: Any] else {
            throw .corrupt("ImageIO found no image properties")
        }
        guard let width = (properties[kCGImagePropertyPixelWidth] as? NSNumber)?.intValue,
              let height = (properties[kCGImagePropertyPixelHeight] as? NSNumber)?.intValue else {
            throw .corrupt("the header gives no pixel size")
        }
        let tag = (properties[kCGImagePropertyOrientation] as? NSNumber)?.intValue ?? 1
        return (width, height, ImageOrientation(rawValue: tag) ?? .up)
    }

    // MARK: Drawing

    /// `thumbnail` (the whole picture, upright, at any scale) drawn so that
    /// the geometry's crop fills a bitmap of exactly `storedOutput`:
    /// premultiplied RGBA8, sRGB, rows top to bottom.
    private static func draw(_ thumbnail: CGImage, geometry: ThumbnailGeometry,
                             displayedWidth: Int, displayedHeight: Int) throws(ImageDecodingError) -> PixelImage {
        let width = geometry.storedOutput.width, height = geometry.storedOutput.height
        let bytesPerRow = width * 4
        let placement = geometry.placement(ofWidth: displayedWidth, height: displayedHeight)
        // Core Graphics puts the origin at the bottom left; the bitmap's
        // memory is still top row first.
        let rect = CGRect(x: placement.x, y: Double(height) - placement.y - placement.height,
                          width: placement.width, height: placement.height)
        let space = CGColorSpace(name: CGColorSpace.sRGB) ?? CGColorSpaceCreateDeviceRGB()
        var pixels = [UInt8](repeating: 0, count: bytesPerRow * height)
        let drawn = pixels.withUnsafeMutableBytes { buffer -> Bool in
            guard let context = CGContext(data: buffer.baseAddress, width: width, height: height, bitsPerComponent: 8,
                                          bytesPerRow: bytesPerRow, space: space,
                                          bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue) else {
                return false
            }
            context.interpolationQuality = .high
            context.draw(thumbnail, in: rect)
            return true
        }
        guard drawn, let image = PixelImage(width: width, height: height, pixels: pixels) else {
            throw .outOfMemory
        }
        return image
    }
}
#endif
