import Foundation
import ParallaxCore
import ParallaxHosting
import ParallaxImages
import ParallaxLayout
import Testing

@Suite("ScrollBandLoading: a declarative grid plans loading when its band or fling changes, not every frame")
@MainActor
struct ScrollBandLoadingTests: RowsFixture {
    // RowsFixture's rows; bands step 200 points.
    func makeLoading() -> ViewportLoading { ViewportLoading(loader: ImageLoader(source: InMemoryImageSource(images: []))) }

    @Test("scrolling 2,000 points a frame at a time plans once per band, and asks for thumbnails only then")
    func plansPerBand() {
        let loading = makeLoading()
        let follower = ScrollBandLoading()
        var plans = 0
        for offset in stride(from: CGFloat(0), through: 2_000, by: 10) {
            var asked = 0
            let plan = follower.scrolled(to: rect(offset), of: rows, loading: loading) { index, frame in
                asked += 1
                return thumbnail(index, frame)
            }
            if plan != nil {
                plans += 1
                #expect(offset.truncatingRemainder(dividingBy: 200) == 0, "a plan only where a band starts")
                #expect(asked == plan?.entries.count)
            } else {
                #expect(asked == 0, "no thumbnail is named between plans")
            }
        }
        #expect(plans == 11 && follower.planCount == 11 && loading.planCount == 11)
        // The plan at 2,000: rows 20…27 on screen, 28…43 ahead, and the cells take those priorities.
        #expect(loading.priority(for: ItemIndex(item: 24)) == .visible)
        #expect(loading.priority(for: ItemIndex(item: 30)) == LoadPriority(.ahead, distance: 200))
    }

    @Test("a released fling plans its landing zone at once, holds while it flies, and plans again when it lands")
    func flingLandingZone() throws {
        let loading = makeLoading()
        let follower = ScrollBandLoading()
        #expect(follower.scrolled(to: rect(1_000), of: rows, loading: loading, thumbnail: thumbnail) != nil)
        follower.released(at: 1_000, towards: 11_000)
        let fling = try #require(follower.fling)
        #expect(fling.restingOffset == 11_000 && fling.decayPerSecond == DecelerationRate.normal.decayPerSecond)
        // Same band, but a fling: the landing zone is planned before anything it passes.
        let plan = follower.scrolled(to: rect(1_000), of: rows, loading: loading, thumbnail: thumbnail)
        #expect(entries(plan, .landing) == (110...117).map(key))
        #expect(loading.priority(for: ItemIndex(item: 112)) == LoadPriority(.landing))
        // Within the band: nothing. Into the next band: planned again, still towards the landing.
        #expect(follower.scrolled(to: rect(1_150), of: rows, loading: loading, thumbnail: thumbnail) == nil)
        let next = follower.scrolled(to: rect(1_200), of: rows, loading: loading, thumbnail: thumbnail)
        #expect(entries(next, .landing) == (110...117).map(key))
        // It lands: at rest, one more plan, with no landing zone.
        let landed = follower.scrolled(to: rect(11_000), of: rows, loading: loading, thumbnail: thumbnail)
        #expect(follower.fling == nil)
        #expect(entries(landed, .landing).isEmpty && entries(landed, .visible) == (110...117).map(key))
        #expect(follower.planCount == 4)
    }

    @Test("a fling caught and dragged back ends; a release that does not fling plans nothing new")
    func caughtFling() {
        let loading = makeLoading()
        let follower = ScrollBandLoading()
        follower.released(at: 1_000, towards: 11_000)
        #expect(follower.scrolled(to: rect(1_000), of: rows, loading: loading, thumbnail: thumbnail) != nil)
        #expect(follower.scrolled(to: rect(1_300), of: rows, loading: loading, thumbnail: thumbnail) != nil)
        #expect(follower.fling != nil)
        // A finger caught it and drags back up a little: over, and planned as a still scroll.
        let caught = follower.scrolled(to: rect(1_290), of: rows, loading: loading, thumbnail: thumbnail)
        #expect(follower.fling == nil)
        #expect(entries(caught, .landing).isEmpty && entries(caught, .visible) == (12...20).map(key))
        // Let go without a fling (the scroll view's target is where it is): no fling, no new plan.
        follower.released(at: 1_290, towards: 1_290)
        #expect(follower.fling == nil)
        follower.released(at: 1_290, towards: nil)
        #expect(follower.scrolled(to: rect(1_290), of: rows, loading: loading, thumbnail: thumbnail) == nil)
        // Flung backwards past where it turned: ends when it goes past its resting place.
        follower.released(at: 1_290, towards: 500)
        #expect(follower.scrolled(to: rect(1_290), of: rows, loading: loading, thumbnail: thumbnail) != nil)
        _ = follower.scrolled(to: rect(499), of: rows, loading: loading, thumbnail: thumbnail)
        #expect(follower.fling == nil)
        #expect(follower.planCount == 5)
    }

