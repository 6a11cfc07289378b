// The gallery draws through SDL2, which it uses on Linux only.
#if canImport(CSDL2)
import Foundation
import ParallaxImages
import Testing
@testable import ParallaxGallery

/// What the software path leaves out of a frame to be cheap (plain copies
/// of opaque photos, no placeholder under them, reused textures) must
/// never change what is drawn.
@Suite("The frame's cheap path draws what the full path would", .serialized)
@MainActor
struct CanvasCostTests {
    /// An image of `width × height` whose every pixel is one opaque colour.
    func solid(_ width: Int, _ height: Int, _ rgb: (UInt8, UInt8, UInt8)) -> PixelImage {
        PixelImage(width: width, height: height, filledWith: (rgb.0, rgb.1, rgb.2, 255))
    }

    @Test func opacityIsEveryAlphaByteOverRandomImages() throws {
        var random = SeededGenerator(seed: 27)
        for _ in 0..<500 {
            // Odd pixel counts too: the scan reads two pixels a step and must not miss a last single one.
            let width = Int.random(in: 1...9, using: &random), height = Int.random(in: 1...7, using: &random)
            var pixels = (0..<width * height * 4).map { $0 % 4 == 3 ? UInt8(255) : UInt8.random(in: 0...255, using: &random) }
            let opaque = try #require(PixelImage(width: width, height: height, pixels: pixels))
            #expect(SDLCanvas.isOpaque(opaque))
            let pixel = Int.random(in: 0..<width * height, using: &random)
            pixels[pixel * 4 + 3] = UInt8.random(in: 0...254, using: &random)
            let translucent = try #require(PixelImage(width: width, height: height, pixels: pixels))
            #expect(!SDLCanvas.isOpaque(translucent), "\(width)×\(height), pixel \(pixel) translucent")
        }
        #expect(SDLCanvas.isOpaque(PixelImage(width: 0, height: 0)))
    }

    @Test func coveringCountsSharedEdges() {
        let cell = CGRect(x: 10, y: 20, width: 151, height: 151)
        #expect(GalleryRenderer.rect(cell, covers: cell))
        #expect(GalleryRenderer.rect(CGRect(x: 10, y: 8.5, width: 151, height: 171), covers: cell))
        #expect(!GalleryRenderer.rect(CGRect(x: 10, y: 8.5, width: 150.5, height: 171), covers: cell))
        #expect(!GalleryRenderer.rect(CGRect(x: 10, y: 20.25, width: 151, height: 171), covers: cell))
    }

