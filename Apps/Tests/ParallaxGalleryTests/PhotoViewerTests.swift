import Foundation
import ParallaxCore
import ParallaxHosting
import ParallaxImages
import Testing
@testable import ParallaxGallery

/// The detail view over a real grid of generated 1200 × 900 photos at 1280 × 800, its pictures decoded for real.
@Suite("Photo viewer: from the tile to full screen and back")
@MainActor
struct PhotoViewerTests {
    static let size = CGSize(width: 1280, height: 800)

    /// A grid of `count` generated photos (small ones by default: generating pixels is slow in a debug build).
    func prepared(count: Int = 40, width: Int = 240, height: Int = 180) async -> (GalleryModel, PhotoViewer) {
        var settings = GallerySettings()
        settings.latency = .none
        let model = GalleryModel(library: PhotoLibrary.synthetic(count: count, width: width, height: height), settings: settings,
                                 viewportSize: Self.size)
        await model.loadPhotoList()
        model.update(now: 0)
        await model.settle(at: 0)
        return (model, PhotoViewer.make(for: model))
    }

    /// Runs frames at 60 per second from `start` to `end`, grid first, as the window does.
    func frames(_ model: GalleryModel, _ viewer: PhotoViewer, from start: Double, to end: Double,
                _ body: (Double) -> Void = { _ in }) {
        var now = start
        while now <= end + 1e-9 {
            model.update(now: now)
            viewer.update(now: now)
            body(now)
            now += 1.0 / 60
        }
    }

