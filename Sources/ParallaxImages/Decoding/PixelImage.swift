/// A decoded image: premultiplied RGBA, 8 bits per channel, rows packed
/// tightly (`width · 4` bytes each), top row first.
///
/// Premultiplied because that is what compositing wants (SDL, Core
/// Graphics) and what makes area resampling of transparent pixels correct.
/// A value type: the pixels are copy-on-write, so handing an image from the
/// loader to a cell never copies them.
public struct PixelImage: Sendable, Hashable {
    /// The width in pixels (0 or more).
    public let width: Int
    /// The height in pixels (0 or more).
    public let height: Int
    /// `width · height · 4` bytes.
    public internal(set) var pixels: [UInt8]

    /// An image of `width × height` with the given premultiplied RGBA bytes.
    /// Returns `nil` unless `pixels.count == width · height · 4`.
    public init?(width: Int, height: Int, pixels: [UInt8]) {
        guard width >= 0, height >= 0, pixels.count == width * height * 4 else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// An image filled with one premultiplied colour.
    public init(width: Int, height: Int, filledWith rgba: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 255)) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        var pixels = [UInt8](repeating: 0, count: self.width * self.height * 4)
        for index in stride(from: 0, to: pixels.count, by: 4) {
            pixels[index] = rgba.0
            pixels[index + 1] = rgba.1
            pixels[index + 2] = rgba.2
            pixels[index + 3] = rgba.3
        }
        self.pixels = pixels
    }

    /// Internal: wraps bytes already known to be the right size.
    init(unchecked width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The memory the pixels take, the cost a cache charges for the image.
    public var byteCount: Int { pixels.count }

    /// The bytes per row.
    public var bytesPerRow: Int { width * 4 }

    /// The premultiplied RGBA value at (`x`, `y`), or `nil` outside the image.
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8)? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let index = (y * width + x) * 4
        return (pixels[index], pixels[index + 1], pixels[index + 2], pixels[index + 3])
    }
}

#if canImport(CParallaxCodecs)
import CParallaxCodecs
import Foundation

extension PixelImage {
    /// The image as a PNG file (un-premultiplied), for screenshots and
    /// rendered frames; `nil` if encoding failed.
    public func pngData() -> Data? {
        guard width > 0, height > 0 else { return nil }
        var straight = pixels
        for index in stride(from: 0, to: straight.count, by: 4) {
            let alpha = Int(straight[index + 3])
            guard alpha != 255 else { continue }
            for channel in 0..<3 {
                straight[index + channel] = alpha == 0 ? 0 : UInt8(min(255, (Int(straight[index + channel]) * 255 + alpha / 2) / alpha))
            }
        }
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        let status = straight.withUnsafeBufferPointer {
            pk_png_encode_rgba($0.baseAddress, Int32(width), Int32(height), &output, &size)
        }
        guard status == PK_OK, let output else { return nil }
        defer { pk_free(output) }
        return Data(bytes: output, count: size)
    }
}
#endif
