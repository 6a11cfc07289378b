import Foundation

/// Which image of a HEIF file a thumbnail is made from: one of the primary
/// image's thumbnail items, or the primary image itself. Pure, so it is
/// tested on its own.
///
/// A thumbnail item serves when it has the primary image's shape (within
/// 2 % in aspect ratio, so the crop is the same picture) and its crop, for
/// the size asked for, holds at least the thumbnail's pixels along both
/// axes: then nothing is lost by not decoding the full picture. The
/// smallest such item wins.
struct HEIFItemChoice: Sendable, Hashable {
    /// The index of the thumbnail item used, or `nil` for the primary image.
    var thumbnailIndex: Int?
    /// The size of the image decoded (after libheif's transformations).
    var width: Int
    var height: Int

    init(primaryWidth: Int, primaryHeight: Int, thumbnails: [(width: Int, height: Int)], target: DecodeTarget) {
        thumbnailIndex = nil
        width = primaryWidth
        height = primaryHeight
        let aspect = Double(primaryWidth) / Double(max(primaryHeight, 1))
        for (index, thumbnail) in thumbnails.enumerated() where thumbnail.width > 0 && thumbnail.height > 0 {
            let thumbnailAspect = Double(thumbnail.width) / Double(thumbnail.height)
            guard abs(thumbnailAspect / aspect - 1) <= 0.02, thumbnail.width * thumbnail.height < width * height else { continue }
            let geometry = target.geometry(width: thumbnail.width, height: thumbnail.height, orientation: .up)
            guard geometry.crop.width >= Double(geometry.storedOutput.width),
                  geometry.crop.height >= Double(geometry.storedOutput.height) else { continue }
            thumbnailIndex = index
            width = thumbnail.width
            height = thumbnail.height
        }
    }

    /// The choice for a thumbnail of `size`.
    init(primaryWidth: Int, primaryHeight: Int, thumbnails: [(width: Int, height: Int)], size: ThumbnailSize) {
        self.init(primaryWidth: primaryWidth, primaryHeight: primaryHeight, thumbnails: thumbnails, target: .thumbnail(size))
    }
}