    /// More photos of one size than the canvas keeps textures for (four
    /// screens of pixels, at least 4 MiB: three of these 1.4 MB ones): evicted
    /// textures are written over by later photos, and every draw, first or
    /// again after its eviction, shows its own photo.
    @Test func reusedTexturesNeverShowAnotherPhoto() throws {
        let headless = try HeadlessRenderer(size: CGSize(width: 64, height: 64))
        defer { headless.close() }
        let canvas = headless.canvas
        func color(_ index: Int) -> (UInt8, UInt8, UInt8) { (UInt8(index % 251), UInt8(index / 251 * 40 + 7), UInt8(255 - index % 199)) }
        func drawAndRead(_ index: Int) throws -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
            canvas.beginFrame()
            canvas.clear(RGBA(1, 2, 3))
            let key = ThumbnailKey(id: ImageID("photo-\(index)"), size: try ThumbnailSize(width: 600, height: 600))
            canvas.draw(solid(600, 600, color(index)), key: key, in: CGRect(x: 10, y: 10, width: 600, height: 600), opacity: 1)
            let frame = try #require(canvas.readPixels())
            return try #require(frame.pixel(x: 15, y: 15))
        }
        for index in Array(0..<40) + Array(0..<10) + Array(30..<40).reversed() {
            let pixel = try drawAndRead(index)
            let expected = color(index)
            #expect(pixel.r == expected.0 && pixel.g == expected.1 && pixel.b == expected.2, "photo \(index)")
            #expect(canvas.textureBytes <= 8 * 600 * 600 * 4, "textures stay within their limit and the spares'")
        }
    }

    /// A thumbnail replaced under its key (its photo found edited on the
    /// server after the kept one was shown) is drawn, not the texture of
    /// the one before; drawn again, it is still itself. The same for the
    /// detail view's pictures.
    @Test func anotherPictureUnderTheSameKeyIsDrawnNotTheOldTexture() throws {
        let headless = try HeadlessRenderer(size: CGSize(width: 64, height: 64))
        defer { headless.close() }
        let canvas = headless.canvas
        let key = ThumbnailKey(id: ImageID("edited.jpg"), size: try ThumbnailSize(width: 40, height: 40))
        func drawAndRead(_ image: PixelImage, detail: Bool = false) throws -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
            canvas.beginFrame()
            canvas.clear(RGBA(1, 2, 3))
            let rect = CGRect(x: 10, y: 10, width: 40, height: 40)
            if detail {
                canvas.drawDetail(image, key: key, in: rect, opacity: 1)
            } else {
                canvas.draw(image, key: key, in: rect, opacity: 1)
            }
            let frame = try #require(canvas.readPixels())
            return try #require(frame.pixel(x: 30, y: 30))
        }
        let kept = solid(40, 40, (200, 10, 10)), edited = solid(40, 40, (10, 10, 200))
        for detail in [false, true] {
            #expect(try drawAndRead(kept, detail: detail).r == 200)
            #expect(try drawAndRead(edited, detail: detail).b == 200, "detail: \(detail)")
            #expect(try drawAndRead(edited, detail: detail).b == 200, "detail: \(detail)")
            #expect(canvas.isOpaque(edited, key: key))
        }
        #expect(canvas.textureBytes <= 3 * 40 * 40 * 4, "the old texture was let go of")
    }

    /// A preview at a size it keeps is scaled once and copied; at a size
    /// that changes it is stretched from the small picture each frame. Both
    /// must look the same.
    @Test func aScaledPreviewLooksAsTheStretchedOne() throws {
        let headless = try HeadlessRenderer(size: CGSize(width: 240, height: 160))
        defer { headless.close() }
        let canvas = headless.canvas
        var random = SeededGenerator(seed: 26)
        let preview = try #require(PixelImage(width: 32, height: 16, pixels: (0..<32 * 16 * 4).map {
            $0 % 4 == 3 ? 255 : UInt8.random(in: 0...255, using: &random)
        }))
        let id = ImageID("preview.jpg")
        func frame(_ rect: CGRect) throws -> PixelImage {
            canvas.beginFrame()
            canvas.clear(RGBA(0, 0, 0))
            canvas.drawPreview(preview, of: id, in: rect)
            return try #require(canvas.readPixels())
        }
        let first = CGRect(x: 20, y: 30, width: 96, height: 48), second = CGRect(x: 20, y: 30, width: 128, height: 64)
        _ = try frame(first)                    // the first size: scaled at once
        #expect(canvas.scaledPreviewCount == 1)
        let stretched = try frame(second)       // a new size, asked once: the small picture stretched
        let scaled = try frame(second)          // asked again: scaled to it, then copied
        var largest = 0
        for y in 30..<94 {
            for x in 20..<148 {
                let a = try #require(stretched.pixel(x: x, y: y)), b = try #require(scaled.pixel(x: x, y: y))
                largest = max(largest, abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
            }
        }
        #expect(largest <= 2, "largest channel difference \(largest)")
        // And it is the preview, not black: the middle of the rectangle shows the picture's middle colours.
        let middle = try #require(scaled.pixel(x: 84, y: 62))
        #expect(Int(middle.r) + Int(middle.g) + Int(middle.b) > 0)
        // Outside the rectangle, nothing.
        let outside = try #require(scaled.pixel(x: 200, y: 140))
        #expect(outside.r == 0 && outside.g == 0 && outside.b == 0)
    }

    /// A screen full of previews moving together (a fling) is scaled once
    /// per preview, not again on every frame: the kept scaled previews hold
    /// more than one screen's tiles.
    @Test func aScreenOfPreviewsIsScaledOncePerPreview() throws {
        let headless = try HeadlessRenderer(size: CGSize(width: 1280, height: 800))
        defer { headless.close() }
        let canvas = headless.canvas
        let preview = PixelImage(width: 32, height: 24, filledWith: (90, 120, 200, 255))
        // An 8-column grid of 151 × 171 tiles, 6 rows: 48 previews on screen.
        let tiles = (0..<48).map { (ImageID("photo-\($0).jpg"), CGRect(x: 8 + CGFloat($0 % 8) * 159, y: CGFloat($0 / 8) * 140, width: 151, height: 171)) }
        for frame in 0..<10 {
            canvas.beginFrame()
            canvas.clear(RGBA(0, 0, 0))
            for (id, rect) in tiles { canvas.drawPreview(preview, of: id, in: rect.offsetBy(dx: 0, dy: -CGFloat(frame) * 7)) }
        }
        #expect(canvas.previewScalings == 48)
        #expect(canvas.scaledPreviewCount == 48)
    }

    /// With a making budget, a frame makes its first new text or scaled
    /// preview and then only what the budget leaves time for; the rest is
    /// made by the frames after, each text and preview once. A preview
    /// waiting for its scaling shows its mean colour meanwhile. A budget of
    /// zero makes exactly one a frame, whatever the machine's speed.
    @Test func aFrameMakesWhatItsBudgetAllowsAndLeavesTheRestToTheNext() throws {
        let headless = try HeadlessRenderer(size: CGSize(width: 640, height: 400))
        defer { headless.close() }
        let canvas = headless.canvas
        canvas.makingBudget = .zero
        let previews = (0..<3).map { PixelImage(width: 32, height: 24, filledWith: (UInt8(40 + $0 * 60), 120, 200, 255)) }
        let tiles = (0..<3).map { (ImageID("photo-\($0).jpg"), CGRect(x: 10 + CGFloat($0) * 160, y: 10, width: 151, height: 171)) }
        let titles = (0..<5).map { "IMG_\(1000 + $0).jpg" }
        var made: [Int] = [], waiting: [Int] = []
        for _ in 0..<10 {
            canvas.beginFrame()
            canvas.clear(RGBA(0, 0, 0))
            for (index, (id, rect)) in tiles.enumerated() { canvas.drawPreview(previews[index], of: id, in: rect) }
            for (index, title) in titles.enumerated() {
                canvas.drawText(title, at: CGPoint(x: 10, y: 200 + CGFloat(index) * 20), size: 14, color: RGBA(255, 255, 255), outlined: true)
            }
            made.append(canvas.previewScalings + canvas.textRenderings)
            waiting.append(canvas.postponedThisFrame)
            if made.count == 1 {
                // The first frame scaled the first preview only: the others show their colour.
                let frame = try #require(canvas.readPixels())
                let second = try #require(frame.pixel(x: 250, y: 90))
                #expect((second.r, second.g, second.b) == (100, 120, 200))
            }
        }
        #expect(made == [1, 2, 3, 4, 5, 6, 7, 8, 8, 8])
        #expect(waiting == [7, 6, 5, 4, 3, 2, 1, 0, 0, 0])
        #expect(canvas.previewScalings == 3 && canvas.textRenderings == 5)

        // Without a budget (the default), one frame makes everything.
        let whole = try HeadlessRenderer(size: CGSize(width: 640, height: 400))
        defer { whole.close() }
        whole.canvas.beginFrame()
        for (index, (id, rect)) in tiles.enumerated() { whole.canvas.drawPreview(previews[index], of: id, in: rect) }
        for title in titles { whole.canvas.drawText(title, at: CGPoint(x: 10, y: 200), size: 14, color: RGBA(255, 255, 255), outlined: true) }
        #expect(whole.canvas.previewScalings == 3 && whole.canvas.textRenderings == 5 && whole.canvas.postponedThisFrame == 0)
    }

    /// A frame whose work before drawing (its model's update) has reached
    /// ``SDLCanvas/pacedFrameWorkLimit`` makes only its first new text or
    /// preview, however much of its making budget is left (a minute here:
    /// without the limit, the first frame would make all six).
    @Test func aFrameThatWorkedLongBeforeDrawingMakesOnlyItsFirst() throws {
        let headless = try HeadlessRenderer(size: CGSize(width: 640, height: 400))
        defer { headless.close() }
        let canvas = headless.canvas
        canvas.makingBudget = .seconds(60)
        let titles = (0..<6).map { "IMG_\(2000 + $0).jpg" }
        func drawTitles() {
            for (index, title) in titles.enumerated() {
                canvas.drawText(title, at: CGPoint(x: 10, y: 20 + CGFloat(index) * 20), size: 14, color: RGBA(255, 255, 255),
                                outlined: true)
            }
        }
        var made: [Int] = []
        for _ in 0..<3 {
            canvas.beginFrame(afterWorking: SDLCanvas.pacedFrameWorkLimit)
            drawTitles()
            made.append(canvas.textRenderings)
        }
        #expect(made == [1, 2, 3])
        #expect(canvas.postponedThisFrame == 3)
    }

    /// A photo with transparent pixels keeps its placeholder under it once
    /// faded in; an opaque one covers it, and the frame draws no
    /// placeholder there at all. Where the placeholder is the photo's
    /// preview (listed beforehand, as a server's manifest gives them), a
    /// see-through preview has the tile's colour under it: the window's
    /// background never shows through a photo.
    @Test(arguments: [false, true])
    func placeholdersAreLeftOutOnlyUnderOpaquePhotos(previewsListed: Bool) async throws {
        let size = CGSize(width: 390, height: 844)
        func library(transparent: Bool) -> PhotoLibrary {
            var previews: [ImageID: ThumbHash] = [:]
            let images = (0..<12).map { index -> (ImageID, Data) in
                // Left half clear (alpha 0) when `transparent`; the rest opaque red.
                var pixels = [UInt8](repeating: 0, count: 400 * 400 * 4)
                for pixel in 0..<400 * 400 where !transparent || pixel % 400 >= 200 {
                    pixels[pixel * 4] = 200
                    pixels[pixel * 4 + 3] = 255
                }
                let image = PixelImage(width: 400, height: 400, pixels: pixels)!
                previews[ImageID("photo-\(index).png")] = ThumbHash(encoding: image)
                return (ImageID("photo-\(index).png"), image.pngData()!)
            }
            let photos = InMemoryImageSource(images: images)
            let source: any ImageSource = previewsListed ? PreviewListingSource(base: photos, previews: previews) : photos
            return PhotoLibrary(source: source, credits: [], description: "test photos")
        }
        for transparent in [false, true] {
            var settings = GallerySettings()
            settings.latency = .none
            let model = GalleryModel(library: library(transparent: transparent), settings: settings, viewportSize: size)
            await model.loadPhotoList()
            model.jump(to: 0)
            await model.settle(at: 0)
            let headless = try HeadlessRenderer(size: size)
            defer { headless.close() }
            headless.renderer.showsHUD = false
            headless.renderer.showsTitles = false
            let recorder = RecordingCanvas(drawingOn: headless.canvas)
            headless.renderer.draw(model, on: recorder)
            let frame = try #require(headless.canvas.readPixels())
            let shown = model.cells.filter { $0.image != nil && $0.opacity == 1 }
            try #require(shown.count >= 4)
            if previewsListed {
                #expect(shown.allSatisfy { if case .preview = $0.placeholder { true } else { false } },
                        "every tile's placeholder is its listed preview")
            }
            if transparent {
                #expect(recorder.fills.count >= shown.count, "a placeholder under every see-through photo")
                for cell in shown where cell.frame.minY >= 0 && cell.frame.maxY <= size.height {
                    // The clear half shows the placeholder, never the window's background through the photo.
                    let pixel = try #require(frame.pixel(x: Int(cell.frame.minX) + 4, y: Int(cell.frame.midY)))
                    let background = GalleryRenderer.background
                    #expect((pixel.r, pixel.g, pixel.b) != (background.r, background.g, background.b))
                }
            } else {
                #expect(recorder.fills.isEmpty, "no placeholder drawn under an opaque photo: \(recorder.fills)")
                for cell in shown where cell.frame.minY >= 0 && cell.frame.maxY <= size.height {
                    let pixel = try #require(frame.pixel(x: Int(cell.frame.minX) + 4, y: Int(cell.frame.midY)))
                    #expect(pixel.r == 200 && pixel.g == 0 && pixel.b == 0)
                }
            }
        }
    }
}

