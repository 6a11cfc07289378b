import Foundation
import Testing
@testable import ParallaxImages
import ParallaxCore

/// ThumbHash: bytes compatible with the reference encoder's (a published
/// hash reads with its published shape), pictures that keep what a hash
/// promises (colour, shape, transparency, smooth gradients), and bytes
/// from a server that can never crash a render.
struct ThumbHashTests {
    /// A published hash of a portrait photo of a flower, with its published
    /// aspect ratio of 5 : 7 (from a C# port's tests of the reference).
    static let flower: [UInt8] = [147, 74, 6, 45, 6, 146, 86, 195, 116, 5, 88, 103, 218, 138, 182, 103, 148, 144, 81, 7, 25]

    static func image(width: Int, height: Int, _ color: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8)) -> PixelImage {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let c = color(x, y)
                pixels += [c.0, c.1, c.2, c.3]
            }
        }
        return PixelImage(width: width, height: height, pixels: pixels)!
    }

    @Test func aPublishedHashReadsWithItsShapeAndRoundTripsItsBase64() throws {
        let hash = try #require(ThumbHash(bytes: Self.flower))
        #expect(hash.approximateAspectRatio == 5.0 / 7)
        #expect(!hash.hasAlpha)
        let picture = hash.render()
        #expect(picture.width == 23 && picture.height == 32)
        #expect(ThumbHash(base64: hash.base64) == hash)
        #expect(ThumbHash(base64: hash.base64.replacingOccurrences(of: "=", with: "")) == hash)
        #expect(picture.pixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 })
    }

    @Test func aPicturesAverageIsTheHashsAverageColour() throws {
        let hash = try #require(ThumbHash(bytes: Self.flower))
        let picture = hash.render()
        // The DC term is the mean of the cosine sum, so the picture's mean (before clamping) is the average colour.
        var sums = [0.0, 0.0, 0.0]
        for index in stride(from: 0, to: picture.pixels.count, by: 4) {
            for channel in 0..<3 { sums[channel] += Double(picture.pixels[index + channel]) / 255 }
        }
        let pixels = Double(picture.width * picture.height)
        let average = hash.averageColor
        #expect(abs(sums[0] / pixels - average.red) < 0.04)
        #expect(abs(sums[1] / pixels - average.green) < 0.04)
        #expect(abs(sums[2] / pixels - average.blue) < 0.04)
    }

    @Test(arguments: [(200, 100, 50), (0, 0, 0), (255, 255, 255), (30, 160, 220)])
    func aSolidColourRendersAsThatColour(color: (Int, Int, Int)) {
        let solid = Self.image(width: 60, height: 40) { _, _ in (UInt8(color.0), UInt8(color.1), UInt8(color.2), 255) }
        let hash = ThumbHash(encoding: solid)
        #expect(hash.bytes.count == 5 + (Self.acTerms(columns: 7, rows: 5) + 2 * 5 + 1) / 2)
        let picture = hash.render()
        #expect(picture.width == 32 && picture.height == 23)   // 7 : 5 terms, landscape
        for index in stride(from: 0, to: picture.pixels.count, by: 4) {
            #expect(abs(Int(picture.pixels[index]) - color.0) <= 6)
            #expect(abs(Int(picture.pixels[index + 1]) - color.1) <= 6)
            #expect(abs(Int(picture.pixels[index + 2]) - color.2) <= 6)
            #expect(picture.pixels[index + 3] == 255)
        }
    }

    @Test func aGradientStaysAGradientAndASmoothPhotoLooksLikeItself() {
        // Large enough to be scaled down to 100 × 50 first.
        let gradient = Self.image(width: 400, height: 200) { x, y in
            (UInt8(x * 255 / 399), UInt8(y * 255 / 199), 128, 255)
        }
        let picture = ThumbHash(encoding: gradient).render(maximumSide: 64)
        #expect(picture.width == 64)
        let row = picture.height / 2
        let reds = (0..<picture.width).map { Int(picture.pixel(x: $0, y: row)!.r) }
        #expect(reds.last! - reds.first! > 150)
        #expect(zip(reds, reds.dropFirst()).allSatisfy { $1 >= $0 - 2 })
        let reference = AreaResampler.resample(gradient, crop: (0, 0, 400, 200), width: picture.width, height: picture.height)
        #expect(TestImages.psnr(picture, reference) > 24)
    }

    @Test func transparencyIsKeptWhereItIs() throws {
        // Opaque red on the left half, transparent on the right.
        let half = Self.image(width: 50, height: 50) { x, _ in x < 25 ? (255, 0, 0, 255) : (0, 0, 0, 0) }
        let hash = ThumbHash(encoding: half)
        #expect(hash.hasAlpha)
        #expect(abs(hash.averageColor.alpha - 0.5) < 0.07)
        #expect(abs(hash.averageColor.red - 1) < 0.05)
        let picture = hash.render()
        #expect(picture.width == 32 && picture.height == 32)
        let left = try #require(picture.pixel(x: 2, y: 16)), right = try #require(picture.pixel(x: 29, y: 16))
        #expect(left.a > 200 && right.a < 60)
        #expect(left.r > 200 && left.g < 60)
        // Premultiplied: no channel above its alpha.
        for index in stride(from: 0, to: picture.pixels.count, by: 4) {
            #expect(picture.pixels[index] <= picture.pixels[index + 3])
        }
    }

    @Test func theShapeFollowsThePhoto() throws {
        var generator = SplitMix64(seed: 26)
        for _ in 0..<40 {
            let width = Int.random(in: 1...100, using: &generator), height = Int.random(in: 1...100, using: &generator)
            let hash = ThumbHash(encoding: PixelImage(width: width, height: height, filledWith: (90, 90, 90, 255)))
            let longest = Double(max(width, height))
            let columns = max(1, (7 * Double(width) / longest).rounded()), rows = max(1, (7 * Double(height) / longest).rounded())
            #expect(hash.approximateAspectRatio == columns / rows, "\(width) × \(height)")
            let picture = hash.render()
            #expect((picture.width >= picture.height) == (columns >= rows))
        }
    }

    @Test func renderingAHashAndHashingThePictureKeepsItsColourAndShape() throws {
        let hash = try #require(ThumbHash(bytes: Self.flower))
        let again = ThumbHash(encoding: hash.render())
        #expect(again.approximateAspectRatio == hash.approximateAspectRatio)
        let a = hash.averageColor, b = again.averageColor
        #expect(abs(a.red - b.red) < 0.05 && abs(a.green - b.green) < 0.05 && abs(a.blue - b.blue) < 0.05)
    }

    @Test func bytesThatAreNotAHashAreRefusedAndNoBytesCrashARender() {
        #expect(ThumbHash(bytes: []) == nil)
        #expect(ThumbHash(bytes: Array(Self.flower.dropLast())) == nil)
        #expect(ThumbHash(bytes: Self.flower + [0]) == nil)
        #expect(ThumbHash(base64: "not base64!") == nil)
        #expect(ThumbHash(base64: String(repeating: "A", count: 4000)) == nil)
        var noShape = Self.flower
        noShape[3] &= ~7   // a short side of 0 terms
        #expect(ThumbHash(bytes: noShape) == nil)
        var generator = SplitMix64(seed: 7)
        var accepted = 0
        for _ in 0..<3000 {
            let count = Int.random(in: 0...40, using: &generator)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            guard let hash = ThumbHash(bytes: bytes) else { continue }
            accepted += 1
            let picture = hash.render()
            #expect(picture.width >= 1 && picture.height >= 1 && max(picture.width, picture.height) == 32)
        }
        #expect(accepted > 0)
    }

    /// The render, pixel for pixel, against the description's formula
    /// written out naively (every term at every pixel), over random hashes.
    @Test func theRenderIsTheFormulaOverRandomHashes() {
        var generator = SplitMix64(seed: 2023)
        var checked = 0
        while checked < 60 {
            let bytes = (0..<Int.random(in: 5...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            guard let hash = ThumbHash(bytes: bytes) else { continue }
            checked += 1
            let picture = hash.render(maximumSide: 24)
            let oracle = Self.naiveRender(bytes, width: picture.width, height: picture.height)
            for index in picture.pixels.indices {
                #expect(abs(Int(picture.pixels[index]) - Int(oracle[index])) <= 1, "\(hash) at byte \(index)")
            }
        }
    }

    /// The description's decoder, term by term (premultiplied output).
    static func naiveRender(_ hash: [UInt8], width: Int, height: Int) -> [UInt8] {
        let h24 = Int(hash[0]) | Int(hash[1]) << 8 | Int(hash[2]) << 16, h16 = Int(hash[3]) | Int(hash[4]) << 8
        let hasAlpha = h24 >> 23 != 0, landscape = h16 >> 15 != 0
        let lx = max(3, landscape ? (hasAlpha ? 5 : 7) : h16 & 7), ly = max(3, landscape ? h16 & 7 : (hasAlpha ? 5 : 7))
        var nibble = 0
        func channel(_ nx: Int, _ ny: Int, _ scale: Double) -> [(Int, Int, Double)] {
            var terms: [(Int, Int, Double)] = []
            for cy in 0..<ny {
                var cx = cy > 0 ? 0 : 1
                while cx * ny < nx * (ny - cy) {
                    let byte = Int(hash[(hasAlpha ? 6 : 5) + nibble / 2])
                    terms.append((cx, cy, (Double(byte >> (4 * (nibble % 2)) & 15) / 7.5 - 1) * scale))
                    nibble += 1
                    cx += 1
                }
            }
            return terms
        }
        let l = channel(lx, ly, Double(h24 >> 18 & 31) / 31)
        let p = channel(3, 3, Double(h16 >> 3 & 63) / 63 * 1.25), q = channel(3, 3, Double(h16 >> 9 & 63) / 63 * 1.25)
        let a = hasAlpha ? channel(5, 5, Double(hash[5] >> 4) / 15) : []
        var out: [UInt8] = []
        func value(_ dc: Double, _ terms: [(Int, Int, Double)], _ x: Int, _ y: Int) -> Double {
            terms.reduce(dc) { sum, term in
                sum + term.2 * cos(Double.pi / Double(width) * (Double(x) + 0.5) * Double(term.0))
                    * cos(Double.pi / Double(height) * (Double(y) + 0.5) * Double(term.1)) * 2
            }
        }
        func byte(_ v: Double) -> UInt8 { UInt8(min(max(v * 255, 0), 255).rounded()) }
        for y in 0..<height {
            for x in 0..<width {
                let lv = value(Double(h24 & 63) / 63, l, x, y), pv = value(Double(h24 >> 6 & 63) / 31.5 - 1, p, x, y)
                let qv = value(Double(h24 >> 12 & 63) / 31.5 - 1, q, x, y)
                let av = hasAlpha ? min(max(value(Double(hash[5] & 15) / 15, a, x, y), 0), 1) : 1
                let b = lv - 2.0 / 3 * pv, r = (3 * lv - b + qv) / 2, g = r - qv
                out += [byte(min(max(r, 0), 1) * av), byte(min(max(g, 0), 1) * av), byte(min(max(b, 0), 1) * av), byte(av)]
            }
        }
        return out
    }

    static func acTerms(columns: Int, rows: Int) -> Int {
        var count = 0
        for cy in 0..<rows {
            for cx in 0..<columns where cx * rows < columns * (rows - cy) && (cx > 0 || cy > 0) { count += 1 }
        }
        return count
    }
}
