// The gallery draws through SDL2, which it uses on Linux only.
#if canImport(CSDL2)
import Foundation
import ParallaxCore
import ParallaxHosting
import ParallaxImages
import ParallaxLayout
import Testing
@testable import ParallaxGallery

/// Photos whose rows say which row they are (red + 256 · green) and which
/// photo (blue), made at exactly the size the gallery asks for, so the
/// thumbnail is a one-to-one copy and every screen pixel tells which
/// content row is drawn there.
@MainActor
func rowPatternLibrary(count: Int, width: Int, height: Int) -> PhotoLibrary {
    let images = (0..<count).map { (ImageID(String(format: "row-%03d.png", $0)), SyntheticPhotos.rowPattern(tag: UInt8($0), width: width, height: height)) }
    return PhotoLibrary(source: InMemoryImageSource(images: images), credits: [], description: "row patterns")
}

@MainActor
func renderedFrame(_ model: GalleryModel, size: CGSize) throws -> PixelImage {
    let headless = try HeadlessRenderer(size: size)
    defer { headless.close() }
    headless.renderer.showsHUD = false
    headless.renderer.showsTitles = false
    return try #require(headless.render(model))
}

@Suite("Rendered frames", .serialized)
@MainActor
struct RenderedFrameTests {
    static let size = CGSize(width: 390, height: 844)

    /// Every fully visible cell: the content row drawn at each screen row
    /// must be the one the effect's formula puts there.
    func checkRows(layout: GalleryLayout, effect: GalleryEffect, scrolls: [CGFloat]) async throws {
        let grid = try GridLayout(configuration: layout == .grid ? .grid : .list, itemCount: 30, containerSize: Self.size)
        let cell = grid.itemSize
        let p: CGFloat = layout == .grid ? 10 : 0.1 * cell.height
        let contentHeight: CGFloat
        switch effect {
        case .depth: contentHeight = cell.height + 2 * p
        case .window: contentHeight = Self.size.height
        case .off: contentHeight = cell.height
        }
        var settings = GallerySettings()
        settings.layout = layout
        settings.effect = effect
        settings.latency = .none
        let library = rowPatternLibrary(count: 30, width: Int(cell.width.rounded(.up)), height: Int(contentHeight.rounded(.up)))
        let model = GalleryModel(library: library, settings: settings, viewportSize: Self.size)
        await model.loadPhotoList()
        var checked = 0
        for scroll in scrolls {
            model.jump(to: scroll)
            await model.settle(at: 0)
            let frame = try renderedFrame(model, size: Self.size)
            grid.forEachItem(in: CGRect(origin: CGPoint(x: 0, y: model.scroll.position), size: Self.size)) { index, itemFrame in
                let top = itemFrame.minY - model.scroll.position
                guard top >= 0, top + itemFrame.height <= Self.size.height else { return }
                // The formula, written out independently of the scroller.
                let expectedTop: CGFloat
                switch effect {
                case .depth:
                    let offset = ((model.scroll.position + Self.size.height / 2) - itemFrame.midY) * p / (Self.size.height / 2 + itemFrame.height / 2)
                    expectedTop = -p + min(max(offset, -p), p)
                case .window: expectedTop = -top
                case .off: expectedTop = 0
                }
                let x = Int(itemFrame.maxX) - 3
                for y in stride(from: Int(top.rounded(.up)) + 1, to: Int(top + itemFrame.height) - 1, by: 7) {
                    let pixel = frame.pixel(x: x, y: y)!
                    let row = Int(pixel.r) + 256 * Int(pixel.g)
                    let expected = (CGFloat(y) + 0.5 - top - expectedTop).rounded(.down)
                    #expect(abs(CGFloat(row) - expected) <= 1, "\(layout) \(effect) scroll \(scroll) item \(index.item) y \(y)")
                    #expect(Int(pixel.b) == index.item, "photo identity")
                    checked += 1
                }
            }
        }
        #expect(checked > 100)
    }

    @Test func depthInTheList() async throws { try await checkRows(layout: .list, effect: .depth, scrolls: [0, 333, 1234.5]) }
    @Test func depthInTheGrid() async throws { try await checkRows(layout: .grid, effect: .depth, scrolls: [0, 250, 777]) }
    @Test func windowInTheList() async throws { try await checkRows(layout: .list, effect: .window, scrolls: [0, 412]) }
    @Test func windowInTheGrid() async throws { try await checkRows(layout: .grid, effect: .window, scrolls: [95, 600]) }
    @Test func offInBoth() async throws {
        try await checkRows(layout: .list, effect: .off, scrolls: [0, 500])
        try await checkRows(layout: .grid, effect: .off, scrolls: [300])
    }

