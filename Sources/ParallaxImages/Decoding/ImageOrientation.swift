/// The EXIF orientation of a photo: how the stored pixels must be turned
/// to look right. Cameras store the sensor's rows and record the turn
/// instead of rotating millions of pixels; the pipeline applies it to the
/// small thumbnail, after resampling, where it costs almost nothing.
public enum ImageOrientation: Int, Sendable, Hashable, CaseIterable {
    /// EXIF 1: stored upright; nothing to turn.
    case up = 1
    /// EXIF 2: mirror the stored pixels left to right.
    case upMirrored = 2
    /// EXIF 3: turn the stored pixels 180°.
    case down = 3
    /// EXIF 4: mirror the stored pixels top to bottom.
    case downMirrored = 4
    /// EXIF 5: mirror the stored pixels across the diagonal from the top-left
    /// corner (rows become columns).
    case leftMirrored = 5
    /// EXIF 6: turn the stored pixels 90° clockwise (a phone photo taken
    /// upright, typically).
    case right = 6
    /// EXIF 7: mirror the stored pixels across the diagonal from the
    /// top-right corner.
    case rightMirrored = 7
    /// EXIF 8: turn the stored pixels 90° counterclockwise.
    case left = 8

    /// Whether the displayed image's width is the stored image's height.
    public var swapsWidthAndHeight: Bool { rawValue >= 5 }

    /// The displayed size of a stored `width × height` image.
    public func displayedSize(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsWidthAndHeight ? (height, width) : (width, height)
    }

    /// The stored pixel shown at displayed (`x`, `y`), for a stored image
    /// of `width × height`.
    @inlinable
    public func storedPixel(forDisplayedX x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        switch self {
        case .up: return (x, y)
        case .upMirrored: return (width - 1 - x, y)
        case .down: return (width - 1 - x, height - 1 - y)
        case .downMirrored: return (x, height - 1 - y)
        case .leftMirrored: return (y, x)
        case .right: return (y, height - 1 - x)
        case .rightMirrored: return (width - 1 - y, height - 1 - x)
        case .left: return (width - 1 - y, x)
        }
    }

    /// `image` (stored pixels) as it should be displayed.
    ///
    /// Complexity: O(pixels), one new buffer (none for `.up`).
    public func apply(to image: PixelImage) -> PixelImage {
        guard self != .up else { return image }
        let (width, height) = displayedSize(width: image.width, height: image.height)
        var output = [UInt8](repeating: 0, count: width * height * 4)
        image.pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    for x in 0..<width {
                        let stored = storedPixel(forDisplayedX: x, y: y, width: image.width, height: image.height)
                        let from = (stored.y * image.width + stored.x) * 4
                        let to = (y * width + x) * 4
                        target[to] = source[from]
                        target[to + 1] = source[from + 1]
                        target[to + 2] = source[from + 2]
                        target[to + 3] = source[from + 3]
                    }
                }
            }
        }
        return PixelImage(unchecked: width, height: height, pixels: output)
    }
}
