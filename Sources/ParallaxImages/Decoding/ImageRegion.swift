import Foundation

/// A part of a picture, decoded at a pixel size: what a zoomed-in detail
/// view shows, sharp, without decoding the rest of the photo at that
/// resolution.
///
/// The part is given as fractions of the picture as displayed (upright,
/// after EXIF orientation), so it does not depend on the size the codec
/// decodes at. The decoder reads only what the region needs where the
/// codec allows it (a JPEG's iMCU columns around it and the rows down to
/// it, at the smallest DCT scale that still gives the region its pixels; a
/// WebP's crop) and the whole picture otherwise, always under the memory
/// budget of ``DecodingOptions/maximumDecodeBytes``.
public struct ImageRegion: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The region's left edge, as a fraction of the displayed width (0…1).
    public let x: Double
    /// The region's top edge, as a fraction of the displayed height (0…1).
    public let y: Double
    /// The region's width, as a fraction of the displayed width (0…1].
    public let width: Double
    /// The region's height, as a fraction of the displayed height (0…1].
    public let height: Double
    /// The decoded image's width in pixels.
    public let pixelWidth: Int
    /// The decoded image's height in pixels.
    public let pixelHeight: Int

    /// The part `x, y, width × height` of the displayed picture (fractions
    /// of its width and height), decoded to `pixelWidth × pixelHeight`
    /// (stretched if the shapes differ: ask for the region's own shape).
    /// - Throws: ``ImageRegionError`` for a region outside the picture or
    ///   empty, and for a pixel size a thumbnail could not have.
    public init(x: Double, y: Double, width: Double, height: Double,
                pixelWidth: Int, pixelHeight: Int) throws(ImageRegionError) {
        let values = [x, y, width, height]
        // A few ulps of slack: fractions computed from pixel rectangles.
        let tolerance = 1e-9
        guard values.allSatisfy(\.isFinite), x >= -tolerance, y >= -tolerance, width > 0, height > 0,
              x + width <= 1 + tolerance, y + height <= 1 + tolerance,
              (1...ThumbnailSize.maximumSide).contains(pixelWidth), (1...ThumbnailSize.maximumSide).contains(pixelHeight) else {
            throw ImageRegionError(x: x, y: y, width: width, height: height, pixelWidth: pixelWidth, pixelHeight: pixelHeight)
        }
        self.x = max(x, 0)
        self.y = max(y, 0)
        self.width = min(width, 1 - self.x)
        self.height = min(height, 1 - self.y)
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
    }

    /// The region in the picture's stored orientation (before EXIF
    /// orientation turns it upright), as fractions of the stored width
    /// and height.
    func stored(for orientation: ImageOrientation) -> (x: Double, y: Double, width: Double, height: Double) {
        // The displayed unit square's point (u, v) shows the stored point `map(u, v)`.
        func map(_ u: Double, _ v: Double) -> (Double, Double) {
            switch orientation {
            case .up: return (u, v)
            case .upMirrored: return (1 - u, v)
            case .down: return (1 - u, 1 - v)
            case .downMirrored: return (u, 1 - v)
            case .leftMirrored: return (v, u)
            case .right: return (v, 1 - u)
            case .rightMirrored: return (1 - v, 1 - u)
            case .left: return (1 - v, u)
            }
        }
        let a = map(x, y), b = map(x + width, y + height)
        return (min(a.0, b.0), min(a.1, b.1), abs(b.0 - a.0), abs(b.1 - a.1))
    }

    /// The region and size, as in `(0.25, 0.5) 0.5×0.25 → 1280×800`.
    public var description: String { "(\(x), \(y)) \(width)×\(height) → \(pixelWidth)×\(pixelHeight)" }
}

/// A region that cannot be decoded: outside the picture, empty, not a
/// number, or a pixel size outside `1...ThumbnailSize.maximumSide`. The
/// values are kept as asked, so the message shows them.
public struct ImageRegionError: Error, Sendable, Equatable, CustomStringConvertible {
    public var x, y, width, height: Double
    public var pixelWidth, pixelHeight: Int

    /// Says which region was asked for and what is allowed.
    public var description: String {
        "the region (\(x), \(y)) \(width) × \(height) at \(pixelWidth) × \(pixelHeight) pixels cannot be decoded "
            + "(it must lie within the picture, 0…1 on each axis, and each side must be 1 to \(ThumbnailSize.maximumSide) pixels)"
    }
}

/// What a decode makes: a thumbnail fitted into a box, or a region at a
/// size. Both come down to a ``ThumbnailGeometry`` once the picture's
/// stored size and orientation are known.
enum DecodeTarget: Sendable, Hashable {
    case thumbnail(ThumbnailSize)
    case region(ImageRegion)

    /// The geometry for a stored `width × height` picture shown with `orientation`.
    func geometry(width: Int, height: Int, orientation: ImageOrientation) -> ThumbnailGeometry {
        switch self {
        case .thumbnail(let size): return ThumbnailGeometry(width: width, height: height, orientation: orientation, size: size)
        case .region(let region): return ThumbnailGeometry(width: width, height: height, orientation: orientation, region: region)
        }
    }
}

extension ThumbnailGeometry {
    /// The geometry of `region` of a stored `width × height` picture shown
    /// with `orientation`: the region's stored rectangle in stored pixels,
    /// resampled to its pixel size (sides swapped for a turned picture).
    init(width: Int, height: Int, orientation: ImageOrientation, region: ImageRegion) {
        let stored = region.stored(for: orientation)
        let w = Double(width), h = Double(height)
        crop = (stored.x * w, stored.y * h, max(stored.width * w, 1e-9), max(stored.height * h, 1e-9))
        storedOutput = orientation.swapsWidthAndHeight ? (region.pixelHeight, region.pixelWidth)
                                                       : (region.pixelWidth, region.pixelHeight)
    }
}
