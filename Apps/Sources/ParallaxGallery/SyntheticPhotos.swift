import Foundation
import ParallaxImages

/// Pictures the gallery draws itself: stand-ins when no photo folder is
/// there, and test patterns whose pixels say where they came from.
package enum SyntheticPhotos {
    /// A colourful landscape-like gradient, different for every `index`
    /// (PNG).
    package static func landscape(index: Int, width: Int, height: Int) -> Data {
        let hue = Double(index * 47 % 360) / 360
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            let t = Double(y) / Double(max(height - 1, 1))
            for x in 0..<width {
                let s = Double(x) / Double(max(width - 1, 1))
                let band = sin(s * 9 + Double(index)) * 0.5 + 0.5
                let horizon = t > 0.55 + 0.08 * sin(s * 5 + Double(index))
                let (r, g, b) = hsv(hue + (horizon ? 0.25 : 0) + 0.1 * band, horizon ? 0.6 : 0.45, horizon ? 0.45 + 0.3 * (1 - t) : 0.95 - 0.5 * t)
                let i = (y * width + x) * 4
                pixels[i] = r; pixels[i + 1] = g; pixels[i + 2] = b
            }
        }
        return PixelImage(width: width, height: height, pixels: pixels)!.pngData() ?? Data()
    }

    /// A test pattern (PNG) whose pixel at row `y` has red `y % 256`, green
    /// `y / 256` and blue `tag`: a rendered frame then tells exactly which
    /// row of which picture is on screen.
    package static func rowPattern(tag: UInt8, width: Int, height: Int) -> Data {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                pixels[i] = UInt8(y % 256); pixels[i + 1] = UInt8(y / 256 % 256); pixels[i + 2] = tag
            }
        }
        return PixelImage(width: width, height: height, pixels: pixels)!.pngData() ?? Data()
    }

    private static func hsv(_ h: Double, _ s: Double, _ v: Double) -> (UInt8, UInt8, UInt8) {
        let hue = (h.truncatingRemainder(dividingBy: 1) + 1).truncatingRemainder(dividingBy: 1) * 6
        let c = v * s, x = c * (1 - abs(hue.truncatingRemainder(dividingBy: 2) - 1)), m = v - c
        let (r, g, b): (Double, Double, Double)
        switch Int(hue) {
        case 0: (r, g, b) = (c, x, 0)
        case 1: (r, g, b) = (x, c, 0)
        case 2: (r, g, b) = (0, c, x)
        case 3: (r, g, b) = (0, x, c)
        case 4: (r, g, b) = (x, 0, c)
        default: (r, g, b) = (c, 0, x)
        }
        return (UInt8((r + m) * 255), UInt8((g + m) * 255), UInt8((b + m) * 255))
    }
}
