import Foundation
import ParallaxImages
import Testing
@testable import ParallaxGallery

/// An APNG read back as a viewer reads it: chunks and their CRCs, the
/// sequence numbers, each frame's rectangle and delay, and the canvas after
/// each frame, composited from the frames' pixels decoded by the project's
/// own PNG decoder.
struct APNGReading {
    struct Frame {
        var x: Int, y: Int, width: Int, height: Int
        var delay: Double
        var dispose: UInt8, blend: UInt8
        var stream = Data()
    }

    var width = 0, height = 0
    var declaredFrames = 0
    var header = Data()
    var frames: [Frame] = []
    /// The sequence numbers of `fcTL` and `fdAT` chunks, in file order.
    var sequence: [UInt32] = []

    init(_ file: Data) throws {
        let bytes = [UInt8](file)
        try #require(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        var offset = 8
        var types: [String] = []
        while offset < bytes.count {
            try #require(offset + 12 <= bytes.count, "a chunk cut short at \(offset)")
            let length = Int(Self.be32(bytes, offset))
            try #require(offset + 12 + length <= bytes.count)
            let typed = Data(bytes[(offset + 4)..<(offset + 8 + length)])
            let type = String(decoding: typed.prefix(4), as: UTF8.self)
            let data = [UInt8](typed.dropFirst(4))
            #expect(Self.be32(bytes, offset + 8 + length) == PNGChunk.crc32(typed), "the CRC of \(type)")
            types.append(type)
            switch type {
            case "IHDR":
                header = Data(data)
                width = Int(Self.be32(data, 0))
                height = Int(Self.be32(data, 4))
            case "acTL":
                declaredFrames = Int(Self.be32(data, 0))
            case "fcTL":
                sequence.append(Self.be32(data, 0))
                let denominator = Double(Int(data[22]) << 8 | Int(data[23]))
                frames.append(Frame(x: Int(Self.be32(data, 12)), y: Int(Self.be32(data, 16)),
                                    width: Int(Self.be32(data, 4)), height: Int(Self.be32(data, 8)),
                                    delay: Double(Int(data[20]) << 8 | Int(data[21])) / (denominator == 0 ? 100 : denominator),
                                    dispose: data[24], blend: data[25]))
            case "IDAT":
                try #require(frames.count == 1, "the first frame's fcTL comes before IDAT")
                frames[0].stream += Data(data)
            case "fdAT":
                sequence.append(Self.be32(data, 0))
                try #require(frames.count > 1)
                frames[frames.count - 1].stream += Data(data.dropFirst(4))
            default:
                break
            }
            offset += 12 + length
        }
        #expect(types.first == "IHDR" && types.last == "IEND")
        #expect(types.firstIndex(of: "acTL")! < types.firstIndex(of: "IDAT")!)
    }

