#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxImages

/// A colour, straight (not premultiplied) RGBA.
package struct RGBA: Sendable, Hashable {
    package var r, g, b, a: UInt8
    package init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }
}

/// What the gallery draws with. ``GalleryRenderer`` is written against it;
/// the SDL canvas draws to a window or, with SDL's dummy video driver and
/// software renderer, to memory for headless frames and tests: one drawing
/// path, no second rasteriser.
@MainActor
package protocol GalleryCanvas: AnyObject {
    /// The drawable size in pixels.
    var pixelSize: CGSize { get }
    func clear(_ color: RGBA)
    func fill(_ rect: CGRect, _ color: RGBA)
    /// Draws `image` stretched to `rect` at `opacity` (0…1). `key` lets the
    /// canvas keep the uploaded texture between frames.
    func draw(_ image: PixelImage, key: ThumbnailKey, in rect: CGRect, opacity: Double)
    /// Draws a detail-view picture (a photo at the window's size, a sharp
    /// region of it) as ``draw(_:key:in:opacity:)`` does, its texture kept
    /// apart from the thumbnails': opening a photo never evicts the grid's.
    func drawDetail(_ image: PixelImage, key: ThumbnailKey, in rect: CGRect, opacity: Double)
    /// Whether `image` (thumbnail `key`) has no transparent pixel: drawn at
    /// full opacity it hides whatever is under it, which then need not be
    /// drawn.
    func isOpaque(_ image: PixelImage, key: ThumbnailKey) -> Bool
    /// Draws photo `id`'s preview (a picture a few dozen pixels wide)
    /// filling `rect` (its centre cropped to the rectangle's shape) and
    /// scaled up smoothly, as the photo's thumbnail will fill it.
    func drawPreview(_ image: PixelImage, of id: ImageID, in rect: CGRect)
    /// Whether photo `id`'s preview has no transparent pixel (a ThumbHash
    /// made without alpha): drawn, it hides whatever is under it.
    func isPreviewOpaque(_ image: PixelImage, of id: ImageID) -> Bool
    /// Limits drawing to `rect` (nil: the whole canvas).
    func clip(to rect: CGRect?)
    /// Draws one line of text with its top-left corner at `point`, with a
    /// dark outline for legibility over photos (RolfHendriks' UICollectionView-Demo's outlined titles).
    func drawText(_ text: String, at point: CGPoint, size: Int, color: RGBA, outlined: Bool)
    /// Gets ready to draw text of `sizes` (opens their fonts), so the
    /// first frame that draws such text does not pay for it.
    func prepareText(sizes: [Int])
}

extension GalleryCanvas {
    /// Nothing to get ready, for canvases that keep no fonts.
    package func prepareText(sizes: [Int]) {}

    /// As a thumbnail, for canvases that keep no textures.
    package func drawDetail(_ image: PixelImage, key: ThumbnailKey, in rect: CGRect, opacity: Double) {
        draw(image, key: key, in: rect, opacity: opacity)
    }
}
