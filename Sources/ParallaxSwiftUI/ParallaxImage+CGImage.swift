#if canImport(SwiftUI)
#if canImport(CoreGraphics)
import CoreGraphics
#endif
import ParallaxCore
import ParallaxImages
import SwiftUI

extension ParallaxImage {
    /// A Core Graphics image that fills the view with parallax.
    ///
    /// - Parameters:
    ///   - cgImage: the picture. It is scaled to fill the content frame, so
    ///     its pixel size sets only its sharpness: decode it at the
    ///     placement's content size times the screen scale.
    ///   - orientation: how to turn the pixels upright.
    ///   - label: what the picture shows, for VoiceOver; `nil` for a purely
    ///     decorative picture.
    ///   - effect: how the picture moves; depth of 30 pt by default.
    ///   - axis: the axis the scroll view scrolls along.
    ///   - intensity: multiplies the motion (1 as designed, 0 none).
    public init(
        _ cgImage: CGImage, orientation: Image.Orientation = .up, label: Text? = nil,
        effect: ParallaxEffect = .default, axis: ScrollAxis = .vertical, intensity: CGFloat = 1
    ) {
        // Scale 1: the view resizes the picture, so the scale never shows.
        let image = label.map { Image(cgImage, scale: 1, orientation: orientation, label: $0) }
            ?? Image(decorative: cgImage, scale: 1, orientation: orientation)
        self.init(image, effect: effect, axis: axis, intensity: intensity)
    }
}

#if canImport(CoreGraphics) && canImport(ImageIO)    // where `makeCGImage()` exists
extension ParallaxImage {
    /// A picture from the ParallaxImages pipeline (an `ImageLoader` result)
    /// that fills the view with parallax.
    ///
    /// The pixels become a `CGImage` once per picture, however often
    /// SwiftUI makes the view again: the conversion is kept by the
    /// picture's identity (its pixel buffer, shared by every copy) in a
    /// bounded cache. Keep the pictures where the pipeline keeps them (its
    /// memory cache) rather than in your model: ``ParallaxLoadedImage``
    /// loads a cell's photo when the cell appears and cancels it when it
    /// leaves, as UIKit's `ParallaxImageView` does. An empty image shows
    /// nothing.
    ///
    /// - Parameters:
    ///   - pixelImage: the decoded picture, already upright (the decoder
    ///     applies the EXIF orientation).
    ///   - label: what the picture shows, for VoiceOver; `nil` for a purely
    ///     decorative picture.
    ///   - effect: how the picture moves; depth of 30 pt by default.
    ///   - axis: the axis the scroll view scrolls along.
    ///   - intensity: multiplies the motion (1 as designed, 0 none).
    public init(
        _ pixelImage: PixelImage, label: Text? = nil,
        effect: ParallaxEffect = .default, axis: ScrollAxis = .vertical, intensity: CGFloat = 1
    ) {
        if let cgImage = PixelPictures.cgImage(of: pixelImage) {
            self.init(cgImage, label: label, effect: effect, axis: axis, intensity: intensity)
        } else {
            self.init(optionalImage: nil, effect: effect, axis: axis, intensity: intensity)
        }
    }

    /// A picture from the pipeline that is still loading, shown as its
    /// `preview` (a ThumbHash from the app's model, such as
    /// `.thumbHash(photo.thumbhash)`) until `pixelImage` is there: the
    /// photo's colours and shapes, soft, instead of an empty frame, as
    /// Apple Photos shows a blurred version first.
    ///
    /// ```swift
    /// ParallaxImage(loaded, preview: .thumbHash(photo.thumbhash))
    ///     .frame(height: 220)
    /// ```
    ///
    /// (``ParallaxLoadedImage`` does this for a photo the pipeline loads.)
    ///
    /// Each preview is rendered once (32 px, tens of microseconds) and
    /// kept for the next time the view is made. Neither: nothing is shown.
    public init(
        _ pixelImage: PixelImage?, preview: ImagePreview?, label: Text? = nil,
        effect: ParallaxEffect = .default, axis: ScrollAxis = .vertical, intensity: CGFloat = 1
    ) {
        if let pixelImage {
            self.init(pixelImage, label: label, effect: effect, axis: axis, intensity: intensity)
        } else {
            let picture = preview?.hash.flatMap(PreviewPictures.picture(of:))
            self.init(optionalImage: picture.map { Image(decorative: $0, scale: 1, orientation: .up) },
                      effect: effect, axis: axis, intensity: intensity)
        }
    }
}

/// Previews rendered for ``ParallaxImage``, kept so that a view made again
/// (SwiftUI remakes views whenever their parent's body runs) does not
/// render its hash again: at most 2 MB of them (about 500), least recently
/// used dropped first.
private enum PreviewPictures {
    private static let rendered = MemoryImageCache(limits: .init(costLimit: 2 << 20))

    static func picture(of hash: ThumbHash) -> CGImage? {
        // Filed under the hash itself: the same hash is the same picture, whichever photo it belongs to.
        guard let size = try? ThumbnailSize(width: PreviewStore.renderedSide, height: PreviewStore.renderedSide, mode: .fit) else {
            return nil
        }
        let key = ThumbnailKey(id: ImageID(hash.base64), size: size)
        if let image = rendered.image(for: key) { return PixelPictures.cgImage(of: image) }
        let image = hash.render(maximumSide: PreviewStore.renderedSide)
        rendered.insert(image, for: key)
        return PixelPictures.cgImage(of: image)
    }
}
#endif
#endif
