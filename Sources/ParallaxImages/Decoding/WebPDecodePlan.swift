import Foundation

/// What libwebp is asked for: a region of whole pixels (starting at even
/// coordinates, as libwebp's cropping requires), the size it scales that
/// region to, and the thumbnail's crop within the scaled output. Pure, so
/// it is tested on its own.
struct WebPDecodePlan: Sendable, Hashable {
    /// The region of the picture libwebp decodes (width 0: the whole picture, uncropped).
    var region: (x: Int, y: Int, width: Int, height: Int)
    var outputWidth: Int
    var outputHeight: Int
    /// The thumbnail's crop, in output pixels.
    var crop: (x: Double, y: Double, width: Double, height: Double)

    static func == (lhs: WebPDecodePlan, rhs: WebPDecodePlan) -> Bool {
        lhs.region == rhs.region && lhs.outputWidth == rhs.outputWidth && lhs.outputHeight == rhs.outputHeight
            && lhs.crop == rhs.crop
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(region.x); hasher.combine(region.y); hasher.combine(region.width); hasher.combine(region.height)
        hasher.combine(outputWidth); hasher.combine(outputHeight)
    }

    /// The whole picture at full size.
    init(wholeOf width: Int, _ height: Int, geometry: ThumbnailGeometry) {
        region = (0, 0, 0, 0)
        outputWidth = width
        outputHeight = height
        crop = geometry.crop
    }

    /// The region around `geometry`'s crop, scaled so that the crop keeps at
    /// least the thumbnail's pixels along each axis (by a factor of at most
    /// 1: libwebp never enlarges it).
    init(width: Int, height: Int, geometry: ThumbnailGeometry) {
        let c = geometry.crop
        let x0 = Int(c.x.rounded(.down)) & ~1, y0 = Int(c.y.rounded(.down)) & ~1
        let x1 = min(width, Int((c.x + c.width).rounded(.up))), y1 = min(height, Int((c.y + c.height).rounded(.up)))
        let regionWidth = max(x1 - x0, 1), regionHeight = max(y1 - y0, 1)
        let scale = min(1, max(Double(geometry.storedOutput.width) / c.width, Double(geometry.storedOutput.height) / c.height))
        // The tolerance keeps floating-point noise (a few ulps) from adding a pixel.
        func scaled(_ length: Int) -> Int { max(Int((Double(length) * scale * (1 - 1e-12)).rounded(.up)), 1) }
        outputWidth = scaled(regionWidth)
        outputHeight = scaled(regionHeight)
        let sx = Double(outputWidth) / Double(regionWidth), sy = Double(outputHeight) / Double(regionHeight)
        crop = ((c.x - Double(x0)) * sx, (c.y - Double(y0)) * sy, c.width * sx, c.height * sy)
        let whole = x0 == 0 && y0 == 0 && regionWidth == width && regionHeight == height
        region = whole ? (0, 0, 0, 0) : (x0, y0, regionWidth, regionHeight)
    }
}
