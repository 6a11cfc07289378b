#if os(Linux)
import Foundation
import ParallaxImages

/// Peak signal-to-noise ratio of two thumbnails.
enum ImageComparison {
    /// The PSNR of `image` against `reference` over the R, G and B channels
    /// at 8 bits (peak 255), in dB: `10 · log10(255² / MSE)`. Identical
    /// images give `+∞`; images of different sizes give `nil`.
    ///
    /// The pixels are premultiplied RGBA; the photos are opaque, so this is
    /// plain RGB. Alpha is left out, as the issue asks for RGB.
    static func psnr(_ image: PixelImage, reference: PixelImage) -> Double? {
        guard image.width == reference.width, image.height == reference.height,
              image.pixels.count == reference.pixels.count else { return nil }
        guard image.width > 0, image.height > 0 else { return .infinity }
        var squaredError: UInt64 = 0
        image.pixels.withUnsafeBufferPointer { a in
            reference.pixels.withUnsafeBufferPointer { b in
                for index in stride(from: 0, to: a.count, by: 4) {
                    for channel in 0..<3 {
                        let difference = Int(a[index + channel]) - Int(b[index + channel])
                        squaredError &+= UInt64(difference * difference)
                    }
                }
            }
        }
        guard squaredError > 0 else { return .infinity }
        let meanSquaredError = Double(squaredError) / Double(image.width * image.height * 3)
        return 10 * log10(255 * 255 / meanSquaredError)
    }
}
#endif