    @Test("another layout size, viewport, loading object or an invalidation plans again at the same offset")
    func otherInputs() throws {
        let loading = makeLoading()
        let follower = ScrollBandLoading()
        #expect(follower.scrolled(to: rect(1_000), of: rows, loading: loading, thumbnail: thumbnail) != nil)
        #expect(follower.scrolled(to: rect(1_000), of: rows, loading: loading, thumbnail: thumbnail) == nil)
        // Two columns: other content, other items on screen.
        let twoColumns = try GridLayout(
            configuration: GridConfiguration(preferredItemSize: CGSize(width: 2, height: 1), margins: .zero,
                                             spacing: .zero, columns: .fixed(2)),
            itemCount: 1000, containerSize: CGSize(width: 400, height: 800))
        let plan = follower.scrolled(to: rect(1_000), of: twoColumns, loading: loading, thumbnail: thumbnail)
        #expect(entries(plan, .visible) == (20...35).map(key))
        // The same band of a taller viewport: planned.
        let taller = CGRect(x: 0, y: 1_000, width: 400, height: 820)
        #expect(follower.scrolled(to: taller, of: twoColumns, loading: loading, thumbnail: thumbnail) != nil)
        // Another screen's loading: planned for it.
        let other = makeLoading()
        #expect(follower.scrolled(to: taller, of: twoColumns, loading: other, thumbnail: thumbnail) != nil)
        #expect(other.planCount == 1)
        // Other photos: the app invalidates, and the plan is made again.
        follower.invalidate()
        other.invalidate()
        #expect(follower.scrolled(to: taller, of: twoColumns, loading: other, thumbnail: thumbnail) != nil)
        // Non-finite geometry plans nothing and does not trap.
        #expect(follower.scrolled(to: CGRect(x: 0, y: CGFloat.nan, width: 400, height: 800), of: rows, loading: other,
                                  thumbnail: thumbnail) == nil)
        #expect(follower.planCount == 5)
    }

    @Test("nothing is kept: neither the loading object nor what the naming closure captures")
    func keepsNothing() {
        final class Owner {
            let names = (0..<1000).map { ImageID("photo-\($0).jpg") }
        }
        let follower = ScrollBandLoading()
        var loading: ViewportLoading? = makeLoading()
        var owner: Owner? = Owner()
        weak let weakLoading = loading
        weak let weakOwner = owner
        if let loading, let owner {
            _ = follower.scrolled(to: rect(0), of: rows, loading: loading) { index, _ in
                ThumbnailKey(id: owner.names[index.item], size: size)
            }
        }
        loading = nil
        owner = nil
        #expect(weakLoading == nil && weakOwner == nil)
    }

    @Test("a cell asks at the priority the plan gave it, for exactly the thumbnail the plan preloads")
    func cellsTakeThePlan() async throws {
        let loading = makeLoading()
        let follower = ScrollBandLoading()
        let scroller = ParallaxScroller()
        func planned(_ index: ItemIndex, _ frame: CGRect) -> ThumbnailKey? {
            scroller.thumbnailSize(forCell: frame.size, viewportSize: CGSize(width: 400, height: 800), scale: 2)
                .map { ThumbnailKey(id: ImageID("photo-\(index.item).jpg"), size: $0) }
        }
        let plan = try #require(follower.scrolled(to: rect(0), of: rows, loading: loading, thumbnail: planned))
        // Row 10 is a screen ahead; its cell (400 × 100) asks for the same key when it is built.
        let cellKey = try #require(planned(ItemIndex(item: 10), CGRect(x: 0, y: 0, width: 400, height: 100)))
        let entry = try #require(plan.entries.first { $0.key == cellKey })
        #expect(entry.priority == LoadPriority(.ahead, distance: 200))
        let fake = FakeThumbnailLoader()
        let request = Task { await CellImageLoad().load(cellKey, priority: loading.priority(for: ItemIndex(item: 10)),
                                                        from: fake) }
        await fake.waitForRequests(1)
        #expect(fake.requests.map(\.priority) == [LoadPriority(.ahead, distance: 200)])
        request.cancel()
        _ = await request.value
    }

    @Test("thumbnail sizes: the cell plus the effect's overscan at the screen's scale; window effects span the viewport")
    func thumbnailSizes() throws {
        let depth = try #require(ParallaxScroller().thumbnailSize(forCell: CGSize(width: 100, height: 100),
                                                                  viewportSize: CGSize(width: 400, height: 800), scale: 2))
        #expect(depth == (try ThumbnailSize(width: 200, height: 320)))
        let window = ParallaxScroller(effect: .window)
        let tall = try #require(window.thumbnailSize(forCell: CGSize(width: 100, height: 100),
                                                     viewportSize: CGSize(width: 400, height: 800), scale: 1))
        let alone = try #require(window.thumbnailSize(forCell: CGSize(width: 100, height: 100), viewportSize: nil, scale: 1))
        #expect(tall.height > alone.height)
        #expect(ParallaxScroller().thumbnailSize(forCell: .zero, viewportSize: nil, scale: 2) == nil)
    }
}
