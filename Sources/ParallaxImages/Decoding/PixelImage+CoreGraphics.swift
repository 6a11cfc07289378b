#if canImport(CoreGraphics) && canImport(ImageIO)
import CoreGraphics
import Foundation

extension PixelImage {
    /// The image as a `CGImage` (premultiplied RGBA8, sRGB) for UIKit and
    /// SwiftUI to show, over a copy of the pixels; `nil` for an empty image
    /// or if Core Graphics refuses it.
    public func makeCGImage() -> CGImage? {
        guard width > 0, height > 0, let provider = CGDataProvider(data: Data(pixels) as CFData) else { return nil }
        let space = CGColorSpace(name: CGColorSpace.sRGB) ?? CGColorSpaceCreateDeviceRGB()
        return CGImage(width: width, height: height, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: bytesPerRow,
                       space: space, bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedLast.rawValue),
                       provider: provider, decode: nil, shouldInterpolate: true, intent: .defaultIntent)
    }
}
#endif
