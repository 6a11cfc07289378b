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
    /// Each call copies the pixels into a new `CGImage`, and SwiftUI may
    /// rebuild a view every time its parent's body runs. For a list, convert
    /// each picture once when it arrives (`makeCGImage()`), keep the
    /// `CGImage` or `Image` in the model, and use the initializer that takes
    /// it. An empty image shows nothing.
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
        if let cgImage = pixelImage.makeCGImage() {
            self.init(cgImage, label: label, effect: effect, axis: axis, intensity: intensity)
        } else {
            self.init(optionalImage: nil, effect: effect, axis: axis, intensity: intensity)
        }
    }
}
#endif
#endif
