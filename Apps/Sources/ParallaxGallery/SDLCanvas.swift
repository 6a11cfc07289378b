#if canImport(CSDL2)
import CSDL2
#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxImages

/// Why SDL could not be used.
package struct SDLError: Error, CustomStringConvertible, Sendable {
    package var description: String
    init(_ what: String) {
        description = "\(what): \(String(cString: SDL_GetError()))"
    }
}

/// A ``GalleryCanvas`` on an `SDL_Renderer`: a window's, or SDL's software
/// renderer drawing into memory. Uploaded photos and rendered text are kept
/// as textures between frames (least recently used dropped first), so a
/// steady frame uploads nothing.
@MainActor
package final class SDLCanvas: GalleryCanvas {
    package let renderer: OpaquePointer
    private var textures: [ThumbnailKey: (texture: OpaquePointer, lastUse: UInt64)] = [:]
    /// Previews' textures, by photo: a few kilobytes each, kept apart so they never evict a thumbnail's.
    private var previews: [ImageID: (texture: OpaquePointer, image: PixelImage, lastUse: UInt64)] = [:]
    private var texts: [String: (texture: OpaquePointer, width: Int32, height: Int32, lastUse: UInt64)] = [:]
    private var fonts: [Int: (plain: OpaquePointer, outline: OpaquePointer)] = [:]
    private let fontPath: String?
    private var frame: UInt64 = 0
    private static let textureLimit = 192
    private static let textLimit = 400

    /// The DejaVu Sans font Debian ships (fonts-dejavu-core).
    package static let defaultFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    /// Draws with `renderer`; text uses the font at `fontPath` (no text if it
    /// cannot be opened).
    package init(renderer: OpaquePointer, fontPath: String? = SDLCanvas.defaultFontPath) {
        self.renderer = renderer
        self.fontPath = fontPath.flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil }
        // Nearest sampling: thumbnails are made at exactly the size they are drawn, so it is exact and sharp.
        SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "0")
    }

    /// Releases every texture and font.
    package func close() {
        for entry in textures.values { SDL_DestroyTexture(entry.texture) }
        for entry in previews.values { SDL_DestroyTexture(entry.texture) }
        for entry in texts.values { SDL_DestroyTexture(entry.texture) }
        for font in fonts.values { TTF_CloseFont(font.plain); TTF_CloseFont(font.outline) }
        textures.removeAll(); previews.removeAll(); texts.removeAll(); fonts.removeAll()
    }

    /// Marks the start of a frame (for least-recently-used eviction).
    package func beginFrame() { frame += 1 }

    package var pixelSize: CGSize {
        var width: Int32 = 0, height: Int32 = 0
        SDL_GetRendererOutputSize(renderer, &width, &height)
        return CGSize(width: CGFloat(width), height: CGFloat(height))
    }

    package func clear(_ color: RGBA) {
        SDL_SetRenderDrawColor(renderer, color.r, color.g, color.b, color.a)
        SDL_RenderClear(renderer)
    }

    package func fill(_ rect: CGRect, _ color: RGBA) {
        // Beyond ±drawableExtent only the part on the canvas: SDL turns coordinates into 32-bit
        // integers, which a tile billions of pixels long (a lying header) overflows.
        guard let drawn = Self.isDrawable(rect) ? rect : visiblePart(of: rect) else { return }
        SDL_SetRenderDrawBlendMode(renderer, color.a == 255 ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND)
        SDL_SetRenderDrawColor(renderer, color.r, color.g, color.b, color.a)
        var target = Self.frect(drawn)
        SDL_RenderFillRectF(renderer, &target)
    }

    package func draw(_ image: PixelImage, key: ThumbnailKey, in rect: CGRect, opacity: Double) {
        guard let texture = texture(for: image, key: key) else { return }
        SDL_SetTextureAlphaMod(texture, UInt8(max(0, min(255, ((opacity.isNaN ? 1 : opacity) * 255).rounded()))))
        let width = Float(image.width), height = Float(image.height)
        guard Self.isDrawable(rect) else {
            guard let visible = visiblePart(of: rect) else { return }
            // Far larger than the canvas: copy only the part of the picture that lands on it.
            var source = SDL_Rect(
                x: Self.pixel((visible.minX - rect.minX) / rect.width * CGFloat(image.width)),
                y: Self.pixel((visible.minY - rect.minY) / rect.height * CGFloat(image.height)),
                w: max(Self.pixel(visible.width / rect.width * CGFloat(image.width)), 1),
                h: max(Self.pixel(visible.height / rect.height * CGFloat(image.height)), 1))
            var target = Self.frect(visible)
            SDL_RenderCopyF(renderer, texture, &source, &target)
            return
        }
        var target = Self.frect(rect)
        // A thumbnail is decoded at its rectangle's size rounded to whole pixels. Within a pixel of it,
        // it is copied at its own size on whole pixels: the software renderer's plain copy, not its
        // stretch, which costs several times more (a waterfall's tiles have fractional heights).
        if abs(target.w - width) <= 1, abs(target.h - height) <= 1 {
            target = SDL_FRect(x: target.x.rounded(), y: target.y.rounded(), w: width, h: height)
        }
        SDL_RenderCopyF(renderer, texture, nil, &target)
    }

    package func drawPreview(_ image: PixelImage, of id: ImageID, in rect: CGRect) {
        guard image.width > 0, image.height > 0, rect.width > 0, rect.height > 0 else { return }
        // Filling `rect`: the whole preview over the rectangle grown to the preview's shape, centred, which
        // the cell's clip then cuts (as a `fill` thumbnail is cropped). No source rectangle in whole
        // pixels of a 32-pixel picture, so nothing shifts as the tile moves.
        let scale = max(rect.width / CGFloat(image.width), rect.height / CGFloat(image.height))
        let width = CGFloat(image.width) * scale, height = CGFloat(image.height) * scale
        let grown = CGRect(x: rect.midX - width / 2, y: rect.midY - height / 2, width: width, height: height)
        guard Self.isDrawable(grown), visiblePart(of: grown) != nil,
              let texture = previewTexture(for: image, of: id) else { return }
        var target = Self.frect(grown)
        SDL_RenderCopyF(renderer, texture, nil, &target)
    }

    package func clip(to rect: CGRect?) {
        if let rect {
            var clip = SDL_Rect(x: Self.pixel(rect.minX), y: Self.pixel(rect.minY),
                                w: max(Self.pixel(rect.width), 0), h: max(Self.pixel(rect.height), 0))
            if !Self.isDrawable(rect) {
                // SDL's rectangle is 32-bit integers. A clip beyond the canvas clips nothing there, so
                // of a larger one only its part on the canvas is given; with no such part, all is clipped.
                let visible = visiblePart(of: rect) ?? .zero
                clip = SDL_Rect(x: Self.pixel(visible.minX), y: Self.pixel(visible.minY),
                                w: Self.pixel(visible.width), h: Self.pixel(visible.height))
            }
            SDL_RenderSetClipRect(renderer, &clip)
        } else {
            SDL_RenderSetClipRect(renderer, nil)
        }
    }

    package func drawText(_ text: String, at point: CGPoint, size: Int, color: RGBA, outlined: Bool) {
        // A line of text starting this far off the canvas cannot reach it (and would overflow SDL's integers).
        guard !text.isEmpty, abs(point.x) < Self.drawableExtent, abs(point.y) < Self.drawableExtent,
              let font = font(size: size) else { return }
        // Outlined text is one texture, its outline and glyphs composed once: one blended copy a frame,
        // placed a pixel up and left so the glyphs sit at `point`.
        let inset: Float = outlined ? 1 : 0
        guard let drawn = outlined ? outlinedTextTexture(text, font: font, size: size, color: color)
                                   : plainTextTexture(text, font: font.plain, size: size, color: color) else { return }
        var target = SDL_FRect(x: Float(point.x) - inset, y: Float(point.y) - inset, w: Float(drawn.width), h: Float(drawn.height))
        SDL_RenderCopyF(renderer, drawn.texture, nil, &target)
    }

    /// The frame drawn so far, read back (premultiplied RGBA, opaque).
    package func readPixels() -> PixelImage? {
        let size = pixelSize
        let width = Int(size.width), height = Int(size.height)
        guard width > 0, height > 0 else { return nil }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let status = pixels.withUnsafeMutableBytes {
            SDL_RenderReadPixels(renderer, nil, pk_sdl_pixelformat_rgba32(), $0.baseAddress, Int32(width * 4))
        }
        return status == 0 ? PixelImage(width: width, height: height, pixels: pixels) : nil
    }

    // MARK: Geometry into SDL's integers

    /// How far from the origin a coordinate given to SDL may lie: SDL keeps
    /// rectangles in 32-bit integers (the software renderer converts even
    /// its `Float` ones), and a tile's geometry comes from layouts and photo
    /// headers, so it can be anything. 2²⁴ is also where `Float` stops
    /// holding whole pixels.
    package static let drawableExtent: CGFloat = 16_777_216

    /// `value` rounded to a whole pixel for SDL: clamped to
    /// ±``drawableExtent``, 0 for NaN. Never traps, whatever the geometry.
    package static func pixel(_ value: CGFloat) -> Int32 {
        guard !value.isNaN else { return 0 }
        return Int32(min(max(value.rounded(), -drawableExtent), drawableExtent))
    }

    /// Whether every edge of `rect` lies within ±``drawableExtent``.
    private static func isDrawable(_ rect: CGRect) -> Bool {
        // No array: this runs for every fill, clip and copy of every frame.
        abs(rect.minX) <= drawableExtent && abs(rect.minY) <= drawableExtent
            && abs(rect.maxX) <= drawableExtent && abs(rect.maxY) <= drawableExtent
    }

    /// The part of `rect` on the canvas, or `nil` if none is (an empty
    /// rectangle, or one with a NaN edge, included; an infinite edge is cut
    /// at the canvas like any other).
    package func visiblePart(of rect: CGRect) -> CGRect? {
        let size = pixelSize
        guard !rect.minX.isNaN, !rect.minY.isNaN, !rect.maxX.isNaN, !rect.maxY.isNaN else { return nil }
        let minX = max(rect.minX, 0), minY = max(rect.minY, 0)
        let maxX = min(rect.maxX, size.width), maxY = min(rect.maxY, size.height)
        guard minX < maxX, minY < maxY else { return nil }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    // MARK: Private

    private static func frect(_ rect: CGRect) -> SDL_FRect {
        SDL_FRect(x: Float(rect.minX), y: Float(rect.minY), w: Float(rect.width), h: Float(rect.height))
    }

    private func texture(for image: PixelImage, key: ThumbnailKey) -> OpaquePointer? {
        if let cached = textures[key] {
            textures[key]?.lastUse = frame
            return cached.texture
        }
        guard let texture = upload(image) else { return nil }
        textures[key] = (texture, frame)
        Self.evictOldest(&textures, beyond: Self.textureLimit) { ($0.texture, $0.lastUse) }
        return texture
    }

    /// Photo `id`'s preview texture, sampled smoothly when scaled (the
    /// preview is a few dozen pixels drawn over hundreds); made again if the
    /// photo's preview changed.
    private func previewTexture(for image: PixelImage, of id: ImageID) -> OpaquePointer? {
        if let cached = previews[id], cached.image == image {
            previews[id]?.lastUse = frame
            return cached.texture
        }
        if let stale = previews.removeValue(forKey: id) { SDL_DestroyTexture(stale.texture) }
        guard let texture = upload(image) else { return nil }
        SDL_SetTextureScaleMode(texture, SDL_ScaleModeLinear)
        previews[id] = (texture, image, frame)
        Self.evictOldest(&previews, beyond: Self.textureLimit) { ($0.texture, $0.lastUse) }
        return texture
    }

    /// `image` in a new blended texture of its size; `nil` for an empty image or when SDL cannot make one.
    private func upload(_ image: PixelImage) -> OpaquePointer? {
        guard image.width > 0, image.height > 0,
              let texture = SDL_CreateTexture(renderer, pk_sdl_pixelformat_rgba32(), Int32(SDL_TEXTUREACCESS_STATIC.rawValue),
                                              Int32(image.width), Int32(image.height)) else { return nil }
        image.pixels.withUnsafeBytes { _ = SDL_UpdateTexture(texture, nil, $0.baseAddress, Int32(image.bytesPerRow)) }
        SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND)
        return texture
    }

    /// Drops the least recently used entry of `cache` (and its texture) once
    /// it holds more than `limit`. O(entries), and only past the limit.
    private static func evictOldest<Key: Hashable, Entry>(_ cache: inout [Key: Entry], beyond limit: Int,
                                                          _ parts: (Entry) -> (texture: OpaquePointer, lastUse: UInt64)) {
        guard cache.count > limit, let oldest = cache.min(by: { parts($0.value).lastUse < parts($1.value).lastUse }) else { return }
        SDL_DestroyTexture(parts(oldest.value).texture)
        cache[oldest.key] = nil
    }

    private func font(size: Int) -> (plain: OpaquePointer, outline: OpaquePointer)? {
        if let font = fonts[size] { return font }
        guard let fontPath, TTF_WasInit() != 0 || TTF_Init() == 0,
              let plain = TTF_OpenFont(fontPath, Int32(size)), let outline = TTF_OpenFont(fontPath, Int32(size)) else { return nil }
        TTF_SetFontOutline(outline, 1)
        fonts[size] = (plain, outline)
        return (plain, outline)
    }

    /// `text` in `color` over its black one-pixel outline, composed once into
    /// one texture (the outline's origin is the text's, less a pixel).
    private func outlinedTextTexture(_ text: String, font: (plain: OpaquePointer, outline: OpaquePointer), size: Int,
                                     color: RGBA) -> (texture: OpaquePointer, width: Int32, height: Int32)? {
        textTexture(key: "\(size)|outlined|\(color.r),\(color.g),\(color.b),\(color.a)|\(text)") {
            guard let outline = TTF_RenderUTF8_Blended(font.outline, text, SDL_Color(r: 0, g: 0, b: 0, a: 255)) else { return nil }
            defer { SDL_FreeSurface(outline) }
            guard let glyphs = TTF_RenderUTF8_Blended(font.plain, text, SDL_Color(r: color.r, g: color.g, b: color.b, a: color.a)) else {
                return nil
            }
            defer { SDL_FreeSurface(glyphs) }
            let width = max(outline.pointee.w, glyphs.pointee.w + 1), height = max(outline.pointee.h, glyphs.pointee.h + 1)
            guard let composed = SDL_CreateRGBSurfaceWithFormat(0, width, height, 32, UInt32(SDL_PIXELFORMAT_ARGB8888.rawValue)) else {
                return nil
            }
            // The outline copied as it is, then the glyphs blended over it a pixel in.
            SDL_SetSurfaceBlendMode(outline, SDL_BLENDMODE_NONE)
            var outlineRect = SDL_Rect(x: 0, y: 0, w: outline.pointee.w, h: outline.pointee.h)
            SDL_UpperBlit(outline, nil, composed, &outlineRect)
            SDL_SetSurfaceBlendMode(glyphs, SDL_BLENDMODE_BLEND)
            var glyphRect = SDL_Rect(x: 1, y: 1, w: glyphs.pointee.w, h: glyphs.pointee.h)
            SDL_UpperBlit(glyphs, nil, composed, &glyphRect)
            return composed
        }
    }

    /// `text` in `color`, as it is.
    private func plainTextTexture(_ text: String, font: OpaquePointer, size: Int, color: RGBA)
        -> (texture: OpaquePointer, width: Int32, height: Int32)? {
        textTexture(key: "\(size)|plain|\(color.r),\(color.g),\(color.b),\(color.a)|\(text)") {
            TTF_RenderUTF8_Blended(font, text, SDL_Color(r: color.r, g: color.g, b: color.b, a: color.a))
        }
    }

    /// The texture of text cached under `key`, else of the surface `render`
    /// makes (then freed), kept with the other texts, the least recently
    /// used dropped past ``textLimit``.
    private func textTexture(key: String, render: () -> UnsafeMutablePointer<SDL_Surface>?)
        -> (texture: OpaquePointer, width: Int32, height: Int32)? {
        if let cached = texts[key] {
            texts[key]?.lastUse = frame
            return (cached.texture, cached.width, cached.height)
        }
        guard let surface = render() else { return nil }
        defer { SDL_FreeSurface(surface) }
        guard let texture = SDL_CreateTextureFromSurface(renderer, surface) else { return nil }
        SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND)
        let entry = (texture: texture, width: surface.pointee.w, height: surface.pointee.h, lastUse: frame)
        texts[key] = entry
        Self.evictOldest(&texts, beyond: Self.textLimit) { ($0.texture, $0.lastUse) }
        return (entry.texture, entry.width, entry.height)
    }
}
#endif