    @Test("the photo starts exactly on its tile's content frame, grows to fit in 0.3 s, and is never blank on the way")
    func opening() async throws {
        let (model, viewer) = await prepared()
        let tile = try #require(model.tile(of: 5))
        #expect(tile.image != nil)
        #expect(viewer.open(item: 5, now: 1))
        viewer.update(now: 1)
        let first = try #require(viewer.scene)
        #expect(first.liftedItem == 5 && !first.coversGrid && first.dimming == 0)
        let photo = try #require(first.photos.first)
        // The whole photo covers the tile's content frame, centred, with the photo's shape (its own, or the tile's
        // until its header is read); the clip is the cell.
        let aspect = viewer.zoom.pictureSize.width / viewer.zoom.pictureSize.height
        let whole = PhotoZoomTransition.filledFrame(aspectRatio: aspect, covering: tile.contentFrame)
        #expect(Self.close(photo.frame, whole) && Self.close(photo.clip, tile.contentFrame.intersection(tile.frame)))
        // Until the window-size picture arrives, the tile's own thumbnail sits exactly where it was.
        if photo.screen == nil { #expect(Self.close(try #require(photo.thumbnail).rect, tile.contentFrame)) }
        var last: CGFloat = 0
        frames(model, viewer, from: 1, to: 1.35) { _ in
            guard let scene = viewer.scene, let shown = scene.photos.first else { Issue.record("no scene"); return }
            #expect(shown.screen != nil || shown.thumbnail != nil || shown.preview != nil, "a blank frame")
            #expect(viewer.openness >= last)
            last = viewer.openness
        }
        #expect(viewer.phase == .open && viewer.scene?.coversGrid == true && viewer.scene?.liftedItem == nil)
        await viewer.pictures.waitUntilIdle()
        viewer.update(now: 1.4)
        #expect(viewer.isSharp)
        let open = try #require(viewer.scene?.photos.first)
        #expect(open.screen?.image.width == 1067 && open.screen?.image.height == 800)
        #expect(viewer.zoom.pictureSize == CGSize(width: 240, height: 180))
        #expect(Self.close(open.frame, CGRect(x: 106.666_666_666_7, y: 0, width: 1066.666_666_666_7, height: 800)))
    }

    @Test("zoomed to 1:1 the part on screen is decoded at the photo's own pixels, and drawn where it belongs")
    func zoomIsSharp() async throws {
        let (model, viewer) = await prepared(count: 6, width: 1200, height: 900)
        viewer.open(item: 3, now: 0)
        frames(model, viewer, from: 0, to: 0.35)
        await viewer.pictures.waitUntilIdle()
        viewer.toggleOneToOne(at: CGPoint(x: 640, y: 400))
        #expect(abs(viewer.zoom.screenPixelsPerPhotoPixel - 1) < 1e-9)
        viewer.update(now: 0.4)
        #expect(!viewer.isSharp)
        await viewer.pictures.waitUntilIdle()
        viewer.update(now: 0.5)
        #expect(viewer.isSharp)
        let region = try #require(viewer.scene?.photos.first?.region)
        // At 1:1 a 1200 × 900 photo is narrower than the window and taller: its whole width (centred, from x = 40)
        // and more than the 800 rows on screen (the margin), at the photo's own pixels, placed one to one.
        #expect(region.image.width == 1200 && region.image.height > 800 && region.image.height <= 900)
        #expect(region.rect.minX <= 40 + 1e-6 && region.rect.maxX >= 1240 - 1e-6 && region.rect.minY <= 0 && region.rect.maxY >= 800)
        #expect(abs(region.rect.width - CGFloat(region.image.width)) < 1e-6 && abs(region.rect.height - CGFloat(region.image.height)) < 1e-6)
        // Drawn pixel for pixel: the frame's centre is the photo's centre pixel as the PNG has it.
        let headless = try HeadlessRenderer(size: Self.size)
        defer { headless.close() }
        headless.draw(model, viewer: viewer.scene)
        let frame = try #require(headless.canvas.readPixels())
        let photo = try #require(try? CodecImageDecoder().thumbnail(from: SyntheticPhotos.landscape(index: 3, width: 1200, height: 900),
                                                                     size: ThumbnailSize(width: 1200, height: 900)).image)
        let origin = viewer.zoom.frame.origin
        for (x, y) in [(640, 400), (300, 100), (1000, 700)] {
            let shown = try #require(frame.pixel(x: x, y: y))
            let px = Int((CGFloat(x) - origin.x).rounded(.down)), py = Int((CGFloat(y) - origin.y).rounded(.down))
            let expected = try #require(photo.pixel(x: px, y: py))
            let difference = max(abs(Int(shown.r) - Int(expected.r)), abs(Int(shown.g) - Int(expected.g)), abs(Int(shown.b) - Int(expected.b)))
            #expect(difference <= 2, "(\(x), \(y)): \(shown) vs \(expected)")
        }
        // Back to fit: the region is let go of.
        viewer.toggleOneToOne(at: CGPoint(x: 640, y: 400))
        #expect(viewer.zoom.isFitted && viewer.pictures.region == nil)
    }

    @Test("paging keeps three photos at most, the grid follows, and the ends hold")
    func paging() async throws {
        let (model, viewer) = await prepared(count: 40)
        viewer.open(item: 1, now: 0)
        frames(model, viewer, from: 0, to: 0.35)
        var now = 0.4
        for step in 1...20 {
            viewer.page(by: 1, now: now)
            #expect(viewer.item == 1 + step)
            frames(model, viewer, from: now, to: now + 0.3)
            now += 0.35
            #expect(viewer.pictures.entries.count <= 3)
            // The grid behind keeps the photo shown on screen, so closing lands on it.
            #expect(model.tile(of: viewer.item) != nil, "tile of \(viewer.item)")
        }
        // A drag a quarter of the way pages; a short one slides back.
        viewer.drag(by: CGSize(width: -400, height: 0))
        viewer.endDrag(velocity: 0, now: now)
        #expect(viewer.item == 22)
        frames(model, viewer, from: now, to: now + 0.3)
        now += 0.35
        viewer.drag(by: CGSize(width: 100, height: 0))
        viewer.endDrag(velocity: 0, now: now)
        #expect(viewer.item == 22)
        frames(model, viewer, from: now, to: now + 0.3)
        #expect(viewer.pageOffset == 0)
        now += 0.35
        // The last photo: no page beyond it.
        while viewer.item < 39 { viewer.page(by: 1, now: now); frames(model, viewer, from: now, to: now + 0.3); now += 0.35 }
        viewer.page(by: 1, now: now)
        #expect(viewer.item == 39)
    }

    @Test("closing after paging lands on the tile of the photo now shown, then lets every picture go")
    func closing() async throws {
        let (model, viewer) = await prepared(count: 60)
        viewer.open(item: 2, now: 0)
        frames(model, viewer, from: 0, to: 0.35)
        var now = 0.4
        for _ in 0..<35 { viewer.page(by: 1, now: now); frames(model, viewer, from: now, to: now + 0.3); now += 0.35 }
        #expect(viewer.item == 37)
        await viewer.pictures.waitUntilIdle()
        viewer.close(now: now)
        model.update(now: now)
        viewer.update(now: now)
        #expect(viewer.phase == .closing)
        let tile = try #require(model.tile(of: 37))
        let transition = try #require(viewer.transition)
        #expect(Self.close(transition.frames(at: 0).clip, tile.contentFrame.intersection(tile.frame)))
        frames(model, viewer, from: now, to: now + 0.35)
        #expect(viewer.phase == .closed && viewer.scene == nil && viewer.pictures.entries.isEmpty)
    }

    @Test("a pinch in at fit closes; the information panel says what the photo is")
    func pinchAndInfo() async throws {
        let (model, viewer) = await prepared()
        viewer.open(item: 0, now: 0)
        frames(model, viewer, from: 0, to: 0.35)
        await viewer.pictures.waitUntilIdle()
        viewer.showsInfo = true
        viewer.update(now: 0.4)
        let info = try #require(viewer.scene?.info)
        #expect(info.first == "generated-000.png")
        #expect(info.contains { $0.hasPrefix("240 × 180 pixels (0.0 MP) · ") })
        // Generated photos have no metadata date and no file: neither date is known.
        #expect(info.contains("Date taken unknown") && info.contains { $0.hasPrefix("Folder: ") })
        // The panel is drawn: its corner is darkened.
        let headless = try HeadlessRenderer(size: Self.size)
        defer { headless.close() }
        headless.draw(model, viewer: viewer.scene)
        let frame = try #require(headless.canvas.readPixels())
        let plain = try HeadlessRenderer(size: Self.size)
        defer { plain.close() }
        viewer.showsInfo = false
        plain.draw(model, viewer: viewer.scene)
        let without = try #require(plain.canvas.readPixels())
        let corner = (x: 200, y: 800 - 30)
        let darkened = try #require(frame.pixel(x: corner.x, y: corner.y)), plainPixel = try #require(without.pixel(x: corner.x, y: corner.y))
        #expect(Int(darkened.g) < Int(plainPixel.g))
        viewer.zoom(by: 0.8, about: CGPoint(x: 640, y: 400), now: 0.5)
        #expect(viewer.phase == .seekingTile)
    }

    static func close(_ a: CGRect, _ b: CGRect) -> Bool {
        abs(a.minX - b.minX) < 1e-6 && abs(a.minY - b.minY) < 1e-6 && abs(a.width - b.width) < 1e-6 && abs(a.height - b.height) < 1e-6
    }
}

