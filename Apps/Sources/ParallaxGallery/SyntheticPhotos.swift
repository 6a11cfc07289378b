import Foundation
import ParallaxImages

/// Pictures the gallery draws itself: stand-ins when no photo folder is
/// there, and test patterns whose pixels say where they came from.
package enum SyntheticPhotos {
    /// A colourful landscape-like gradient, different for every `index`
    /// (an uncompressed PNG: ``StoredPNG``).
    ///
    /// Each column's colours are worked out once: its sky and ground hues
    /// and saturations, at full value, and where its horizon lies. The value
    /// falls off linearly down the picture, and a colour's RGB is
    /// proportional to its value at a given hue and saturation, so a pixel
    /// is three multiplications, not two sines and a colour conversion.
    ///
    /// Complexity: O(width × height).
    package static func landscape(index: Int, width: Int, height: Int) -> Data {
        let hue = Double(index * 47 % 360) / 360
        let columns = (0..<width).map { x -> LandscapeColumn in
            let s = Double(x) / Double(max(width - 1, 1))
            let band = sin(s * 9 + Double(index)) * 0.5 + 0.5
            return LandscapeColumn(horizon: 0.55 + 0.08 * sin(s * 5 + Double(index)),
                                   sky: hsv(hue + 0.1 * band, 0.45, 1), ground: hsv(hue + 0.25 + 0.1 * band, 0.6, 1))
        }
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        rgb.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<height {
                let t = Double(y) / Double(max(height - 1, 1))
                let skyValue = (0.95 - 0.5 * t) * 255, groundValue = (0.45 + 0.3 * (1 - t)) * 255
                var i = y * width * 3
                for column in columns {
                    let (colour, value) = t > column.horizon ? (column.ground, groundValue) : (column.sky, skyValue)
                    pixels[i] = UInt8(colour.red * value)
                    pixels[i + 1] = UInt8(colour.green * value)
                    pixels[i + 2] = UInt8(colour.blue * value)
                    i += 3
                }
            }
        }
        return StoredPNG.rgb(rgb, width: width, height: height) ?? Data()
    }

    /// A column of ``landscape(index:width:height:)``: where its horizon lies
    /// (as a fraction of the height) and its colours at full value.
    private struct LandscapeColumn {
        var horizon: Double
        var sky: (red: Double, green: Double, blue: Double)
        var ground: (red: Double, green: Double, blue: Double)
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

    /// Hue, saturation and value (each 0…1, the hue wrapping) as red, green
    /// and blue, each 0…1.
    private static func hsv(_ h: Double, _ s: Double, _ v: Double) -> (red: Double, green: Double, blue: Double) {
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
        return (r + m, g + m, b + m)
    }
}
