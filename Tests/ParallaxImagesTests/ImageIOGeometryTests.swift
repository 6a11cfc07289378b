import Foundation
import ParallaxCore
import Testing
@testable import ParallaxImages

/// The arithmetic behind `ImageIODecoder`, which only builds on Apple
/// platforms: how large a thumbnail to ask ImageIO for, and where to draw
/// it so the crop fills the output.
@Suite("ImageIO thumbnail geometry")
struct ImageIOGeometryTests {
    private func maxPixelSize(_ width: Int, _ height: Int, _ size: ThumbnailSize) -> Int {
        ThumbnailGeometry.imageIOMaxPixelSize(width: width, height: height, size: size)
    }

    @Test func landscapeFillAsksForTheCropAtTheOutputSize() throws {
        // Crop 3000 × 3000, scale 400 / 3000, ceil(4000 · 400 / 3000) = ceil(533.3) = 534.
        let size = try ThumbnailSize(width: 400, height: 400)
        let expected: Int = 534
        #expect(maxPixelSize(4000, 3000, size) == expected)
        // The whole 4000 × 3000 picture drawn at 400 / 3000, centred: the crop fills 400 × 400.
        let placement = ThumbnailGeometry(width: 4000, height: 3000, orientation: .up, size: size)
            .placement(ofWidth: 4000, height: 3000)
        let left: Double = -500.0 * 400.0 / 3000.0, width: Double = 4000.0 * 400.0 / 3000.0, zero: Double = 0, side: Double = 400
        #expect(abs(placement.x - left) < 1e-9)
        #expect(abs(placement.y - zero) < 1e-9)
        #expect(abs(placement.width - width) < 1e-9)
        #expect(abs(placement.height - side) < 1e-9)
    }

    @Test func fitAsksForTheOutputItself() throws {
        // Fit 4000 × 3000 into 400 × 400: 400 × 300, scale exactly 1/10.
        let size = try ThumbnailSize(width: 400, height: 400, mode: .fit)
        let expected: Int = 400
        #expect(maxPixelSize(4000, 3000, size) == expected)
        let placement = ThumbnailGeometry(width: 4000, height: 3000, orientation: .up, size: size)
            .placement(ofWidth: 4000, height: 3000)
        let zero: Double = 0, width: Double = 400, height: Double = 300
        #expect(abs(placement.x - zero) < 1e-9 && abs(placement.y - zero) < 1e-9)
        #expect(abs(placement.width - width) < 1e-9 && abs(placement.height - height) < 1e-9)
    }

    @Test func portraitsUseTheirLongestSide() throws {
        // Crop 3000 × 3000 of a 3000 × 4000 portrait: ceil(4000 · 400 / 3000) = 534.
        let fillSquare: Int = 534
        #expect(maxPixelSize(3000, 4000, try ThumbnailSize(width: 400, height: 400)) == fillSquare)
        // A wide box: crop 3000 × 750 (centred, from y = 1625), both ratios 400 / 3000.
        let wide = try ThumbnailSize(width: 400, height: 100)
        #expect(maxPixelSize(3000, 4000, wide) == fillSquare)
        let placement = ThumbnailGeometry(width: 3000, height: 4000, orientation: .up, size: wide)
            .placement(ofWidth: 3000, height: 4000)
        let top: Double = -1625.0 * 100.0 / 750.0
        #expect(abs(placement.y - top) < 1e-9)
        // Fit 3000 × 4000 into 300 × 200: 150 × 200, so a longest side of 200.
        let fit: Int = 200
        #expect(maxPixelSize(3000, 4000, try ThumbnailSize(width: 300, height: 200, mode: .fit)) == fit)
    }

    @Test func neverAsksForMoreThanThePicture() throws {
        let longest: Int = 300
        #expect(maxPixelSize(300, 200, try ThumbnailSize(width: 400, height: 400)) == longest)
        #expect(maxPixelSize(300, 200, try ThumbnailSize(width: 1000, height: 1000, mode: .fit)) == longest)
        #expect(maxPixelSize(200, 300, try ThumbnailSize(width: 200, height: 300)) == longest)
        let one: Int = 1
        #expect(maxPixelSize(1, 1, try ThumbnailSize(width: 16, height: 16)) == one)
        #expect(maxPixelSize(0, 10, try ThumbnailSize(width: 16, height: 16)) == one)
    }

    /// A thumbnail whose longest side is the answer, scaled proportionally
    /// (sides rounded, as ImageIO does), still has the output's pixels in
    /// the crop; one pixel less on the longest side would not.
    @Test func theCropAlwaysCoversTheOutput() throws {
        var rng = SplitMix64(seed: 1)
        for _ in 0..<5000 {
            let width = Int.random(in: 1...12_000, using: &rng), height = Int.random(in: 1...12_000, using: &rng)
            let size = try ThumbnailSize(width: Int.random(in: 1...1200, using: &rng),
                                         height: Int.random(in: 1...1200, using: &rng),
                                         mode: Bool.random(using: &rng) ? .fill : .fit)
            let answer = maxPixelSize(width, height, size)
            let longest = max(width, height)
            #expect(answer >= 1 && answer <= longest, "\(width) × \(height) → \(size)")

            let geometry = ThumbnailGeometry(width: width, height: height, orientation: .up, size: size)
            let outWidth = Double(geometry.storedOutput.width), outHeight = Double(geometry.storedOutput.height)
            let needsUpscale = geometry.crop.width < outWidth || geometry.crop.height < outHeight
            if needsUpscale {   // ImageIO never upscales: the whole picture, resampled up afterwards
                #expect(answer == longest, "\(width) × \(height) → \(size)")
                continue
            }

            let scale = Double(answer) / Double(longest)
            let thumbWidth = (Double(width) * scale).rounded(), thumbHeight = (Double(height) * scale).rounded()
            let cropWidth = geometry.crop.width * thumbWidth / Double(width)
            let cropHeight = geometry.crop.height * thumbHeight / Double(height)
            let onePixel: Double = 1
            #expect(cropWidth >= outWidth - onePixel && cropHeight >= outHeight - onePixel,
                    "\(width) × \(height) → \(size): crop \(cropWidth) × \(cropHeight) at \(answer)")

            if answer > 1 {
                let smaller = Double(answer - 1) / Double(longest)
                let tolerance: Double = 1e-6
                #expect(geometry.crop.width * smaller < outWidth + tolerance
                            || geometry.crop.height * smaller < outHeight + tolerance,
                        "\(width) × \(height) → \(size): \(answer - 1) would do")
            }
        }
    }
}
