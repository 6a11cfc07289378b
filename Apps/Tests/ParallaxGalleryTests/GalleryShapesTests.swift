// The gallery draws through SDL2, which it uses on Linux only.
#if canImport(CSDL2)
import Foundation
import ParallaxCore
import ParallaxHosting
import ParallaxImages
import ParallaxLayout
import Testing
@testable import ParallaxGallery

/// Holds every header read until opened: photo shapes that arrive late.
actor HeaderGate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private(set) var reads = 0

    func pass() async {
        reads += 1
        guard !isOpen else { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }
}

/// Pictures in memory whose headers wait behind a gate.
struct GatedHeaderSource: ImageSource {
    let base: InMemoryImageSource
    let gate: HeaderGate

    func imageIDs() async throws(ImageSourceError) -> [ImageID] { try await base.imageIDs() }
    func data(for id: ImageID) async throws(ImageSourceError) -> Data { try await base.data(for: id) }
    func isStoredLocally(_ id: ImageID) async -> Bool { true }
    func header(for id: ImageID) async throws(ImageSourceError) -> ImageHeader {
        await gate.pass()
        return try await base.header(for: id)
    }
}

/// Pictures in memory whose bytes wait behind a gate.
struct GatedDataSource: ImageSource {
    let base: InMemoryImageSource
    let gate: HeaderGate

    func imageIDs() async throws(ImageSourceError) -> [ImageID] { try await base.imageIDs() }
    func data(for id: ImageID) async throws(ImageSourceError) -> Data {
        await gate.pass()
        return try await base.data(for: id)
    }
    func isStoredLocally(_ id: ImageID) async -> Bool { true }
}

/// Quilt and waterfall in the gallery model: tiles keep a placeholder
/// shape until their photo's header is read; sizes that arrive later change
/// the layout without moving the photo at the top, even mid-fling; every
/// switch between the four layouts keeps the photo in place.
@Suite("Gallery photo shapes")
@MainActor
struct GalleryShapesTests {
    static let size = CGSize(width: 800, height: 700)

    /// Wide, tall, square and panorama photos, one in seven of them not a picture at all.
    static func images(count: Int) -> [(ImageID, Data)] {
        let shapes = [(60, 40), (40, 60), (40, 40), (90, 30), (64, 48)]
        return (0..<count).map { index in
            let id = ImageID(String(format: "shape-%03d.png", index))
            guard index % 7 != 6 else { return (id, Data("not a picture".utf8)) }
            let (width, height) = shapes[index % shapes.count]
            return (id, SyntheticPhotos.rowPattern(tag: UInt8(index % 256), width: width, height: height))
        }
    }

    func model(_ layout: GalleryLayout, count: Int = 240, gate: HeaderGate? = nil) async -> GalleryModel {
        let base = InMemoryImageSource(images: Self.images(count: count))
        let source: any ImageSource = gate.map { GatedHeaderSource(base: base, gate: $0) } ?? base
        var settings = GallerySettings()
        settings.layout = layout
        settings.latency = .none
        let library = PhotoLibrary(source: source, credits: [], description: "shapes", readsHeadersLocally: true)
        let model = GalleryModel(library: library, settings: settings, viewportSize: Self.size)
        await model.loadPhotoList()
        return model
    }

    func frames(of model: GalleryModel) -> [Int: CGRect] {
        Dictionary(uniqueKeysWithValues: model.cells.map { ($0.item, $0.frame) })
    }

    @Test(arguments: [GalleryLayout.quilt, .waterfall])
    func tilesKeepAPlaceholderShapeUntilTheirHeaderIsRead(layout: GalleryLayout) async throws {
        let gate = HeaderGate()
        let model = await model(layout, gate: gate)
        model.update(now: 0)
        #expect(model.shapes.knownCount == 0)
        for cell in model.cells {
            if layout == .quilt {
                // One square block (or two by two, featured), whatever the photo's shape.
                #expect(abs(cell.frame.width - cell.frame.height) < 1e-6, "item \(cell.item)")
            } else {
                #expect(abs(cell.frame.width / cell.frame.height - PhotoShapes.placeholderAspectRatio) < 1e-6)
            }
        }
        await gate.open()
        await model.settleShapes()
        model.update(now: 1)
        #expect(model.allShapesRead)
        #expect(model.unreadableShapeCount == 240 / 7)              // every seventh is not a picture
        for cell in model.cells {
            let readable = cell.item % 7 != 6
            let expected = readable ? model.shapes.aspectRatio(of: cell.item) : PhotoShapes.placeholderAspectRatio
            if layout == .waterfall {
                #expect(abs(cell.frame.width / cell.frame.height - expected) < 1e-6, "item \(cell.item)")
            } else {
                let span = model.shapes.quiltSpan(of: cell.item, columns: model.columnCount)
                let block = (Self.size.width - 8) / CGFloat(model.columnCount)
                #expect(abs(cell.frame.width - (CGFloat(span.width) * block - 8)) < 1e-6, "item \(cell.item)")
                #expect(abs(cell.frame.height - (CGFloat(span.height) * block - 8)) < 1e-6, "item \(cell.item)")
            }
        }
    }

