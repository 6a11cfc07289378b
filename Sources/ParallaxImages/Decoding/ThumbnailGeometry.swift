import Foundation

/// The arithmetic of making a thumbnail: which part of the stored image to
/// use, how small the codec may decode it, and the size before orientation.
/// Pure, so it is tested on its own.
struct ThumbnailGeometry: Sendable, Hashable {
    /// The region of the stored image used, in stored pixels (fractional).
    var crop: (x: Double, y: Double, width: Double, height: Double)
    /// The size to resample to, in stored orientation.
    var storedOutput: (width: Int, height: Int)

    static func == (lhs: ThumbnailGeometry, rhs: ThumbnailGeometry) -> Bool {
        lhs.crop == rhs.crop && lhs.storedOutput == rhs.storedOutput
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(crop.x); hasher.combine(crop.y); hasher.combine(crop.width); hasher.combine(crop.height)
        hasher.combine(storedOutput.width); hasher.combine(storedOutput.height)
    }

    /// The geometry for a stored image of `width × height` shown with
    /// `orientation`, made into `size`.
    ///
    /// Fill crops the centre to the target's aspect ratio (seed 003's rule:
    /// when the target is wider than the image, keep the full width and
    /// `height · imageAR / targetAR` of the height, else the full height and
    /// `width · targetAR / imageAR` of the width), without rounding the
    /// crop to whole pixels. Fit keeps the whole image at the largest size
    /// that fits the box, at least one pixel a side.
    init(width: Int, height: Int, orientation: ImageOrientation, size: ThumbnailSize) {
        let boxWidth = orientation.swapsWidthAndHeight ? size.height : size.width
        let boxHeight = orientation.swapsWidthAndHeight ? size.width : size.height
        let w = Double(width), h = Double(height)
        let imageAspect = w / h
        let boxAspect = Double(boxWidth) / Double(boxHeight)
        switch size.mode {
        case .fill:
            if boxAspect > imageAspect {
                let cropHeight = h * imageAspect / boxAspect
                crop = (0, (h - cropHeight) / 2, w, cropHeight)
            } else {
                let cropWidth = w * boxAspect / imageAspect
                crop = ((w - cropWidth) / 2, 0, cropWidth, h)
            }
            storedOutput = (boxWidth, boxHeight)
        case .fit:
            crop = (0, 0, w, h)
            let scale = min(Double(boxWidth) / w, Double(boxHeight) / h)
            storedOutput = (max(Int((w * scale).rounded()), 1), max(Int((h * scale).rounded()), 1))
        }
    }

    /// The largest of 8, 4, 2 and 1 such that decoding at 1/denominator
    /// still leaves at least `storedOutput` pixels in the crop: DCT scaling
    /// throws away only pixels the thumbnail would average away anyway.
    var jpegScaleDenominator: Int {
        for denominator in [8, 4, 2] {
            let d = Double(denominator)
            if crop.width / d >= Double(storedOutput.width), crop.height / d >= Double(storedOutput.height) {
                return denominator
            }
        }
        return 1
    }
}