    /// The canvas after each frame, as a viewer shows it.
    func canvases() throws -> [PixelImage] {
        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        var shown: [PixelImage] = []
        for frame in frames {
            // The frame's pixels as a PNG of their own: the file's header at the frame's size, its data as IDAT.
            var ihdr = header
            ihdr.replaceSubrange(0..<8, with: Self.be32Data(UInt32(frame.width)) + Self.be32Data(UInt32(frame.height)))
            var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            for (type, data) in [("IHDR", ihdr), ("IDAT", frame.stream), ("IEND", Data())] {
                let typed = Data(type.utf8) + data
                png += Self.be32Data(UInt32(data.count)) + typed + Self.be32Data(PNGChunk.crc32(typed))
            }
            let pixels = try CodecImageDecoder().thumbnail(from: png, size: ThumbnailSize(width: frame.width, height: frame.height)).image
            #expect(pixels.width == frame.width && pixels.height == frame.height)
            for row in 0..<frame.height {
                let from = row * frame.width * 4, to = ((frame.y + row) * width + frame.x) * 4
                canvas.replaceSubrange(to..<(to + frame.width * 4), with: pixels.pixels[from..<(from + frame.width * 4)])
            }
            shown.append(try #require(PixelImage(width: width, height: height, pixels: canvas)))
        }
        return shown
    }

    static func be32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    static func be32Data(_ value: UInt32) -> Data {
        Data([UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }
}

@Suite("Animated PNG")
struct AnimatedPNGTests {
    /// An opaque picture whose every pixel differs from its neighbours.
    static func picture(width: Int, height: Int, tag: UInt8) -> PixelImage {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let index = (y * width + x) * 4
                pixels[index] = UInt8(truncatingIfNeeded: x * 7 + y * 3) &+ tag
                pixels[index + 1] = UInt8(truncatingIfNeeded: y * 11) ^ tag
                pixels[index + 2] = UInt8(truncatingIfNeeded: x * y)
            }
        }
        return PixelImage(width: width, height: height, pixels: pixels)!
    }

    static func painted(_ image: PixelImage, x: Int, y: Int, width: Int, height: Int, rgb: (UInt8, UInt8, UInt8)) -> PixelImage {
        var pixels = image.pixels
        for row in y..<(y + height) {
            for column in x..<(x + width) {
                let index = (row * image.width + column) * 4
                (pixels[index], pixels[index + 1], pixels[index + 2], pixels[index + 3]) = (rgb.0, rgb.1, rgb.2, 255)
            }
        }
        return PixelImage(width: image.width, height: image.height, pixels: pixels)!
    }

    @Test func framesAreStoredAsTheirChangedRectanglesAndPlayBackExactly() throws {
        let first = Self.picture(width: 48, height: 32, tag: 0)
        let block = Self.painted(first, x: 10, y: 5, width: 7, height: 4, rgb: (250, 0, 0))
        let corner = Self.painted(block, x: 47, y: 31, width: 1, height: 1, rgb: (0, 0, 0))
        let other = Self.picture(width: 48, height: 32, tag: 99)
        let pixel = Self.painted(other, x: 0, y: 0, width: 1, height: 1, rgb: (1, 2, 3))
        // The second `block` is the same picture again: no frame of its own, the first shows twice as long.
        let file = try #require(AnimatedPNG.make(frames: [first, block, block, corner, other, pixel], delay: 1.0 / 30))
        let reading = try APNGReading(file)

        #expect(reading.width == 48 && reading.height == 32)
        #expect(reading.declaredFrames == 5 && reading.frames.count == 5)
        #expect(reading.sequence == (0..<UInt32(reading.sequence.count)).map { $0 }, "sequence numbers run 0, 1, 2… in order")
        let rectangles = reading.frames.map { [$0.x, $0.y, $0.width, $0.height] }
        #expect(rectangles == [[0, 0, 48, 32], [10, 5, 7, 4], [47, 31, 1, 1], [0, 0, 48, 32], [0, 0, 1, 1]])
        for frame in reading.frames {
            #expect(frame.x + frame.width <= reading.width && frame.y + frame.height <= reading.height)
            #expect(frame.dispose == 0 && frame.blend == 0)     // keep the canvas, replace the rectangle
        }
        let thirtieth: Double = 1.0 / 30, delays: [Double] = [thirtieth, 2 * thirtieth, thirtieth, thirtieth, thirtieth]
        #expect(reading.frames.map(\.delay) == delays)
        #expect(try reading.canvases() == [first, block, corner, other, pixel])
    }

    @Test func aStillAnimationIsOneFrameShownAsLongAsAllOfThem() throws {
        let picture = Self.picture(width: 5, height: 3, tag: 7)
        let reading = try APNGReading(try #require(AnimatedPNG.make(frames: Array(repeating: picture, count: 4), delay: 0.25)))
        #expect(reading.declaredFrames == 1 && reading.frames.count == 1)
        #expect(reading.frames[0].delay == 1.0)
        #expect(try reading.canvases() == [picture])
    }

    @Test func aFrameOfAnotherSizeIsRefused() {
        var animation = AnimatedPNG(delay: 0.1)
        let added = animation.append(Self.picture(width: 4, height: 4, tag: 0))
        let addedOtherSize = animation.append(Self.picture(width: 5, height: 4, tag: 0))
        #expect(added && !addedOtherSize)
        #expect(animation.storedFrameCount == 1)
        #expect(AnimatedPNG.make(frames: [], delay: 0.1) == nil)
    }

    @Test func delaysAreExactFractions() throws {
        for (delay, expected) in [(1.0 / 30, 1.0 / 30), (1.0 / 60, 1.0 / 60), (0.04, 0.04), (0.0123, 0.012)] {
            let file = try #require(AnimatedPNG.make(frames: [Self.picture(width: 2, height: 2, tag: 0)], delay: delay))
            #expect(try APNGReading(file).frames[0].delay == expected, "a delay of \(delay) s")
        }
    }
}

#if canImport(CSDL2)
@Suite("The animation's size")
struct AnimationSizeTests {
    @Test func largeRenderingsAreScaledToTheLongerSideAndSmallOnesAreNot() {
        #expect(GalleryRendering.animationSize(width: 1280, height: 800) == (512, 320))
        #expect(GalleryRendering.animationSize(width: 800, height: 2000) == (205, 512))
        #expect(GalleryRendering.animationSize(width: 300, height: 420) == (300, 420))
        #expect(GalleryRendering.animationSize(width: 512, height: 512) == (512, 512))
        #expect(GalleryRendering.animationSize(width: 100_000, height: 10) == (512, 1))
    }
}
#endif
