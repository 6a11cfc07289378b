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
///
/// On the software renderer a frame's cost is its pixels' path through
/// SDL's blitters, so a photo is uploaded to suit the plain row copy: an
/// opaque photo (every photo a camera takes) goes into a texture in the
/// target's own pixel format, converted once, and is copied unblended once
/// its cross-fade is over; only photos with transparent pixels, fading
/// photos and text are blended.
///
/// The file is long because it is the one owner of SDL's textures: photos,
/// the detail view's pictures, previews (small and scaled) and text share
/// one upload path and one pool of spare textures, each kind with its own
/// budget so that none evicts another's, each draw call decides its blend
/// mode from what it uploaded, and one frame's time for making new texts
/// and scaled previews (``makingBudget``) is shared by both kinds. Split by
/// kind, each part would need the others' private state.
@MainActor
package final class SDLCanvas: GalleryCanvas {
    package let renderer: OpaquePointer
    /// Each with the pixel storage it was uploaded from: another picture under the same key (a thumbnail
    /// replaced once its photo was found edited) is uploaded again.
    private var textures: [ThumbnailKey: (texture: OpaquePointer, isOpaque: Bool, bytes: Int, lastUse: UInt64,
                                          pixels: UnsafeRawPointer?)] = [:]
    /// The detail view's pictures: the photo shown and its neighbours at the window's size, and a sharp region.
    private var detailTextures: [ThumbnailKey: (texture: OpaquePointer, isOpaque: Bool, lastUse: UInt64,
                                                pixels: UnsafeRawPointer?)] = [:]
    private static let detailTextureLimit = 5
    /// The bytes of pixels in ``textures``.
    private var photoTextureBytes = 0
    /// Previews' textures, by photo: a few kilobytes each, kept apart so they never evict a thumbnail's.
    private var previews: [ImageID: PreviewTextures] = [:]
    /// Previews holding a ``PreviewTextures/scaled`` texture.
    package private(set) var scaledPreviewCount = 0
    /// Previews scaled so far: each should be scaled once per size, however many frames show it.
    package private(set) var previewScalings = 0
    /// The bytes of pixels in scaled previews: kept up to two screens of pixels, more than the tiles one
    /// screen shows (fewer, and a fling would scale the same previews again every frame).
    private var scaledPreviewBytes = 0
    private var texts: [TextKey: (texture: OpaquePointer, width: Int32, height: Int32, lastUse: UInt64)] = [:]
    /// Texts rendered so far (each once, however many frames show it, until evicted).
    package private(set) var textRenderings = 0
    /// How long one frame may spend rendering texts and scaling previews it
    /// has not drawn before, beyond the first it makes; `nil` (the default)
    /// for no limit, every frame drawn whole. What is left waits for the
    /// next frames: a text is left out and a preview is drawn in its mean
    /// colour until made. A window that draws every frame sets
    /// it: a screen of titles and previews never seen (a launch, a layout
    /// switch) costs 20 to 40 ms to make, which would make one frame that
    /// late; spread over a few frames, every one stays on time and the
    /// photos, which need none of it, are drawn as soon as they arrive.
    package var makingBudget: Duration?
    /// The ``makingBudget`` of frames drawn one per display refresh (the
    /// window's, the paced benchmarks'): a quarter of a 60 Hz frame.
    package static let pacedMakingBudget: Duration = .milliseconds(4)
    /// With a ``makingBudget``, making also stops once the frame's work
    /// before drawing (its model's update, given to
    /// ``beginFrame(afterWorking:)``) and its making together reach this:
    /// half a 60 Hz frame. A frame whose update was long (a launch's first
    /// screen: a batch of photos filed, a screen of pictures asked for,
    /// 5-6 ms on a 2-core AMD EPYC) makes less, and still draws on time
    /// while decodes and the listing keep the other core and part of its own.
    package static let pacedFrameWorkLimit: Duration = .milliseconds(8)
    /// What the current frame has spent making texts and scaled previews, and how many it made.
    private var makingSpent: Duration = .zero
    /// How long the current frame worked before it began drawing.
    private var workBeforeDrawing: Duration = .zero
    private var madeThisFrame = 0
    /// Texts and scaled previews the current frame left for later (its budget spent).
    package private(set) var postponedThisFrame = 0
    private var fonts: [Int: OpaquePointer] = [:]
    private let fontPath: String?
    private var frame: UInt64 = 0
    /// The pixel format opaque photos are uploaded in: the one the renderer draws into, so copying them
    /// needs no conversion.
    private let opaqueFormat: UInt32
    /// Photo textures let go of, by size and format, for the next upload of that size to write over: a
    /// grid's tiles share one size, so a fling makes (and zeroes, and frees) no texture per new tile.
    private var spareTextures: [TextureShape: [OpaquePointer]] = [:]
    private var spareCount = 0
    private static let spareLimit = 8
    /// Previews' small textures kept (a few kilobytes each).
    private static let textureLimit = 192
    /// Photo textures are kept up to four screens of pixels: a fling back over what was just seen
    /// uploads nothing, and a long session holds no more (at 1280 × 800, 16 MB).
    private var photoTextureByteLimit: Int {
        let size = pixelSize
        return max(Int(size.width * size.height) * 4 * 4, 4 << 20)
    }
    private static let textLimit = 400

    /// The DejaVu Sans font Debian ships (fonts-dejavu-core).
    package static let defaultFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    /// Draws with `renderer`, whose drawing goes into pixels of
    /// `targetFormat` (`nil`: worked out from the renderer, see
    /// ``targetFormat(of:)``); text uses the font at `fontPath` (no text if
    /// it cannot be opened).
    package init(renderer: OpaquePointer, targetFormat: UInt32? = nil, fontPath: String? = SDLCanvas.defaultFontPath) {
        self.renderer = renderer
        self.fontPath = fontPath.flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil }
        opaqueFormat = targetFormat ?? Self.targetFormat(of: renderer)
        // Nearest sampling: thumbnails are made at exactly the size they are drawn, so it is exact and sharp.
        SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "0")
    }

    /// Releases every texture and font.
    package func close() {
        for entry in textures.values { SDL_DestroyTexture(entry.texture) }
        for entry in detailTextures.values { SDL_DestroyTexture(entry.texture) }
        detailTextures.removeAll()
        for spares in spareTextures.values { spares.forEach(SDL_DestroyTexture) }
        spareTextures.removeAll(); spareCount = 0
        for entry in previews.values {
            SDL_DestroyTexture(entry.texture)
            if let scaled = entry.scaled { SDL_DestroyTexture(scaled.texture) }
        }
        scaledPreviewCount = 0
        scaledPreviewBytes = 0
        for entry in texts.values { SDL_DestroyTexture(entry.texture) }
        for font in fonts.values { TTF_CloseFont(font) }
        textures.removeAll(); previews.removeAll(); texts.removeAll(); fonts.removeAll()
        photoTextureBytes = 0
    }

    /// The bytes of pixels the canvas holds in textures: photos, spares,
    /// previews and text (4 bytes a pixel; what the renderer keeps of them,
    /// in memory or on a GPU). O(textures), for reports.
    package var textureBytes: Int {
        func bytes(_ texture: OpaquePointer) -> Int {
            var width: Int32 = 0, height: Int32 = 0
            return SDL_QueryTexture(texture, nil, nil, &width, &height) == 0 ? Int(width) * Int(height) * 4 : 0
        }
        var total = textures.values.reduce(0) { $0 + bytes($1.texture) }
        total += detailTextures.values.reduce(0) { $0 + bytes($1.texture) }
        total += spareTextures.values.joined().reduce(0) { $0 + bytes($1) }
        total += previews.values.reduce(0) { $0 + bytes($1.texture) + ($1.scaled.map { bytes($0.texture) } ?? 0) }
        total += texts.values.reduce(0) { $0 + bytes($1.texture) }
        return total
    }

    /// What draws: SDL's name for the renderer ("software", "opengl",
    /// "opengles2", …) and whether a GPU composites the textures.
    package var rendererDescription: String {
        var info = SDL_RendererInfo()
        guard SDL_GetRendererInfo(renderer, &info) == 0 else { return "unknown renderer" }
        let name = info.name.map { String(cString: $0) } ?? "unknown"
        let accelerated = info.flags & SDL_RENDERER_ACCELERATED.rawValue != 0
        return "\(name) renderer (\(accelerated ? "GPU" : "CPU") compositing)"
    }

    /// Marks the start of a frame's drawing (for least-recently-used
    /// eviction), after `work` spent on the frame before it (its model's
    /// update; see ``pacedFrameWorkLimit``).
    package func beginFrame(afterWorking work: Duration = .zero) {
        frame += 1
        workBeforeDrawing = work
        makingSpent = .zero
        madeThisFrame = 0
        postponedThisFrame = 0
    }

    /// Whether this frame may make another text or scaled preview: always
    /// its first, then while ``makingBudget`` is not spent nor the frame's
    /// work at ``pacedFrameWorkLimit``. Counts a refusal.
    private func mayMake() -> Bool {
        guard let budget = makingBudget, madeThisFrame > 0,
              makingSpent >= budget || workBeforeDrawing + makingSpent >= Self.pacedFrameWorkLimit else { return true }
        postponedThisFrame += 1
        return false
    }

    /// Runs `make`, counting its time against this frame's ``makingBudget``.
    private func making<Made>(_ make: () -> Made) -> Made {
        let clock = ContinuousClock(), start = clock.now
        defer {
            makingSpent += clock.now - start
            madeThisFrame += 1
        }
        return make()
    }

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
        guard let (texture, isOpaque) = texture(for: image, key: key) else { return }
        draw(texture, isOpaque: isOpaque, of: image, in: rect, opacity: opacity)
    }

    package func drawDetail(_ image: PixelImage, key: ThumbnailKey, in rect: CGRect, opacity: Double) {
        guard let (texture, isOpaque) = detailTexture(for: image, key: key) else { return }
        draw(texture, isOpaque: isOpaque, of: image, in: rect, opacity: opacity)
    }

    /// Draws `texture` (of `image`) stretched to `rect`.
    private func draw(_ texture: OpaquePointer, isOpaque: Bool, of image: PixelImage, in rect: CGRect, opacity: Double) {
        let alpha = UInt8(max(0, min(255, ((opacity.isNaN ? 1 : opacity) * 255).rounded())))
        SDL_SetTextureAlphaMod(texture, alpha)
        // An opaque photo at full opacity replaces what is under it: the renderer's plain copy.
        SDL_SetTextureBlendMode(texture, isOpaque && alpha == 255 ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND)
        let width = Float(image.width), height = Float(image.height)
        let canvas = pixelSize
        guard Self.isDrawable(rect), rect.width <= canvas.width * 2, rect.height <= canvas.height * 2 else {
            // Far larger than the canvas (a zoomed photo, a lying header): copy only the whole source pixels
            // that land on it, at exactly their place. SDL's software renderer would otherwise scale the whole
            // picture into a temporary surface the size of `rect` (50 MB and more for a zoomed photo) and
            // clip after.
            guard let visible = visiblePart(of: rect) else { return }
            let scaleX = rect.width / CGFloat(image.width), scaleY = rect.height / CGFloat(image.height)
            let x0 = max(((visible.minX - rect.minX) / scaleX).rounded(.down), 0)
            let y0 = max(((visible.minY - rect.minY) / scaleY).rounded(.down), 0)
            let x1 = min(((visible.maxX - rect.minX) / scaleX).rounded(.up), CGFloat(image.width))
            let y1 = min(((visible.maxY - rect.minY) / scaleY).rounded(.up), CGFloat(image.height))
            guard x1 > x0, y1 > y0 else { return }
            var source = SDL_Rect(x: Int32(x0), y: Int32(y0), w: Int32(x1 - x0), h: Int32(y1 - y0))
            var target = Self.frect(CGRect(x: rect.minX + x0 * scaleX, y: rect.minY + y0 * scaleY,
                                           width: (x1 - x0) * scaleX, height: (y1 - y0) * scaleY))
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

    package func isOpaque(_ image: PixelImage, key: ThumbnailKey) -> Bool {
        texture(for: image, key: key)?.isOpaque ?? false
    }

    package func isPreviewOpaque(_ image: PixelImage, of id: ImageID) -> Bool {
        guard previewTexture(for: image, of: id) != nil else { return false }
        return previews[id]?.isOpaque ?? false
    }

    package func drawPreview(_ image: PixelImage, of id: ImageID, in rect: CGRect) {
        guard image.width > 0, image.height > 0, rect.width > 0, rect.height > 0 else { return }
        // Filling `rect`: the whole preview over the rectangle grown to the preview's shape, centred, which
        // the cell's clip then cuts (as a `fill` thumbnail is cropped). No source rectangle in whole
        // pixels of a 32-pixel picture, so nothing shifts as the tile moves.
        let scale = max(rect.width / CGFloat(image.width), rect.height / CGFloat(image.height))
        let width = CGFloat(image.width) * scale, height = CGFloat(image.height) * scale
        let grown = CGRect(x: rect.midX - width / 2, y: rect.midY - height / 2, width: width, height: height)
        guard Self.isDrawable(grown), visiblePart(of: grown) != nil, let small = previewTexture(for: image, of: id) else { return }
        // The preview scaled once to whole pixels and copied at its own size; while its size changes (a
        // pinch), the small one stretched.
        let width32 = Int32(min(width.rounded(), 8192)), height32 = Int32(min(height.rounded(), 8192))
        let postponed = postponedThisFrame
        if let scaled = scaledPreview(of: id, width: width32, height: height32) {
            // Opaque (a ThumbHash without alpha): the plain copy.
            SDL_SetTextureBlendMode(scaled.texture, scaled.isOpaque ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND)
            var target = SDL_FRect(x: Float(grown.minX.rounded()), y: Float(grown.minY.rounded()), w: Float(width32), h: Float(height32))
            SDL_RenderCopyF(renderer, scaled.texture, nil, &target)
        } else if postponedThisFrame > postponed, let entry = previews[id] {
            // Its scaling waits for a later frame (this one's budget is spent): its colour meanwhile, since
            // stretching the small one would cost this frame as much as the scaling.
            fill(rect, entry.meanColor)
        } else {
            var target = Self.frect(grown)
            SDL_RenderCopyF(renderer, small, nil, &target)
        }
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
                                   : plainTextTexture(text, font: font, size: size, color: color) else { return }
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

    /// The texture of thumbnail `key`, uploaded from `image` the first time,
    /// and whether every one of its pixels is opaque.
    private func texture(for image: PixelImage, key: ThumbnailKey) -> (texture: OpaquePointer, isOpaque: Bool)? {
        let pixels = Self.storage(of: image)
        if let cached = textures[key] {
            if cached.pixels == pixels {
                textures[key]?.lastUse = frame
                return (cached.texture, cached.isOpaque)
            }
            textures[key] = nil
            photoTextureBytes -= cached.bytes
            keepSpare(cached.texture)
        }
        let isOpaque = Self.isOpaque(image)
        guard let texture = upload(image, format: isOpaque ? opaqueFormat : pk_sdl_pixelformat_rgba32(), reusing: true) else {
            return nil
        }
        let bytes = image.width * image.height * 4
        textures[key] = (texture, isOpaque, bytes, frame, pixels)
        photoTextureBytes += bytes
        let limit = photoTextureByteLimit
        while photoTextureBytes > limit, textures.count > 1,
              let oldest = textures.min(by: { $0.value.lastUse < $1.value.lastUse }), oldest.key != key {
            textures[oldest.key] = nil
            photoTextureBytes -= oldest.value.bytes
            keepSpare(oldest.value.texture)
        }
        return (texture, isOpaque)
    }

    /// The texture of detail picture `key` (``drawDetail(_:key:in:opacity:)``),
    /// uploaded the first time; the least recently drawn of more than
    /// ``detailTextureLimit`` is let go of.
    private func detailTexture(for image: PixelImage, key: ThumbnailKey) -> (texture: OpaquePointer, isOpaque: Bool)? {
        let pixels = Self.storage(of: image)
        if let cached = detailTextures[key] {
            if cached.pixels == pixels {
                detailTextures[key]?.lastUse = frame
                return (cached.texture, cached.isOpaque)
            }
            SDL_DestroyTexture(cached.texture)
            detailTextures[key] = nil
        }
        let isOpaque = Self.isOpaque(image)
        guard let texture = upload(image, format: isOpaque ? opaqueFormat : pk_sdl_pixelformat_rgba32(), reusing: false) else {
            return nil
        }
        detailTextures[key] = (texture, isOpaque, frame, pixels)
        while detailTextures.count > Self.detailTextureLimit,
              let oldest = detailTextures.min(by: { $0.value.lastUse < $1.value.lastUse }), oldest.key != key {
            SDL_DestroyTexture(oldest.value.texture)
            detailTextures[oldest.key] = nil
        }
        return (texture, isOpaque)
    }

    /// Where `image`'s pixels are stored: what tells a texture's picture
    /// from another under the same key. Only compared, never read through.
    /// O(1): copies of an image share their storage (copy-on-write). A
    /// picture freed while its texture is kept (its tile gone, the memory
    /// cache done with it), and the key's next picture decoded into the
    /// very same memory, would be taken for it; a replaced thumbnail is
    /// decoded while the old one is still shown, so never lands there.
    private static func storage(of image: PixelImage) -> UnsafeRawPointer? {
        image.pixels.withUnsafeBytes { $0.baseAddress }
    }

    /// Whether every pixel of `image` has alpha 255. O(pixels), once per
    /// upload, two pixels a step.
    package static func isOpaque(_ image: PixelImage) -> Bool {
        image.pixels.withUnsafeBytes { bytes in
            // RGBA bytes: alpha is every fourth byte, the top byte of each little-endian 32-bit pixel.
            let pairs = bytes.count / 8
            var all: UInt64 = 0xFF00_0000_FF00_0000
            for index in 0..<pairs { all &= bytes.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self) }
            var opaque = all & 0xFF00_0000_FF00_0000 == 0xFF00_0000_FF00_0000
            if bytes.count % 8 != 0 { opaque = opaque && bytes[bytes.count - 1] == 255 }
            return opaque
        }
    }

    /// The pixel format `renderer` draws into: the window's for the software
    /// renderer on a window, else the renderer's first texture format (the
    /// one its GPU takes as it is); RGBA when it cannot tell (a software
    /// renderer drawing into a surface, whose owner passes the format).
    private static func targetFormat(of renderer: OpaquePointer) -> UInt32 {
        var info = SDL_RendererInfo()
        guard SDL_GetRendererInfo(renderer, &info) == 0 else { return pk_sdl_pixelformat_rgba32() }
        if info.flags & SDL_RENDERER_SOFTWARE.rawValue != 0 {
            guard let window = SDL_RenderGetWindow(renderer) else { return pk_sdl_pixelformat_rgba32() }
            let format = SDL_GetWindowPixelFormat(window)
            return format == SDL_PIXELFORMAT_UNKNOWN.rawValue ? pk_sdl_pixelformat_rgba32() : format
        }
        return info.num_texture_formats > 0 ? info.texture_formats.0 : pk_sdl_pixelformat_rgba32()
    }

    /// A photo's preview as textures: the small picture as it is, sampled
    /// smoothly when stretched, and the picture scaled to the size it is
    /// drawn at (the first size asked for, then any size asked for two
    /// frames running).
    private struct PreviewTextures {
        var texture: OpaquePointer
        var image: PixelImage
        var isOpaque: Bool
        /// Its pixels' mean colour: drawn while its scaled texture waits for a frame with budget left.
        var meanColor: RGBA
        var lastUse: UInt64
        var scaled: (texture: OpaquePointer, width: Int32, height: Int32)?
        /// The size the last frame asked for.
        var askedWidth: Int32 = 0, askedHeight: Int32 = 0
    }

    /// The mean of `image`'s pixels (opaque). O(pixels): for previews, a few hundred.
    static func meanColor(of image: PixelImage) -> RGBA {
        var sums = (r: 0, g: 0, b: 0), count = 0
        image.pixels.withUnsafeBytes { bytes in
            for row in 0..<image.height {
                var offset = row * image.bytesPerRow
                for _ in 0..<image.width {
                    sums.r += Int(bytes[offset]); sums.g += Int(bytes[offset + 1]); sums.b += Int(bytes[offset + 2])
                    offset += 4
                }
            }
            count = image.width * image.height
        }
        guard count > 0 else { return RGBA(0, 0, 0) }
        return RGBA(UInt8(sums.r / count), UInt8(sums.g / count), UInt8(sums.b / count))
    }

    /// Photo `id`'s preview texture, sampled smoothly when scaled (the
    /// preview is a few dozen pixels drawn over hundreds); made again if the
    /// photo's preview changed.
    private func previewTexture(for image: PixelImage, of id: ImageID) -> OpaquePointer? {
        if let cached = previews[id], cached.image == image {
            previews[id]?.lastUse = frame
            return cached.texture
        }
        if let stale = previews.removeValue(forKey: id) { release(stale) }
        guard let texture = upload(image, format: pk_sdl_pixelformat_rgba32(), reusing: false) else { return nil }
        SDL_SetTextureScaleMode(texture, SDL_ScaleModeLinear)
        previews[id] = PreviewTextures(texture: texture, image: image, isOpaque: Self.isOpaque(image),
                                       meanColor: Self.meanColor(of: image), lastUse: frame)
        if previews.count > Self.textureLimit,
           let oldest = previews.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            previews[oldest.key] = nil
            release(oldest.value)
        }
        return texture
    }

    /// Photo `id`'s preview scaled to `width × height`: scaled (smoothly,
    /// once) the first time a size is asked for, and again for a new size
    /// asked for two frames running, then kept. `nil` while the size
    /// changes (the caller stretches the small texture), or without a
    /// preview texture.
    private func scaledPreview(of id: ImageID, width: Int32, height: Int32) -> (texture: OpaquePointer, isOpaque: Bool)? {
        guard var entry = previews[id], width > 0, height > 0 else { return nil }
        if let scaled = entry.scaled, scaled.width == width, scaled.height == height { return (scaled.texture, entry.isOpaque) }
        let askedBefore = entry.scaled == nil || entry.askedWidth == width && entry.askedHeight == height
        entry.askedWidth = width
        entry.askedHeight = height
        guard askedBefore, mayMake() else {
            previews[id] = entry
            return nil
        }
        if let stale = entry.scaled {
            keepSpare(stale.texture)
            scaledPreviewCount -= 1
            scaledPreviewBytes -= Int(stale.width) * Int(stale.height) * 4
        }
        entry.scaled = making { scaled(entry.image, isOpaque: entry.isOpaque, width: width, height: height) }.map { ($0, width, height) }
        if entry.scaled != nil {
            scaledPreviewCount += 1
            scaledPreviewBytes += Int(width) * Int(height) * 4
        }
        previews[id] = entry
        let size = pixelSize
        let limit = max(Int(size.width * size.height) * 4 * 2, 4 << 20)
        while scaledPreviewBytes > limit, scaledPreviewCount > 1, dropOldestScaledPreview(sparing: id) {}
        return entry.scaled.map { ($0.texture, entry.isOpaque) }
    }

    /// `image` scaled smoothly to `width × height` in a texture (opaque
    /// previews in the target's format).
    private func scaled(_ image: PixelImage, isOpaque: Bool, width: Int32, height: Int32) -> OpaquePointer? {
        image.pixels.withUnsafeBytes { bytes -> OpaquePointer? in
            guard let base = bytes.baseAddress,
                  let source = SDL_CreateRGBSurfaceWithFormatFrom(UnsafeMutableRawPointer(mutating: base), Int32(image.width),
                                                                  Int32(image.height), 32, Int32(image.bytesPerRow),
                                                                  pk_sdl_pixelformat_rgba32()) else { return nil }
            defer { SDL_FreeSurface(source) }
            guard let target = SDL_CreateRGBSurfaceWithFormat(0, width, height, 32, pk_sdl_pixelformat_rgba32()) else { return nil }
            defer { SDL_FreeSurface(target) }
            guard SDL_SoftStretchLinear(source, nil, target, nil) == 0, let pixels = target.pointee.pixels else { return nil }
            previewScalings += 1
            let format = isOpaque ? opaqueFormat : pk_sdl_pixelformat_rgba32()
            return upload(UnsafeRawPointer(pixels), pitch: target.pointee.pitch, width: width, height: height, format: format,
                          reusing: true)
        }
    }

    /// Lets go of the scaled texture of the least recently drawn preview
    /// that has one, other than `id`'s; `false` if there is none. O(previews),
    /// past the limit only.
    private func dropOldestScaledPreview(sparing id: ImageID) -> Bool {
        var oldest: (id: ImageID, lastUse: UInt64)?
        for (candidate, entry) in previews where candidate != id && entry.scaled != nil {
            if entry.lastUse < oldest?.lastUse ?? .max { oldest = (candidate, entry.lastUse) }
        }
        guard let oldest, let scaled = previews[oldest.id]?.scaled else { return false }
        keepSpare(scaled.texture)
        previews[oldest.id]?.scaled = nil
        scaledPreviewCount -= 1
        scaledPreviewBytes -= Int(scaled.width) * Int(scaled.height) * 4
        return true
    }

    /// Destroys a preview's textures (its scaled one kept as a spare).
    private func release(_ entry: PreviewTextures) {
        SDL_DestroyTexture(entry.texture)
        if let scaled = entry.scaled {
            keepSpare(scaled.texture)
            scaledPreviewCount -= 1
            scaledPreviewBytes -= Int(scaled.width) * Int(scaled.height) * 4
        }
    }

    /// `image` in a blended texture of its size in pixel `format`
    /// (converted once, here): a spare one of that shape when `reusing`,
    /// else a new one; `nil` for an empty image or when SDL cannot make one.
    private func upload(_ image: PixelImage, format: UInt32, reusing: Bool) -> OpaquePointer? {
        guard image.width > 0, image.height > 0 else { return nil }
        return image.pixels.withUnsafeBytes { bytes in
            bytes.baseAddress.flatMap {
                upload($0, pitch: Int32(image.bytesPerRow), width: Int32(image.width), height: Int32(image.height), format: format,
                       reusing: reusing)
            }
        }
    }

    /// RGBA pixels at `pixels` (`pitch` bytes a row) in a blended texture of
    /// pixel `format`, as ``upload(_:format:reusing:)``.
    private func upload(_ rgba: UnsafeRawPointer, pitch sourcePitch: Int32, width: Int32, height: Int32, format: UInt32,
                        reusing: Bool) -> OpaquePointer? {
        let shape = TextureShape(width: width, height: height, format: format)
        guard let texture = reusing ? takeSpare(shape) ?? makeTexture(shape) : makeTexture(shape) else { return nil }
        var pixels: UnsafeMutableRawPointer?
        var pitch: Int32 = 0
        guard SDL_LockTexture(texture, nil, &pixels, &pitch) == 0, let pixels else {
            SDL_DestroyTexture(texture)
            return nil
        }
        _ = SDL_ConvertPixels(width, height, pk_sdl_pixelformat_rgba32(), rgba, sourcePitch, format, pixels, pitch)
        SDL_UnlockTexture(texture)
        SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND)
        return texture
    }

    /// A new streaming texture of `shape`.
    private func makeTexture(_ shape: TextureShape) -> OpaquePointer? {
        SDL_CreateTexture(renderer, shape.format, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), shape.width, shape.height)
    }

    /// A spare texture of `shape`, taken out of the spares.
    private func takeSpare(_ shape: TextureShape) -> OpaquePointer? {
        guard let texture = spareTextures[shape]?.popLast() else { return nil }
        spareCount -= 1
        return texture
    }

    /// Keeps `texture` as a spare for its shape; destroys it when the spares are full or its shape is unknown.
    private func keepSpare(_ texture: OpaquePointer) {
        var format: UInt32 = 0, access: Int32 = 0, width: Int32 = 0, height: Int32 = 0
        guard spareCount < Self.spareLimit, SDL_QueryTexture(texture, &format, &access, &width, &height) == 0 else {
            SDL_DestroyTexture(texture)
            return
        }
        spareTextures[TextureShape(width: width, height: height, format: format), default: []].append(texture)
        spareCount += 1
    }

    /// A texture's size and pixel format: which spare an upload can write over.
    private struct TextureShape: Hashable {
        var width: Int32
        var height: Int32
        var format: UInt32
    }

    /// A line of text as drawn: what a text texture is kept under.
    private struct TextKey: Hashable {
        var text: String
        var size: Int
        var color: RGBA
        var isOutlined: Bool
    }

    /// Drops the least recently used entry of `cache` once it holds more
    /// than `limit`, and returns its texture for the caller to destroy or
    /// keep. O(entries), and only past the limit.
    private static func evictOldest<Key: Hashable, Entry>(_ cache: inout [Key: Entry], beyond limit: Int,
                                                          _ parts: (Entry) -> (texture: OpaquePointer, lastUse: UInt64))
        -> OpaquePointer? {
        guard cache.count > limit, let oldest = cache.min(by: { parts($0.value).lastUse < parts($1.value).lastUse }) else { return nil }
        cache[oldest.key] = nil
        return parts(oldest.value).texture
    }

    /// Opens the fonts of `sizes`: the first took 0.4-5 ms (SDL_ttf and
    /// FreeType starting, the font file read; 2-core AMD EPYC), which a
    /// first frame would otherwise spend.
    package func prepareText(sizes: [Int]) {
        for size in sizes { _ = font(size: size) }
    }

    private func font(size: Int) -> OpaquePointer? {
        if let font = fonts[size] { return font }
        guard let fontPath, TTF_WasInit() != 0 || TTF_Init() == 0, let font = TTF_OpenFont(fontPath, Int32(size)) else { return nil }
        fonts[size] = font
        return font
    }

    /// `text` in `color` over its black one-pixel outline (``TextOutline``),
    /// composed once into one texture (the outline's origin is the text's,
    /// less a pixel).
    private func outlinedTextTexture(_ text: String, font: OpaquePointer, size: Int,
                                     color: RGBA) -> (texture: OpaquePointer, width: Int32, height: Int32)? {
        textTexture(key: TextKey(text: text, size: size, color: color, isOutlined: true)) {
            guard let rendered = TTF_RenderUTF8_Blended(font, text, SDL_Color(r: color.r, g: color.g, b: color.b, a: color.a)) else {
                return nil
            }
            defer { SDL_FreeSurface(rendered) }
            // Read as ARGB8888: SDL_ttf's own format since 2.0.18, converted should another give another.
            let argb = UInt32(SDL_PIXELFORMAT_ARGB8888.rawValue)
            let isARGB = rendered.pointee.format?.pointee.format == argb
            guard let glyphs = isARGB ? rendered : SDL_ConvertSurfaceFormat(rendered, argb, 0) else { return nil }
            defer { if !isARGB { SDL_FreeSurface(glyphs) } }
            let width = Int(glyphs.pointee.w), height = Int(glyphs.pointee.h), pitch = Int(glyphs.pointee.pitch) / 4
            guard width > 0, height > 0, let source = glyphs.pointee.pixels,
                  let composed = SDL_CreateRGBSurfaceWithFormat(0, Int32(width + 2), Int32(height + 2), 32, argb) else { return nil }
            let pixels = TextOutline.outlined(UnsafeBufferPointer(start: source.assumingMemoryBound(to: UInt32.self),
                                                                  count: pitch * (height - 1) + width),
                                              width: width, height: height, pitch: pitch)
            let rowPitch = Int(composed.pointee.pitch) / 4
            if let target = composed.pointee.pixels?.assumingMemoryBound(to: UInt32.self) {
                for row in 0..<(height + 2) {
                    for column in 0..<(width + 2) { target[row * rowPitch + column] = pixels[row * (width + 2) + column] }
                }
            }
            return composed
        }
    }

    /// `text` in `color`, as it is.
    private func plainTextTexture(_ text: String, font: OpaquePointer, size: Int, color: RGBA)
        -> (texture: OpaquePointer, width: Int32, height: Int32)? {
        textTexture(key: TextKey(text: text, size: size, color: color, isOutlined: false)) {
            TTF_RenderUTF8_Blended(font, text, SDL_Color(r: color.r, g: color.g, b: color.b, a: color.a))
        }
    }

    /// The texture of text cached under `key`, else of the surface `render`
    /// makes (then freed), kept with the other texts, the least recently
    /// used dropped past ``textLimit``.
    private func textTexture(key: TextKey, render: () -> UnsafeMutablePointer<SDL_Surface>?)
        -> (texture: OpaquePointer, width: Int32, height: Int32)? {
        if let cached = texts[key] {
            texts[key]?.lastUse = frame
            return (cached.texture, cached.width, cached.height)
        }
        guard mayMake() else { return nil }
        let made = making { () -> (OpaquePointer, Int32, Int32)? in
            guard let surface = render() else { return nil }
            defer { SDL_FreeSurface(surface) }
            guard let texture = SDL_CreateTextureFromSurface(renderer, surface) else { return nil }
            return (texture, surface.pointee.w, surface.pointee.h)
        }
        guard let (texture, width, height) = made else { return nil }
        textRenderings += 1
        SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND)
        let entry = (texture: texture, width: width, height: height, lastUse: frame)
        texts[key] = entry
        if let evicted = Self.evictOldest(&texts, beyond: Self.textLimit, { ($0.texture, $0.lastUse) }) { SDL_DestroyTexture(evicted) }
        return (entry.texture, entry.width, entry.height)
    }
}
#endif
