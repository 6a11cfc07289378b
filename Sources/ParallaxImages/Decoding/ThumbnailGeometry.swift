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
    /// Fill crops the centre to the target's aspect ratio (RolfHendriks' UICollectionView-Demo's rule:
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

    /// The `kCGImageSourceThumbnailMaxPixelSize` to ask ImageIO for when
    /// making `size` from a picture *displayed* at `width × height` (after
    /// EXIF orientation): the smallest longest side at which the crop still
    /// has at least the thumbnail's pixels.
    ///
    /// ImageIO's thumbnail path scales the whole picture so that its longest
    /// side is this many pixels, decoding at a reduced scale where the codec
    /// can (JPEG DCT scaling, HEIC tiles), so the full-size picture never
    /// exists in memory. The crop is cut and resampled to the exact size
    /// afterwards, so it must not come out smaller than the thumbnail:
    ///
    ///     scale        = min(1, max(outW / cropW, outH / cropH))
    ///     maxPixelSize = min(max(W, H), ceil(max(W, H) · scale)), at least 1
    ///
    /// Never above the picture's own longest side (ImageIO does not upscale;
    /// a thumbnail larger than the picture is resampled up afterwards).
    /// The geometry is taken with orientation `.up` because ImageIO's
    /// `kCGImageSourceCreateThumbnailWithTransform` has already turned the
    /// thumbnail upright; the longest side does not depend on orientation.
    /// A relative tolerance of 10⁻¹² keeps floating-point noise in the crop
    /// (a few ulps) from pushing an exact integer up to the next one.
    /// Pure, so it is tested on Linux, where ImageIO does not exist.
    static func imageIOMaxPixelSize(width: Int, height: Int, size: ThumbnailSize) -> Int {
        guard width > 0, height > 0 else { return 1 }
        return imageIOMaxPixelSize(width: width, height: height,
                                   geometry: ThumbnailGeometry(width: width, height: height, orientation: .up, size: size))
    }

    /// ``imageIOMaxPixelSize(width:height:size:)`` for any geometry made for
    /// the upright picture (a region's too).
    static func imageIOMaxPixelSize(width: Int, height: Int, geometry: ThumbnailGeometry) -> Int {
        guard width > 0, height > 0 else { return 1 }
        let longestSide = max(width, height)
        let longest = Double(longestSide)
        // One multiplication and one division per side: exact when the
        // crop side is a whole number and the answer is too.
        let needed = max(longest * Double(geometry.storedOutput.width) / geometry.crop.width,
                         longest * Double(geometry.storedOutput.height) / geometry.crop.height)
        guard needed.isFinite, needed < longest else { return longestSide }
        let side = (needed * (1 - 1e-12)).rounded(.up)
        return side >= 1 ? Int(side) : 1
    }

    /// Where the whole picture (of the `width × height` this geometry was
    /// made for) lands in the output, in output pixels with the origin at
    /// the top left, so that the crop exactly fills the `storedOutput`
    /// box: fill draws the picture larger than the box and centred, fit
    /// draws it onto the box. The rectangle does not depend on the size the
    /// picture was decoded at, only on its proportions.
    func placement(ofWidth width: Int, height: Int) -> (x: Double, y: Double, width: Double, height: Double) {
        let scaleX = Double(storedOutput.width) / crop.width
        let scaleY = Double(storedOutput.height) / crop.height
        return (-crop.x * scaleX, -crop.y * scaleY, Double(width) * scaleX, Double(height) * scaleY)
    }
}
