/// The shape of a HEIF or AVIF item as its properties give it: the size in
/// `ispe` (cropped by `clap`), and the turn and flip in `irot` and `imir`
/// as the EXIF orientation that shows the same picture.
///
/// HEIF ignores any EXIF orientation tag: `irot` and `imir` are what a
/// reader applies (libheif does, when decoding), in the order `ipma` lists
/// them. `irot` turns anticlockwise (angle 1 is 90°, EXIF's orientation 8);
/// `imir` mode 0 exchanges top and bottom (EXIF 4), mode 1 left and right
/// (EXIF 2), as ISO/IEC 23008-12:2022 words it and libheif and libavif do
/// (the 2017 edition's "vertical axis" for 0 reads the other way round).
///
/// `ispe` gives the size at its place in that order: the standard puts it
/// before every transformative property (the coded size), but libheif
/// before 1.17 writes `irot` first and the turned size in `ispe`, and
/// decodes such a file to that size. So a turn listed before `ispe` is
/// taken as already in it.
struct HEIFItemProperties: Equatable {
    /// The width as coded, after any clean-aperture crop.
    var width: Int
    /// The height as coded, after any clean-aperture crop.
    var height: Int
    /// The turn and flip, as the EXIF orientation that shows the same picture.
    var orientation: ImageOrientation

    /// The properties of `item`, or why they cannot be had.
    ///
    /// A `grid` item without `ispe` takes its size from its `ImageGrid` data
    /// (output width and height), when that lies in `view`.
    static func of(_ item: Int, in meta: HEIFMetaBox, view: ByteView) -> Result<HEIFItemProperties, ImageDecodingError> {
        var size: (width: Int, height: Int)?
        var orientation = ImageOrientation.up
        var orientationBeforeSize = ImageOrientation.up
        for index in (meta.associations[item] ?? []).prefix(64) {
            guard index >= 1, index <= meta.properties.count else { continue }   // index 0: no property
            let property = meta.properties[index - 1]
            guard let box = view.slice(property.start..<property.end) else { continue }
            let at = property.contentStart
            switch property.type {
            case fourCC("ispe"):
                // A full box: version and flags, then width and height.
                guard let width = box.u32(at + 4), let height = box.u32(at + 8) else {
                    return .failure(.corrupt("a truncated ispe property"))
                }
                size = (width, height)
                orientationBeforeSize = orientation
            case fourCC("clap"):
                if let current = size, let cropped = cleanAperture(box, at: at, width: current.width, height: current.height) {
                    size = cropped
                }
            case fourCC("irot"):
                guard let angle = box.u8(at) else { return .failure(.corrupt("a truncated irot property")) }
                let turn: ImageOrientation = [.up, .left, .down, .right][angle & 3]
                orientation = orientation.followed(by: turn)
            case fourCC("imir"):
                guard let mode = box.u8(at) else { return .failure(.corrupt("a truncated imir property")) }
                orientation = orientation.followed(by: mode & 1 == 0 ? .downMirrored : .upMirrored)
            default:
                continue
            }
        }
        if size == nil, meta.itemTypes[item] == fourCC("grid"), let data = meta.locations[item] {
            size = gridSize(view, data)
        }
        guard var size else { return .failure(.corrupt("the primary image has no size (ispe) property")) }
        if orientationBeforeSize.swapsWidthAndHeight { size = (size.height, size.width) }
        guard size.width > 0, size.height > 0 else {
            return .failure(.corrupt("the primary image's ispe gives an empty size \(size.width) × \(size.height)"))
        }
        return .success(HEIFItemProperties(width: size.width, height: size.height, orientation: orientation))
    }

    /// The output size in an `ImageGrid` item's data: version, flags (bit 0:
    /// 32-bit sizes), rows − 1, columns − 1, width, height.
    private static func gridSize(_ view: ByteView, _ data: Range<Int>) -> (width: Int, height: Int)? {
        guard let grid = view.slice(data), let flags = grid.u8(data.lowerBound + 1) else { return nil }
        let size = flags & 1 == 1 ? 4 : 2
        guard let width = grid.unsigned(data.lowerBound + 4, size: size),
              let height = grid.unsigned(data.lowerBound + 4 + size, size: size) else { return nil }
        return (width, height)
    }

    /// The size a `clap` property crops to: its width and height fractions
    /// rounded, as libheif does, and never larger than the coded size.
    private static func cleanAperture(_ box: ByteView, at: Int, width: Int, height: Int) -> (width: Int, height: Int)? {
        guard let widthN = box.u32(at), let widthD = box.u32(at + 4), let heightN = box.u32(at + 8),
              let heightD = box.u32(at + 12), widthD > 0, heightD > 0 else { return nil }
        let croppedWidth = (widthN + widthD / 2) / widthD, croppedHeight = (heightN + heightD / 2) / heightD
        guard croppedWidth > 0, croppedHeight > 0 else { return nil }
        return (min(croppedWidth, width), min(croppedHeight, height))
    }
}

extension ImageOrientation {
    /// The orientation that shows what this one shows, then turned or
    /// flipped by `next`: how HEIF's `irot` and `imir` combine.
    ///
    /// Found by mapping a 3 × 2 picture's pixels through both and matching
    /// the result against each of the eight orientations: O(1), and plainly
    /// right where a composition table would need checking.
    func followed(by next: ImageOrientation) -> ImageOrientation {
        let width = 3, height = 2
        let middle = displayedSize(width: width, height: height)
        let final = next.displayedSize(width: middle.width, height: middle.height)
        func composed(_ x: Int, _ y: Int) -> (x: Int, y: Int) {
            let inMiddle = next.storedPixel(forDisplayedX: x, y: y, width: middle.width, height: middle.height)
            return storedPixel(forDisplayedX: inMiddle.x, y: inMiddle.y, width: width, height: height)
        }
        return ImageOrientation.allCases.first { candidate in
            candidate.displayedSize(width: width, height: height) == final
                && (0..<final.height).allSatisfy { y in
                    (0..<final.width).allSatisfy { x in
                        candidate.storedPixel(forDisplayedX: x, y: y, width: width, height: height) == composed(x, y)
                    }
                }
        } ?? .up
    }
}
