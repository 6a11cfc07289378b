import Foundation
import ParallaxCore
import ParallaxHosting
import ParallaxImages
import ParallaxLayout
import Testing
@testable import ParallaxGallery

@Suite("Gallery model")
@MainActor
struct GalleryModelTests {
    @Test func switchingLayoutsDecodesEachPictureOnceAtItsFinalSize() async throws {
        let library = PhotoLibrary.synthetic(count: 40, width: 300, height: 200)
        var settings = GallerySettings()
        settings.latency = .none
        // No preloading, so every decode is for a cell seen on screen: an interpolated size would show as extra decodes.
        let model = GalleryModel(library: library, settings: settings, viewportSize: CGSize(width: 390, height: 844),
                                 loading: .followsViewport(LoadingRanges(ahead: 0, behind: 0)))
        await model.loadPhotoList()
        model.jump(to: 400)
        await model.settle(at: 0)
        let before = await model.loader.statistics.decodes
        let top = model.topItem
        model.toggleLayout(now: 1)
        var visible = Set<Int>()
        for frame in 0...30 {
            model.update(now: 1 + Double(frame) / 60)
            visible.formUnion(model.cells.map(\.item))
            try await Task.sleep(for: .milliseconds(8))          // frames are apart: requests get under way
        }
        await model.settle(at: 2)
        await model.loader.waitUntilIdle()
        let decodes = await model.loader.statistics.decodes - before
        #expect(decodes <= visible.count, "\(decodes) decodes for \(visible.count) cells seen during the switch")
        #expect(model.settings.layout == .list)
        #expect(model.topItem == top, "the switch kept the photo at the top")
    }

    /// A phone-sized window.
    static let phone = CGSize(width: 390, height: 844)

    /// A model of `photos` small generated pictures in a ``phone`` window, listed and at its first frame.
    static func listedModel(photos: Int) async -> GalleryModel {
        var settings = GallerySettings()
        settings.latency = .none
        let model = GalleryModel(library: PhotoLibrary.synthetic(count: photos, width: 60, height: 40), settings: settings,
                                 viewportSize: phone)
        await model.loadPhotoList()
        model.update(now: 0)
        return model
    }

    /// Page Down pressed eight times in quick succession goes eight pages
    /// down, as in a browser; Page Up then comes back the same way.
    @Test func pageKeysPressedQuicklyAddUp() async throws {
        let size = Self.phone
        let model = await Self.listedModel(photos: 400)
        for press in 1...8 {
            model.glide(by: size.height)
            model.update(now: Double(press) * 0.05)                // 50 ms apart: each glide is still under way
        }
        #expect(model.scroll.target == 8 * size.height)
        var now = 0.4
        while !model.scroll.isAtRest, now < 10 { now += 1.0 / 60; model.update(now: now) }
        #expect(model.scroll.position == 8 * size.height)
        for _ in 1...3 { model.glide(by: -size.height) }
        #expect(model.scroll.target == 5 * size.height)
        // Past the end, the target stops at the end.
        model.glide(by: 1_000_000)
        #expect(model.scroll.target == model.scroll.bounds.upperBound)
    }

    /// End from the top of a long library arrives at once, gliding only
    /// the last screen; Home comes back the same way; a glide of a screen
    /// or two stays a glide all the way.
    @Test func homeAndEndArriveInAMomentFromFarAway() async throws {
        let size = Self.phone
        let model = await Self.listedModel(photos: 3_000)
        let end = model.scroll.bounds.upperBound
        #expect(end > 20 * size.height)
        model.glide(to: end)
        #expect(model.scroll.position == end - size.height, "a screen short of the end, gliding the last screen")
        #expect(model.scroll.target == end)
        // Two seconds on, within a few points of the end (a glide all the way from the top would still be
        // more than a screen away: 60,000 points × e^-4).
        var now = 0.0
        while now < 2 { now += 1.0 / 60; model.update(now: now) }
        #expect(end - model.scroll.position < 20, "\(end - model.scroll.position) points short of the end after 2 s")
        while !model.scroll.isAtRest, now < 10 { now += 1.0 / 60; model.update(now: now) }
        #expect(model.scroll.position == end)
        model.glide(to: model.scroll.bounds.lowerBound)
        #expect(model.scroll.position == size.height && model.scroll.target == 0)
        while !model.scroll.isAtRest, now < 20 { now += 1.0 / 60; model.update(now: now) }
        #expect(model.scroll.position == 0)
        // Two screens: a glide from where it is.
        model.glide(to: 2 * size.height)
        #expect(model.scroll.position == 0 && model.scroll.target == 2 * size.height)
    }

