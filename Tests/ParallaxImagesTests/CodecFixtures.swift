// The WebP, HEIF and AVIF decoders exist on Linux only (Apple platforms decode with ImageIO).
#if canImport(CParallaxCodecs)
import Foundation
import Testing
@testable import ParallaxImages

/// The small WebP, HEIF and AVIF files in Tests/Fixtures/codecs, made by
/// scripts/make-codec-fixtures.sh from synthetic pictures: 96 × 64
/// quadrants (red, green / blue, white), the same with alpha rising from 0
/// at the left edge to 255 at the right, and 128 × 128 quadrants for a grid.
enum CodecFixtures {
    static var directory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures").appendingPathComponent("codecs")
    }

    static func data(_ name: String) throws -> Data { try Data(contentsOf: directory.appendingPathComponent(name)) }

    static var all: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    static let red: (UInt8, UInt8, UInt8) = (255, 0, 0)
    static let green: (UInt8, UInt8, UInt8) = (0, 255, 0)
    static let blue: (UInt8, UInt8, UInt8) = (0, 0, 255)
    static let white: (UInt8, UInt8, UInt8) = (255, 255, 255)

    /// The colour at the middle of each quadrant of `image` (top left, top
    /// right, bottom left, bottom right) is `expected` within `tolerance`.
    static func expectQuadrants(_ image: PixelImage, _ expected: [(UInt8, UInt8, UInt8)], tolerance: Int = 12,
                                _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let points = [(image.width / 4, image.height / 4), (image.width * 3 / 4, image.height / 4),
                      (image.width / 4, image.height * 3 / 4), (image.width * 3 / 4, image.height * 3 / 4)]
        for (index, (x, y)) in points.enumerated() {
            guard let pixel = image.pixel(x: x, y: y) else {
                Issue.record("\(what): no pixel at \(x), \(y)", sourceLocation: sourceLocation)
                continue
            }
            let want = expected[index]
            let difference = max(abs(Int(pixel.r) - Int(want.0)), abs(Int(pixel.g) - Int(want.1)), abs(Int(pixel.b) - Int(want.2)))
            #expect(difference <= tolerance && pixel.a == 255,
                    "\(what): quadrant \(index) is \(pixel), expected \(want)", sourceLocation: sourceLocation)
        }
    }

    /// The 96 × 64 quadrant picture, or its alpha twin (premultiplied, as
    /// `(c · a + 127) / 255`), exactly.
    static func quadrantPicture(alpha: Bool) -> PixelImage {
        var pixels: [UInt8] = []
        for y in 0..<64 {
            for x in 0..<96 {
                let colour = [[red, green], [blue, white]][y < 32 ? 0 : 1][x < 48 ? 0 : 1]
                let a = alpha ? x * 255 / 95 : 255
                for channel in [colour.0, colour.1, colour.2] { pixels.append(UInt8((Int(channel) * a + 127) / 255)) }
                pixels.append(UInt8(a))
            }
        }
        return PixelImage(width: 96, height: 64, pixels: pixels)!
    }

    /// The largest difference of any byte between two images of one size.
    static func maximumDifference(_ a: PixelImage, _ b: PixelImage) -> Int {
        guard a.width == b.width, a.height == b.height else { return .max }
        return zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }
}
#endif