/// Photos in memory whose previews the listing gives, as a server's
/// manifest does: every tile's placeholder is its preview from the start.
private struct PreviewListingSource: ImageSource {
    let base: InMemoryImageSource
    let previews: [ImageID: ThumbHash]

    func imageIDs() async throws(ImageSourceError) -> [ImageID] { try await base.imageIDs() }
    func data(for id: ImageID) async throws(ImageSourceError) -> Data { try await base.data(for: id) }
    func isStoredLocally(_ id: ImageID) async -> Bool { true }
    func fingerprint(for id: ImageID) async -> String? { await base.fingerprint(for: id) }
    func listedPreviews() async -> [ImageID: ThumbHash] { previews }
}

/// A canvas that records the fills it is asked for and passes every call
/// on to a real one.
@MainActor
private final class RecordingCanvas: GalleryCanvas {
    let canvas: SDLCanvas
    var fills: [CGRect] = []

    init(drawingOn canvas: SDLCanvas) { self.canvas = canvas }

    var pixelSize: CGSize { canvas.pixelSize }
    func clear(_ color: RGBA) { canvas.clear(color) }
    func fill(_ rect: CGRect, _ color: RGBA) {
        fills.append(rect)
        canvas.fill(rect, color)
    }
    func draw(_ image: PixelImage, key: ThumbnailKey, in rect: CGRect, opacity: Double) {
        canvas.draw(image, key: key, in: rect, opacity: opacity)
    }
    func isOpaque(_ image: PixelImage, key: ThumbnailKey) -> Bool { canvas.isOpaque(image, key: key) }
    func drawPreview(_ image: PixelImage, of id: ImageID, in rect: CGRect) { canvas.drawPreview(image, of: id, in: rect) }
    func isPreviewOpaque(_ image: PixelImage, of id: ImageID) -> Bool { canvas.isPreviewOpaque(image, of: id) }
    func clip(to rect: CGRect?) { canvas.clip(to: rect) }
    func drawText(_ text: String, at point: CGPoint, size: Int, color: RGBA, outlined: Bool) {
        canvas.drawText(text, at: point, size: size, color: color, outlined: outlined)
    }
}
#endif
