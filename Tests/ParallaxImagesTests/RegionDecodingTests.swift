#if canImport(CParallaxCodecs)
import CParallaxCodecs
import Foundation
import ParallaxCore
@testable import ParallaxImages
import Testing

@Suite("Region decoding: a part of a photo at a size, for a zoomed-in detail view")
struct RegionDecodingTests {
    let decoder = CodecImageDecoder(memoryBudget: DecodingMemoryBudget(byteLimit: 1 << 30))

    /// A picture whose every pixel differs from its neighbours, so a region off by one pixel shows.
    static func pattern(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
        (UInt8((x * 7 + y * 3) & 0xFF), UInt8((x * 13 ^ y * 5) & 0xFF), UInt8((x + y * 11) & 0xFF))
    }

    /// The pixels of `image` in the rectangle `x, y, width × height`.
    static func crop(_ image: PixelImage, x: Int, y: Int, width: Int, height: Int) -> PixelImage {
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 4)
        for row in y..<(y + height) {
            let start = (row * image.width + x) * 4
            pixels += image.pixels[start..<(start + width * 4)]
        }
        return PixelImage(width: width, height: height, pixels: pixels)!
    }

    @Test("at 1:1 a JPEG region is exactly the same pixels as the whole decode's, for baseline and progressive files and every orientation")
    func oneToOneMatchesWholeDecode() throws {
        var generator = SplitMix64(seed: 29)
        for progressive in [false, true] {
            for orientation in [1, 3, 6, 8] {
                let jpeg = TestImages.jpeg(width: 333, height: 211, quality: 90, progressive: progressive,
                                           orientation: orientation, Self.pattern)
                let swaps = orientation >= 5
                let displayed = swaps ? (width: 211, height: 333) : (width: 333, height: 211)
                let whole = try decoder.thumbnail(from: jpeg, size: ThumbnailSize(width: displayed.width, height: displayed.height)).image
                #expect(whole.width == displayed.width && whole.height == displayed.height)
                for _ in 0..<6 {
                    let w = Int.random(in: 1...displayed.width, using: &generator)
                    let h = Int.random(in: 1...displayed.height, using: &generator)
                    let x = Int.random(in: 0...(displayed.width - w), using: &generator)
                    let y = Int.random(in: 0...(displayed.height - h), using: &generator)
                    let region = try ImageRegion(x: Double(x) / Double(displayed.width), y: Double(y) / Double(displayed.height),
                                                 width: Double(w) / Double(displayed.width),
                                                 height: Double(h) / Double(displayed.height), pixelWidth: w, pixelHeight: h)
                    let decoded = try decoder.image(from: jpeg, region: region)
                    #expect(decoded.sourceWidth == displayed.width && decoded.sourceHeight == displayed.height)
                    let expected = Self.crop(whole, x: x, y: y, width: w, height: h)
                    #expect(decoded.image == expected, "progressive \(progressive), orientation \(orientation), region \(region)")
                }
            }
        }
    }

    @Test("a region reads only part of a large JPEG: fewer rows and columns than the whole, and the same picture as a crop of a larger decode")
    func readsOnlyThePart() throws {
        let jpeg = TestImages.jpeg(width: 2400, height: 1600, quality: 85) { x, y in (UInt8(x / 10 & 0xFF), UInt8(y / 10 & 0xFF), 90) }
        // The centre quarter, at half its pixels: DCT scale 1/2 covers it.
        let region = try ImageRegion(x: 0.375, y: 0.375, width: 0.25, height: 0.25, pixelWidth: 300, pixelHeight: 200)
        let decoded = try decoder.image(from: jpeg, region: region)
        #expect(decoded.image.width == 300 && decoded.image.height == 200)
        #expect(decoded.sourceWidth == 2400 && decoded.sourceHeight == 1600)
        // At 1/2 scale the picture is 1200 × 800; the quarter and its iMCU columns and rows are far less.
        #expect(decoded.decodedPixelCount < 1200 * 800 / 8)
        // The reference: the whole picture fitted at 1200 × 800, the same quarter of it cut out.
        let whole = try decoder.thumbnail(from: jpeg, size: ThumbnailSize(width: 1200, height: 800, mode: .fit)).image
        let reference = Self.crop(whole, x: 450, y: 300, width: 300, height: 200)
        #expect(CodecFixtures.maximumDifference(decoded.image, reference) <= 2)
        // The default (whole-picture) implementation of the protocol gives the same picture.
        let fallback = try PlainDecoder(base: decoder).image(from: jpeg, region: region)
        #expect(CodecFixtures.maximumDifference(decoded.image, fallback.image) <= 2)
    }

    @Test("PNG, WebP and the protocol's default: a region at 1:1 is the whole decode's pixels")
    func otherFormats() throws {
        var rgba = [UInt8]()
        for y in 0..<120 { for x in 0..<160 { let p = Self.pattern(x, y); rgba += [p.0, p.1, p.2, 255] } }
        let png = TestImages.png(width: 160, height: 120, rgba: rgba)
        let region = try ImageRegion(x: 0.25, y: 0.5, width: 0.5, height: 0.25, pixelWidth: 80, pixelHeight: 30)
        let decoded = try decoder.image(from: png, region: region)
        let whole = try decoder.thumbnail(from: png, size: ThumbnailSize(width: 160, height: 120)).image
        #expect(decoded.image == Self.crop(whole, x: 40, y: 60, width: 80, height: 30))
        let fallback = try PlainDecoder(base: decoder).image(from: png, region: region)
        #expect(fallback.image == decoded.image)

        // WebP: libwebp crops to the region itself (only its pixels are converted). Its lossy decoder
        // filters and upsamples chroma across the crop's edges differently, so the region's inside (two
        // pixels in) is compared with a whole decode's.
        let webp = try CodecFixtures.data("quad.webp")
        let quarter = try ImageRegion(x: 0.5, y: 0, width: 0.5, height: 0.5, pixelWidth: 48, pixelHeight: 32)
        let part = try decoder.image(from: webp, region: quarter)
        let wholeWebP = try decoder.thumbnail(from: webp, size: ThumbnailSize(width: 96, height: 64)).image
        let inside = Self.crop(part.image, x: 2, y: 2, width: 44, height: 28)
        #expect(CodecFixtures.maximumDifference(inside, Self.crop(wholeWebP, x: 50, y: 2, width: 44, height: 28)) <= 3)
        #expect(part.decodedPixelCount == 48 * 32)
        CodecFixtures.expectQuadrants(part.image, Array(repeating: CodecFixtures.green, count: 4), "quad.webp, top right")
    }

    @Test("regions outside the picture, empty or of impossible sizes are refused with the values asked")
    func badRegions() {
        #expect(throws: ImageRegionError.self) { try ImageRegion(x: 0.5, y: 0, width: 0.6, height: 1, pixelWidth: 10, pixelHeight: 10) }
        #expect(throws: ImageRegionError.self) { try ImageRegion(x: 0, y: 0, width: 0, height: 1, pixelWidth: 10, pixelHeight: 10) }
        #expect(throws: ImageRegionError.self) { try ImageRegion(x: .nan, y: 0, width: 1, height: 1, pixelWidth: 10, pixelHeight: 10) }
        #expect(throws: ImageRegionError.self) { try ImageRegion(x: 0, y: 0, width: 1, height: 1, pixelWidth: 0, pixelHeight: 10) }
        #expect(throws: ImageRegionError.self) {
            try ImageRegion(x: 0, y: 0, width: 1, height: 1, pixelWidth: 10, pixelHeight: ThumbnailSize.maximumSide + 1)
        }
        let error = ImageRegionError(x: 0.5, y: 0, width: 0.6, height: 1, pixelWidth: 10, pixelHeight: 10)
        #expect(error.description.contains("(0.5, 0.0) 0.6 × 1.0 at 10 × 10 pixels"))
        // A few ulps past the edge (fractions of pixel rectangles) are accepted and clamped.
        let edge = try? ImageRegion(x: 0.7, y: 0, width: 0.3 + 1e-12, height: 1, pixelWidth: 3, pixelHeight: 10)
        #expect(edge.map { $0.x + $0.width <= 1 } == true)
    }

    @Test("the stored rectangle of a region for every orientation matches the displayed-to-stored pixel map")
    func orientationMapping() throws {
        let width = 40, height = 30
        var generator = SplitMix64(seed: 5)
        for orientation in ImageOrientation.allCases {
            let displayed = orientation.displayedSize(width: width, height: height)
            for _ in 0..<20 {
                let w = Int.random(in: 1...displayed.width, using: &generator), h = Int.random(in: 1...displayed.height, using: &generator)
                let x = Int.random(in: 0...(displayed.width - w), using: &generator)
                let y = Int.random(in: 0...(displayed.height - h), using: &generator)
                let region = try ImageRegion(x: Double(x) / Double(displayed.width), y: Double(y) / Double(displayed.height),
                                             width: Double(w) / Double(displayed.width), height: Double(h) / Double(displayed.height),
                                             pixelWidth: w, pixelHeight: h)
                let stored = region.stored(for: orientation)
                // The stored pixels of the region's corners lie inside the stored rectangle.
                for (cx, cy) in [(x, y), (x + w - 1, y), (x, y + h - 1), (x + w - 1, y + h - 1)] {
                    let p = orientation.storedPixel(forDisplayedX: cx, y: cy, width: width, height: height)
                    let sx = (Double(p.x) + 0.5) / Double(width), sy = (Double(p.y) + 0.5) / Double(height)
                    #expect(sx > stored.x && sx < stored.x + stored.width && sy > stored.y && sy < stored.y + stored.height)
                }
                #expect(abs(stored.width * stored.height * Double(width * height) - Double(w * h)) < 1e-6)
            }
        }
    }
}

/// A decoder that only makes thumbnails: regions come from the protocol's default.
private struct PlainDecoder: ImageDecoding {
    var base: CodecImageDecoder
    func thumbnail(from data: Data, size: ThumbnailSize) throws(ImageDecodingError) -> DecodedThumbnail {
        try base.thumbnail(from: data, size: size)
    }
}
#endif