    /// Sizes arriving re-lay out the photos above and around the one at the
    /// top of the screen; it stays exactly where it was.
    @Test(arguments: [GalleryLayout.quilt, .waterfall])
    func sizesThatArriveLaterKeepThePhotoAtTheTopInPlace(layout: GalleryLayout) async throws {
        let gate = HeaderGate()
        let model = await model(layout, gate: gate)
        model.jump(to: 2_000)
        model.update(now: 0)
        let top = try #require(model.topItem)
        let before = try #require(frames(of: model)[top])
        await gate.open()
        await model.settleShapes()
        model.update(now: 1)
        let after = try #require(frames(of: model)[top], "the photo at the top is still on screen")
        #expect(abs(after.minY - before.minY) < 1e-6)
        // (Another photo may now be the first one past the top edge: photos in other columns moved.)
        #expect(frames(of: model) != [top: before], "the layout did change around it")
    }

    /// Mid-fling: the relayout moves the content under the fling, and the
    /// fling goes on at the same speed.
    @Test func aFlingGoesOnThroughARelayout() async throws {
        let gate = HeaderGate()
        let model = await model(.waterfall, gate: gate)
        model.jump(to: 1_000)
        model.update(now: 0)
        model.fling(velocity: 2_500)
        var now = 0.0
        for _ in 0..<6 {
            now += 1.0 / 60
            model.update(now: now)
        }
        let top = try #require(model.topItem)
        let before = try #require(frames(of: model)[top])
        let speed = model.scroll.velocity
        await gate.open()
        await model.settleShapes()                             // relays out at once, not a frame later
        #expect(!model.scroll.isAtRest && abs(model.scroll.velocity - speed) < 1e-9)
        model.update(now: now)                                 // no time passes: only the relayout shows
        #expect(abs(try #require(frames(of: model)[top]).minY - before.minY) < 1e-6)
    }

    /// Every switch between the four layouts, animated, keeps the photo at
    /// the top of the screen where it was.
    @Test func everySwitchBetweenTheFourLayoutsKeepsThePhotoInPlace() async throws {
        let model = await model(.grid, count: 600)
        await model.settleShapes()
        model.jump(to: 3_000)
        var now = 0.0
        model.update(now: now)
        for mode in [GalleryLayout.quilt, .waterfall, .list, .quilt, .grid, .waterfall, .grid] {
            let top = try #require(model.topItem)
            let before = try #require(frames(of: model)[top])
            model.switchLayout(to: mode, now: now)
            now += GalleryModel.transitionDuration + 0.01
            model.update(now: now)
            #expect(model.settings.layout == mode)
            let after = try #require(frames(of: model)[top], "\(mode): photo \(top) on screen")
            #expect(abs(after.minY - before.minY) < 1e-6, "\(mode)")
            now += 0.1
            model.update(now: now)
        }
    }

    @Test func tabAndTheNumberKeysReachEveryLayout() {
        var mode = GalleryLayout.grid
        var seen: [GalleryLayout] = []
        for _ in 0..<4 { seen.append(mode); mode = mode.next }
        #expect(seen == [.grid, .list, .quilt, .waterfall] && mode == .grid)
        #expect(GalleryLayout.quilt.toggled == .grid && GalleryLayout.grid.toggled == .list)
    }

