#if canImport(SwiftUI) && canImport(CoreGraphics) && canImport(ImageIO)    // where `makeCGImage()` exists
import CoreGraphics
import ParallaxHosting
import ParallaxImages
import SwiftUI

/// The `CGImage`s made from the pipeline's pictures for this module's
/// views, kept by picture: SwiftUI makes a view again whenever its parent's
/// body runs, and a `PixelImage` becomes a `CGImage` by copying its pixels,
/// so without this every cell would copy its photo every time its grid or
/// list is rebuilt. At most 48 MB of them (about 130 thumbnails of
/// 300 × 300 px), least recently used dropped first, emptied on
/// ``relieve()``.
///
/// Complexity: a hit is O(1); a miss copies the pixels once.
enum PixelPictures {
    private static let converted = ConvertedImageCache<CGImage>(costLimit: 48 << 20)

    /// `image` as a `CGImage`: the one made earlier for the same pixels,
    /// or a new one; `nil` for an empty image.
    static func cgImage(of image: PixelImage) -> CGImage? {
        converted.picture(of: image, convert: { $0.makeCGImage() }, cost: { $0.bytesPerRow * $0.height })
    }

    /// Forgets every converted picture (the pixels stay in the loader's
    /// memory cache, which its own memory-pressure handling trims).
    static func relieve() {
        converted.removeAll()
    }
}
#endif