    @Test func headlessFramesDrawTheHUDWhenAsked() async throws {
        let library = PhotoLibrary.synthetic(count: 8, width: 120, height: 90)
        var settings = GallerySettings()
        settings.latency = .none
        let size = CGSize(width: 390, height: 300)
        let plain = try #require(try await GalleryRendering.frame(library: library, settings: settings, size: size, scroll: 0))
        let withHUD = try #require(try await GalleryRendering.frame(library: library, settings: settings, size: size, scroll: 0, hud: true))
        // The HUD's text sits in the top-left band; the rest of the frame is the same.
        let band = 0..<(30 * 390 * 4)
        #expect(plain.pixels[band] != withHUD.pixels[band])
        #expect(plain.pixels[(200 * 390 * 4)...] == withHUD.pixels[(200 * 390 * 4)...])
    }

    /// A second launch's first frame waits for its pictures (from the disk
    /// cache, in milliseconds) and shows them whole: no placeholders, no
    /// cross-fade from nothing.
    @Test func theFirstFrameOpensOnItsPicturesWhenTheyComeInTime() async {
        var settings = GallerySettings()
        settings.latency = .none
        let model = GalleryModel(library: PhotoLibrary.synthetic(count: 60, width: 60, height: 40), settings: settings,
                                 viewportSize: Self.phone)
        model.startListing()
        await model.waitForFirstScreen(now: 5, within: .seconds(3600))    // ends when they are in, not at the limit
        #expect(model.pendingLoads == 0)
        model.update(now: 5)                                               // the first frame
        #expect(model.cells.count >= 6)                              // a screen of tiles
        #expect(model.unsharpCellCount == 0)
        #expect(model.cells.allSatisfy { $0.opacity == 1 }, "\(model.cells.map(\.opacity))")
    }

    /// Pictures that do not come in time (a first launch's decodes) do not
    /// hold the first frame past the wait's limit: it shows the first
    /// screen's tiles waiting, and their pictures fade in as they arrive.
    @Test func theFirstFrameWaitsForItsPicturesAWhileAtMost() async {
        var settings = GallerySettings()
        settings.latency = .none
        let held = HeldPictures(backing: GeneratedImageSource(pictures: (0..<60).map { .init(index: $0, width: 60, height: 40) }))
        let model = GalleryModel(library: PhotoLibrary(source: held, credits: [], description: "held pictures"),
                                 settings: settings, viewportSize: Self.phone)
        model.startListing()
        await model.listing.waitForPhotos()
        await model.waitForFirstScreen(now: 0, within: .milliseconds(10))  // the pictures are held: it ends at the limit
        model.update(now: 0)
        #expect(model.cells.count >= 6)                              // a screen of tiles
        #expect(model.unsharpCellCount == model.cells.count)
        #expect(model.pendingLoads == model.cells.count)
        await held.open()
        await model.settle(at: 1, completingFades: false)
        #expect(model.unsharpCellCount == 0)
        #expect(model.cells.allSatisfy { $0.opacity == 0 }, "the pictures fade in from the frame they arrive in")
    }

    /// The wait is for the pictures of the screen it laid out, and the
    /// first frame shows that screen whole: newer photos the listing brings
    /// meanwhile (above these; their pictures held here) come on the frame
    /// after, as without the wait. A wait that laid out again after the
    /// pictures came let the first frame take in those newer photos, and
    /// drew their placeholders instead.
    @Test func theFirstFrameShowsTheScreenItWaitedFor() async throws {
        var settings = GallerySettings()
        settings.latency = .none
        let pictures = (0..<80).map { GeneratedImageSource.Picture(index: $0, width: 60, height: 40) }
        let ids = pictures.map(GeneratedImageSource.id(of:))
        let held = HeldPictures(backing: GeneratedImageSource(pictures: pictures), holding: Set(ids[40...]))
        let (events, feed) = AsyncStream.makeStream(of: ListingEvent.self, bufferingPolicy: .unbounded)
        var library = PhotoLibrary(source: held, credits: [], description: "held newer pictures")
        library.makeListing = { _, _ in events }
        let model = GalleryModel(library: library, settings: settings, viewportSize: Self.phone)
        model.startListing()
        feed.yield(.photos(ids[..<40].enumerated().map { FoundPhoto(id: $1, fileTime: 1_800_000_000 - Int64($0)) }))
        await model.listing.waitForPhotos()
        feed.yield(.photos(ids[40...].enumerated().map { FoundPhoto(id: $1, fileTime: 1_900_000_000 - Int64($0)) }))
        feed.yield(.finished(FolderScan.Report()))
        feed.finish()
        await model.listing.waitUntilFinished()
        await model.waitForFirstScreen(now: 0, within: .seconds(3600))        // ends when they are in
        #expect(model.pendingLoads == 0)
        model.update(now: 0)                                                  // the first frame
        #expect(model.photos.count == 40)
        #expect(model.cells.count >= 6 && model.unsharpCellCount == 0, "the first frame shows the screen it waited for")
        model.update(now: 1.0 / 60)                                           // the next takes in the newer photos
        #expect(model.photos.count == 80)
        #expect(model.photos.first == ids[40])
        await held.open()
    }

