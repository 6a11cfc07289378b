import Foundation
import ParallaxCore
import ParallaxHosting
import ParallaxImages
import ParallaxLayout
import Testing

@Suite("ViewportLoading: plans follow the viewport, not every frame")
@MainActor
struct ViewportLoadingTests: RowsFixture {

    @Test func itPlansWhenTheViewportReachesOtherItemsOnly() throws {
        let loading = ViewportLoading(loader: ImageLoader(source: InMemoryImageSource(images: [])))
        let first = loading.update(layout: rows, visibleRect: rect(1000), motion: .resting(at: 1000), thumbnail: thumbnail)
        #expect(entries(first, .visible) == (10...17).map(key))
        #expect(entries(first, .ahead) == (18...33).map(key))
        #expect(loading.priority(for: ItemIndex(item: 12)) == .visible)
        #expect(loading.priority(for: ItemIndex(item: 20)) == LoadPriority(.ahead, distance: 200))
        #expect(loading.priority(for: ItemIndex(item: 500)) == .visible, "an item not planned yet is asked for as visible")
        // The same items on screen: the plan holds, and the thumbnail closure is not even called.
        let again = loading.update(layout: rows, visibleRect: rect(1000), motion: .resting(at: 1000)) { _, _ in
            Issue.record("asked for a thumbnail with nothing to plan")
            return nil
        }
        #expect(again == nil && loading.planCount == 1)
        // Row 18 comes into view: a new plan. Scrolling within the same rows: none.
        #expect(loading.update(layout: rows, visibleRect: rect(1020), motion: .resting(at: 1020), thumbnail: thumbnail) != nil)
        #expect(loading.update(layout: rows, visibleRect: rect(1030), motion: .resting(at: 1030), thumbnail: thumbnail) == nil)
        // Scrolling back up turns the preloading around.
        let up = loading.update(layout: rows, visibleRect: rect(960), motion: .resting(at: 960), thumbnail: thumbnail)
        #expect(Set(entries(up, .ahead)) == Set((0...8).map(key)), "row 9 is on screen")
        loading.invalidate()
        #expect(loading.update(layout: rows, visibleRect: rect(960), motion: .resting(at: 960), thumbnail: thumbnail) != nil)
        #expect(loading.planCount == 4)
    }

    @Test func aFlingPlansItsLandingZoneAndSetsPassingTilesAside() async throws {
        // One load of at least 50 ms teaches the loader how long loads take.
        let photo = try #require(PixelImage(width: 8, height: 8, filledWith: (1, 2, 3, 255)).pngData())
        let server = SimulatedImageServer(backing: InMemoryImageSource(images: [("photo-0.jpg", photo)]),
                                          behavior: .init(latency: .milliseconds(50) ... .milliseconds(50)))
        let loader = ImageLoader(source: server)
        _ = try await loader.image(for: key(0))
        let typical = try #require(loader.typicalLoadTime)
        #expect(typical >= .milliseconds(50))
        let loading = ViewportLoading(loader: loader)
        // 1000 → 11000 at e^(−2t): the whole screen has scrolled off within 42 ms, before any load could finish.
        let fling = ScrollMotion(offset: 1000, restingOffset: 11_000, decayPerSecond: 2)
        let plan = loading.update(layout: rows, visibleRect: rect(1000), motion: fling, thumbnail: thumbnail)
        #expect(entries(plan, .landing) == (110...117).map(key))
        #expect(entries(plan, .visible).isEmpty)
        #expect(Set(entries(plan, .outside)) == Set((10...17).map(key)))
        #expect((10...17).allSatisfy { loading.priority(for: ItemIndex(item: $0)) == .outside })
        #expect(loading.priority(for: ItemIndex(item: 112)) == LoadPriority(.landing))
    }

    @Test func itemsWithoutAThumbnailAreRankedButNotLoaded() {
        let loading = ViewportLoading(loader: ImageLoader(source: InMemoryImageSource(images: [])))
        let plan = loading.update(layout: rows, visibleRect: rect(0), motion: .resting(at: 0)) { index, _ in
            index.item.isMultiple(of: 2) ? self.key(index.item) : nil
        }
        #expect(entries(plan, .visible) == stride(from: 0, through: 6, by: 2).map(key))
        #expect(loading.priority(for: ItemIndex(item: 3)) == .visible)
        // Bad geometry plans nothing and does not trap.
        loading.invalidate()
        let none = loading.update(layout: rows, visibleRect: CGRect(x: 0, y: CGFloat.nan, width: 400, height: 800),
                                  motion: .resting(at: .nan), thumbnail: thumbnail)
        #expect(none?.entries.isEmpty ?? true)
    }

    @Test func aPlanMadeElsewhereTakesTheViewportsPlaceUntilTheNextUpdate() {
        let loading = ViewportLoading(loader: ImageLoader(source: InMemoryImageSource(images: [])))
        let fling = ScrollMotion(offset: 1000, restingOffset: 11_000, decayPerSecond: 2)
        loading.update(layout: rows, visibleRect: rect(1000), motion: fling, thumbnail: thumbnail)
        #expect(loading.priority(for: ItemIndex(item: 112)) == LoadPriority(.landing))
        // A pinch's plan: every item it names, and every other, is asked for as visible meanwhile.
        var pinch = LoadPlan()
        pinch.append(key(3), priority: .visible)
        loading.follow(pinch)
        #expect(loading.planCount == 2)
        #expect(loading.priority(for: ItemIndex(item: 112)) == .visible)
        #expect(loading.priority(for: ItemIndex(item: 12)) == .visible)
        // The same viewport plans again: the pinch's plan replaced the one it had.
        let again = loading.update(layout: rows, visibleRect: rect(1000), motion: fling, thumbnail: thumbnail)
        #expect(entries(again, .landing) == (110...117).map(key))
        #expect(loading.planCount == 3)
    }
}