extension PhotoViewerTests {
    @Test("pages asked for faster than they slide (a held arrow key), then closed at once: it still closes onto the tile")
    func fastPagingThenClose() async throws {
        let (model, viewer) = await prepared(count: 60)
        viewer.open(item: 27, now: 0)
        frames(model, viewer, from: 0, to: 0.35)
        for _ in 0..<15 { viewer.page(by: 1, now: 0.4) }
        #expect(viewer.item == 42)
        frames(model, viewer, from: 0.4, to: 2)
        viewer.close(now: 2)
        frames(model, viewer, from: 2, to: 2.5)
        #expect(viewer.phase == .closed)
    }
}

extension PhotoViewerTests {
    @Test("a photo whose regions cannot be decoded keeps its window-size picture and is tried once; a wheel stops at fit")
    func regionFailureAndWheel() async throws {
        let (model, _) = await prepared(count: 4, width: 600, height: 450)
        let decoder = RegionlessDecoder()
        let pictures = ViewerPictures(source: model.server, decoder: decoder,
                                      screenSize: try ThumbnailSize(width: 1280, height: 800, mode: .fit))
        let viewer = PhotoViewer(grid: model, pictures: pictures, bounds: CGRect(origin: .zero, size: Self.size))
        viewer.open(item: 1, now: 0)
        frames(model, viewer, from: 0, to: 0.35)
        await pictures.waitUntilIdle()
        viewer.zoom(by: 1.1, about: CGPoint(x: 640, y: 400), now: 0.4)
        #expect(!viewer.zoom.isFitted)
        for step in 0..<10 {
            let now = 0.4 + Double(step) / 60
            frames(model, viewer, from: now, to: now)
            await pictures.waitUntilIdle()
        }
        #expect(decoder.regionCalls.value == 1)
        #expect(viewer.isSharp && pictures.region == nil && viewer.scene?.photos.first?.screen != nil)
        // Back at fit, a wheel turned further out leaves the photo open; a pinch closes it.
        viewer.fit()
        viewer.zoom(by: 0.8, about: CGPoint(x: 640, y: 400), closesBelowFit: false, now: 1)
        #expect(viewer.phase == .open)
        viewer.zoom(by: 0.8, about: CGPoint(x: 640, y: 400), now: 1)
        #expect(viewer.phase == .seekingTile)
    }
}

/// The platform decoder, except that every region fails (as one over the memory budget does), counted.
private struct RegionlessDecoder: ImageDecoding {
    let base = CodecImageDecoder()
    let regionCalls = Counter()

    func thumbnail(from data: Data, size: ThumbnailSize) throws(ImageDecodingError) -> DecodedThumbnail {
        try base.thumbnail(from: data, size: size)
    }

    func image(from data: Data, region: ImageRegion) throws(ImageDecodingError) -> DecodedThumbnail {
        regionCalls.increment()
        throw .overBudget(needed: 1 << 40, budget: 256 << 20)
    }

    final class Counter: @unchecked Sendable {
        // Guarded by `lock`: decodes run on the viewer's queues, the test reads on the main actor.
        private var count = 0
        private let lock = NSLock()
        func increment() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }
}

extension PhotoViewerTests {
    @Test("closed while still opening, the photo shrinks back from where it is, never jumping open first")
    func closeWhileOpening() async throws {
        let (model, viewer) = await prepared()
        viewer.open(item: 6, now: 0)
        frames(model, viewer, from: 0, to: 0.1)
        let halfway = try #require(viewer.scene?.photos.first?.frame)
        let fitted = viewer.zoom.fittedFrame
        #expect(halfway.width < fitted.width)
        viewer.close(now: 0.1)
        var widest = halfway.width
        frames(model, viewer, from: 0.1, to: 0.5) { _ in
            if let frame = viewer.scene?.photos.first?.frame { widest = max(widest, frame.width) }
        }
        #expect(widest <= halfway.width + 1e-6, "the photo grew while closing: \(widest) > \(halfway.width)")
        #expect(viewer.phase == .closed)
    }
}