    @Test func placeholdersAndTheCrossFade() async throws {
        // A solid photo (200, 100, 50).
        var pixels: [UInt8] = []
        for _ in 0..<(600 * 400) { pixels += [200, 100, 50, 255] }
        let photo = PixelImage(width: 600, height: 400, pixels: pixels)!.pngData()!
        let library = PhotoLibrary(source: InMemoryImageSource(images: (0..<20).map { (ImageID("p\($0).png"), photo) }),
                                   credits: [], description: "solid")
        // Not downloaded yet: the illustration.
        var slow = GallerySettings()
        slow.latency = .slow
        let waiting = GalleryModel(library: library, settings: slow, viewportSize: Self.size)
        await waiting.loadPhotoList()
        waiting.update(now: 0)
        // Blank until the server says whether the photo is stored (so a stored one never flashes the artwork)…
        #expect(waiting.cells.first?.placeholder == .cached)
        // The source's answer is an event: wait for each display to reach the cells, however long it takes.
        while waiting.cells.first?.placeholder != .uncached {
            await waiting.pictures.waitForNextDisplay()
            waiting.update(now: 0)
        }
        // …then the illustration: it must be downloaded.
        let first = try renderedFrame(waiting, size: Self.size)
        let sky = first.pixel(x: 40, y: 40)!
        #expect((sky.r, sky.g, sky.b) == (58, 74, 98))

        var settings = GallerySettings()
        settings.latency = .none
        // A photo decoded once has a preview: at a new size it shows that (its colour, soft) while it decodes.
        let previewing = GalleryModel(library: library, settings: settings, viewportSize: Self.size)
        await previewing.loadPhotoList()
        await previewing.settle(at: 0)
        previewing.setEffect(.off)
        previewing.update(now: 1)
        let preview = try renderedFrame(previewing, size: Self.size).pixel(x: 40, y: 40)!
        #expect(abs(Int(preview.r) - 200) <= 6 && abs(Int(preview.g) - 100) <= 6 && abs(Int(preview.b) - 50) <= 6, "\(preview)")

        // Without a preview: black while a stored photo decodes, then the cross-fade over black.
        var configuration = GalleryModel.loaderConfiguration(for: .standard, local: true)
        configuration.makesPreviews = false
        let model = GalleryModel(library: library, settings: settings, viewportSize: Self.size, loaderConfiguration: configuration)
        await model.loadPhotoList()
        await model.settle(at: 0)
        let loaded = try renderedFrame(model, size: Self.size).pixel(x: 40, y: 40)!
        #expect((loaded.r, loaded.g, loaded.b) == (200, 100, 50))
        // A new size for a stored photo with no preview: black while it decodes…
        model.setEffect(.off)
        model.update(now: 1)
        let decoding = try renderedFrame(model, size: Self.size).pixel(x: 40, y: 40)!
        #expect((decoding.r, decoding.g, decoding.b) == (0, 0, 0))
        // …then a 0.25 s cross-fade: half way, half the photo over black.
        await model.settle(at: 2, completingFades: false)
        model.update(now: 2 + GalleryModel.fadeDuration / 2)
        let half = try renderedFrame(model, size: Self.size).pixel(x: 40, y: 40)!
        #expect(abs(Int(half.r) - 100) <= 2 && abs(Int(half.g) - 50) <= 2 && abs(Int(half.b) - 25) <= 2, "\(half)")
        model.update(now: 2 + GalleryModel.fadeDuration)
        let done = try renderedFrame(model, size: Self.size).pixel(x: 40, y: 40)!
        #expect((done.r, done.g, done.b) == (200, 100, 50))
    }

    @Test func failedPicturesShowAnErrorTileAndCanBeRetried() async throws {
        let broken = InMemoryImageSource(images: [(ImageID("broken.jpg"), Data([0xFF, 0xD8, 0xFF, 0, 1, 2]))])
        var settings = GallerySettings()
        settings.latency = .none
        let model = GalleryModel(library: PhotoLibrary(source: broken, credits: [], description: "broken"), settings: settings,
                                 viewportSize: Self.size)
        await model.loadPhotoList()
        await model.settle(at: 0)
        let cell = try #require(model.cells.first)
        #expect(cell.failure != nil)
        let tile = try renderedFrame(model, size: Self.size).pixel(x: Int(cell.frame.minX) + 4, y: Int(cell.frame.minY) + 4)!
        #expect((tile.r, tile.g, tile.b) == (110, 24, 30))
        model.retry(item: 0)
        model.update(now: 1)
        #expect(model.cells.first?.failure == nil)
    }
}

#endif