    /// A folder's walk waits after its first batch until the first screen
    /// is full (``FirstScreenSignal``): the model gives the signal on the
    /// frame that finds the screen full (the one after the frame that
    /// filled it), or, when its pictures do not come,
    /// after ``GalleryModel/firstScreenWait`` of frames.
    @Test func theListingIsToldWhenTheFirstScreenIsFull() async throws {
        var settings = GallerySettings()
        settings.latency = .none
        let pictures = (0..<40).map { GeneratedImageSource.Picture(index: $0, width: 60, height: 40) }
        let ids = pictures.map(GeneratedImageSource.id(of:))
        for picturesCome in [true, false] {
            let held = HeldPictures(backing: GeneratedImageSource(pictures: pictures))
            let (events, feed) = AsyncStream.makeStream(of: ListingEvent.self, bufferingPolicy: .unbounded)
            var library = PhotoLibrary(source: held, credits: [], description: "held pictures")
            library.makeListing = { _, _ in events }
            let model = GalleryModel(library: library, settings: settings, viewportSize: Self.phone)
            model.startListing()
            let signal = model.listingProgress.firstScreen
            feed.yield(.photos(ids.enumerated().map { FoundPhoto(id: $1, fileTime: 1_800_000_000 - Int64($0)) }))
            await model.listing.waitForPhotos()
            model.update(now: 0)
            #expect(model.unsharpCellCount > 0 && !signal.isGiven, "the screen's pictures are held")
            model.update(now: 0.5)
            #expect(!signal.isGiven)
            if picturesCome {
                await held.open()
                await model.waitForFirstScreen(now: 0.6, within: .seconds(3600))
                model.update(now: 0.6)                                        // the frame that fills it
                #expect(model.unsharpCellCount == 0)
                model.update(now: 0.6 + 1.0 / 60)
                #expect(signal.isGiven, "given on the frame that finds the screen full")
            } else {
                model.update(now: GalleryModel.firstScreenWait)
                #expect(model.unsharpCellCount > 0 && signal.isGiven, "given after a second of frames at most")
                await held.open()
            }
            feed.finish()
        }
    }

    @Test func picturesOfCellsThatScrolledAwayAreLetGo() async throws {
        let library = PhotoLibrary.synthetic(count: 200, width: 120, height: 90)
        var settings = GallerySettings()
        settings.latency = .none
        let model = GalleryModel(library: library, settings: settings, viewportSize: CGSize(width: 390, height: 844))
        await model.loadPhotoList()
        for step in 0..<12 {
            model.jump(to: CGFloat(step) * 900)
            await model.settle(at: Double(step))
        }
        #expect(model.heldPictureCount <= model.cells.count)
    }
}

/// A source whose pictures (`holding`, or all) wait until the test opens
/// it; listing is not held.
private actor HeldPictures: ImageSource {
    let backing: GeneratedImageSource
    let holding: Set<ImageID>?
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(backing: GeneratedImageSource, holding: Set<ImageID>? = nil) {
        self.backing = backing
        self.holding = holding
    }

    nonisolated func imageIDs() async throws(ImageSourceError) -> [ImageID] { try await backing.imageIDs() }
    nonisolated func isStoredLocally(_ id: ImageID) async -> Bool { true }

    func data(for id: ImageID) async throws(ImageSourceError) -> Data {
        if !isOpen, holding?.contains(id) ?? true { await withCheckedContinuation { waiting.append($0) } }
        return try await backing.data(for: id)
    }

    func open() {
        isOpen = true
        for waiter in waiting { waiter.resume() }
        waiting = []
    }
}