    /// Pixels arriving never move a tile in the quilt or the waterfall either.
    @Test(arguments: [GalleryLayout.quilt, .waterfall])
    func tileFramesAreTheSameBeforeAndAfterEveryPhotoLoads(layout: GalleryLayout) async throws {
        let base = InMemoryImageSource(images: Self.images(count: 120))
        var settings = GallerySettings()
        settings.layout = layout
        settings.latency = .slow
        let model = GalleryModel(library: PhotoLibrary(source: base, credits: [], description: "shapes", readsHeadersLocally: true),
                                 settings: settings, viewportSize: Self.size)
        await model.loadPhotoList()
        await model.settleShapes()
        model.jump(to: 300)
        model.update(now: 0)
        let before = frames(of: model)
        #expect(!before.isEmpty && model.cells.allSatisfy { $0.image == nil })
        await model.settle(at: 0)
        #expect(model.cells.allSatisfy { $0.image != nil || $0.failure != nil })
        #expect(frames(of: model) == before)
    }

    /// A pinch in the quilt changes its block columns and rests on the plain
    /// quilt of the new count, still a quilt.
    @Test func aPinchInTheQuiltStaysAQuilt() async throws {
        let model = await model(.quilt)
        await model.settleShapes()
        model.jump(to: 800)
        model.update(now: 0)
        let start = model.columnCount
        model.stepColumns(by: 1, now: 0)
        var now = 0.0
        while model.isPinching, now < 5 {
            now += 1.0 / 60
            model.update(now: now)
        }
        #expect(model.settings.layout == .quilt && model.columnCount == start + 1)
        let plain = try GalleryLayouts.layout(.quilt, columns: start + 1, count: model.photos.count, size: Self.size,
                                              shapes: model.shapes)
        let offset = model.scroll.position
        for cell in model.cells {
            let frame = try #require(plain.frame(of: ItemIndex(item: cell.item)))
            #expect(abs(frame.minY - offset - cell.frame.minY) < 1e-6 && abs(frame.minX - cell.frame.minX) < 1e-6)
        }
        // It never reaches one column: the quilt stops at two.
        for _ in 0..<10 {
            model.stepColumns(by: -1, now: now)
            while model.isPinching, now < 60 { now += 1.0 / 60; model.update(now: now) }
        }
        #expect(model.columnCount == 2 && model.settings.layout == .quilt)
    }

    /// A server's headers are requests: nothing is read until a layout that
    /// needs them is shown.
    @Test func aServersHeadersAreReadOnlyOnceALayoutNeedsThem() async throws {
        let gate = HeaderGate()
        await gate.open()
        let base = InMemoryImageSource(images: Self.images(count: 30))
        var settings = GallerySettings()
        settings.latency = .none
        let library = PhotoLibrary(source: GatedHeaderSource(base: base, gate: gate), credits: [], description: "server")
        let model = GalleryModel(library: library, settings: settings, viewportSize: Self.size)
        await model.loadPhotoList()
        model.update(now: 0)
        // Whatever reads the grid started are answered first (none, for a server's photos).
        await model.settleShapes()
        #expect(await gate.reads == 0)
        model.switchLayout(to: .waterfall, now: 0)
        await model.settleShapes()
        #expect(await gate.reads == 30 && model.allShapesRead)
    }

    /// While a folder's dates are read, photos sorted by date are in a
    /// provisional order: the loader is given half a screen ahead and none
    /// behind, not the full ranges, whose photos would mostly move before
    /// they are reached. Sorted by name, or once every date is read, the
    /// full ranges are planned.
    @Test func aProvisionalOrderIsPrefetchedOnlyJustAhead() async throws {
        let gate = HeaderGate()
        let model = await model(.grid, gate: gate)
        let full = LoadingRanges(), provisional = LoadingPlanner.provisionalRanges(of: full)
        #expect(provisional.ahead == 0.5 && provisional.behind == 0 && provisional.maximumItems == full.maximumItems)
        await model.settle(at: 0)
        model.update(now: 0.1)                                   // the first screen is full: the reads start
        #expect(model.isOrderProvisional)
        model.update(now: 0.2)
        #expect(model.planner.plannedRanges == provisional)
        model.setSort(.name)
        model.update(now: 0.3)
        #expect(!model.isOrderProvisional && model.planner.plannedRanges == full, "a name does not move")
        model.setSort(.newestFirst)
        model.update(now: 0.4)
        #expect(model.planner.plannedRanges == provisional)
        await gate.open()
        await model.settleShapes()
        model.update(now: 0.5)
        #expect(model.allDatesRead && model.planner.plannedRanges == full)
    }
}
#endif
