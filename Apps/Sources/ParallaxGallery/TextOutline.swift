/// Text over a one-pixel black outline, made from the rendered glyphs
/// alone: the outline's coverage at a pixel is the glyphs' largest coverage
/// within one pixel of it (a 3 × 3 maximum), and the glyphs are laid over
/// it. One FreeType render a title instead of two: SDL_ttf's stroked
/// outline (`TTF_SetFontOutline`) cost as much again as the glyphs, paid
/// for every title a fling brings on screen and for every title of a
/// launch's first screen.
enum TextOutline {
    /// `glyphs` (`width` × `height` pixels of ARGB8888, straight alpha, rows
    /// `pitch` pixels apart) over their black outline, in pixels two wider
    /// and two taller (the glyphs one pixel in from the top left), row
    /// after row.
    ///
    /// Complexity: O(width × height), nine reads a pixel.
    static func outlined(_ glyphs: UnsafeBufferPointer<UInt32>, width: Int, height: Int, pitch: Int) -> [UInt32] {
        let outWidth = width + 2, outHeight = height + 2
        guard width > 0, height > 0, pitch >= width, glyphs.count >= pitch * (height - 1) + width else { return [] }
        var result = [UInt32](repeating: 0, count: outWidth * outHeight)
        for y in 0..<outHeight {
            for x in 0..<outWidth {
                // The glyph pixel under (x, y) is (x - 1, y - 1); its neighbours reach (x - 2...x, y - 2...y).
                var outline: UInt32 = 0
                for gy in max(y - 2, 0)...min(y, height - 1) {
                    let row = gy * pitch
                    for gx in max(x - 2, 0)...min(x, width - 1) {
                        outline = max(outline, glyphs[row + gx] >> 24)
                    }
                }
                let inside = x >= 1 && x <= width && y >= 1 && y <= height
                let glyph = inside ? glyphs[(y - 1) * pitch + (x - 1)] : 0
                result[y * outWidth + x] = over(glyph, outlineAlpha: outline)
            }
        }
        return result
    }

    /// `glyph` (ARGB, straight alpha) laid over black of `outlineAlpha`.
    static func over(_ glyph: UInt32, outlineAlpha: UInt32) -> UInt32 {
        let alpha = glyph >> 24
        let combined = alpha + (outlineAlpha * (255 - alpha) + 127) / 255
        guard combined > 0 else { return 0 }
        // Black adds no colour: the glyph's share of the combined coverage keeps its colour.
        func channel(_ shift: UInt32) -> UInt32 {
            min(255, (((glyph >> shift) & 0xFF) * alpha + combined / 2) / combined) << shift
        }
        return combined << 24 | channel(16) | channel(8) | channel(0)
    }
}
