// The gallery draws through SDL2, which it uses on Linux only.
#if canImport(CSDL2)
import Testing
@testable import ParallaxGallery

/// ``TextOutline``: glyphs over a black outline spread a pixel each way,
/// against exact values and a naive oracle over random glyphs.
struct TextOutlineTests {
    func argb(_ alpha: UInt32, _ red: UInt32, _ green: UInt32, _ blue: UInt32) -> UInt32 {
        alpha << 24 | red << 16 | green << 8 | blue
    }

    @Test func anOpaquePixelGetsABlackRingAroundIt() {
        let white = argb(255, 255, 255, 255)
        let out = [white].withUnsafeBufferPointer { TextOutline.outlined($0, width: 1, height: 1, pitch: 1) }
        #expect(out.count == 9)
        for (index, pixel) in out.enumerated() {
            #expect(pixel == (index == 4 ? white : argb(255, 0, 0, 0)), "pixel \(index)")
        }
    }

    @Test func aHalfCoveredGlyphKeepsItsColourOverItsOwnOutline() {
        // Alpha 128 over black of alpha 128: 128 + 128 × 127 / 255 = 192 (rounded), colour 200 × 128 / 192.
        let out = TextOutline.over(argb(128, 200, 100, 0), outlineAlpha: 128)
        #expect(out == argb(192, 133, 67, 0))
        #expect(TextOutline.over(0, outlineAlpha: 0) == 0)
        #expect(TextOutline.over(argb(255, 9, 8, 7), outlineAlpha: 255) == argb(255, 9, 8, 7))
    }

    @Test func everyPixelIsTheGlyphOverTheLargestCoverageAroundIt() {
        var generator = SeededGenerator(seed: 17)
        for _ in 0..<50 {
            let width = Int.random(in: 1...12, using: &generator), height = Int.random(in: 1...6, using: &generator)
            let pitch = width + Int.random(in: 0...3, using: &generator)
            let glyphs = (0..<(pitch * height)).map { _ in
                argb(UInt32.random(in: 0...255, using: &generator), UInt32.random(in: 0...255, using: &generator),
                     UInt32.random(in: 0...255, using: &generator), UInt32.random(in: 0...255, using: &generator))
            }
            let out = glyphs.withUnsafeBufferPointer { TextOutline.outlined($0, width: width, height: height, pitch: pitch) }
            #expect(out.count == (width + 2) * (height + 2))
            func glyph(_ x: Int, _ y: Int) -> UInt32 {
                x >= 0 && x < width && y >= 0 && y < height ? glyphs[y * pitch + x] : 0
            }
            for y in 0..<(height + 2) {
                for x in 0..<(width + 2) {
                    var coverage: UInt32 = 0
                    for dy in -1...1 { for dx in -1...1 { coverage = max(coverage, glyph(x - 1 + dx, y - 1 + dy) >> 24) } }
                    #expect(out[y * (width + 2) + x] == TextOutline.over(glyph(x - 1, y - 1), outlineAlpha: coverage))
                }
            }
        }
    }
}
#endif
