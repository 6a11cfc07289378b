import Foundation
import ParallaxCore
import ParallaxHosting
import ParallaxImages
import ParallaxLayout
import Testing

@Suite("Loading ranges: what to load, and how urgently, for a moving viewport")
struct LoadingRangesTests {
    /// A list of 400 × 100 rows with no gaps: row `i` spans `100 i ..< 100 i + 100`.
    let rows = try! GridLayout(
        configuration: GridConfiguration(preferredItemSize: CGSize(width: 4, height: 1), margins: .zero,
                                         spacing: .zero, columns: .fixed(1)),
        itemCount: 1000, containerSize: CGSize(width: 400, height: 800))

    func viewport(at offset: CGFloat) -> CGRect { CGRect(x: 0, y: offset, width: 400, height: 800) }

    func plan(_ ranges: LoadingRanges = LoadingRanges(), at offset: CGFloat, motion: ScrollMotion? = nil,
              direction: CGFloat = 1, loadTime: CGFloat? = nil) -> [LoadingRanges.PlannedItem] {
        var items: [LoadingRanges.PlannedItem] = []
        ranges.plan(in: rows, visibleRect: viewport(at: offset), motion: motion ?? .resting(at: offset),
                    direction: direction, expectedLoadTime: loadTime, into: &items)
        return items
    }

    func items(_ plan: [LoadingRanges.PlannedItem], in range: LoadPriority.Range) -> [Int] {
        plan.filter { $0.priority.range == range }.map(\.index.item)
    }

    @Test func atRestItLoadsTheScreenTwoScreensAheadAndHalfAScreenBehind() {
        let planned = plan(at: 1000)
        #expect(items(planned, in: .visible) == Array(10...17))
        #expect(items(planned, in: .landing).isEmpty)
        #expect(items(planned, in: .ahead) == Array(18...33))                  // 1800 ..< 3400
        #expect(items(planned, in: .behind) == [9, 8, 7, 6].reversed())        // 600 ..< 1000
        // Distances are the gap to the screen: the row just below it is 0 pt away, the next 100 pt.
        #expect(planned.first { $0.index.item == 18 }?.priority == LoadPriority(.ahead, distance: 0))
        #expect(planned.first { $0.index.item == 33 }?.priority == LoadPriority(.ahead, distance: 1500))
        #expect(planned.first { $0.index.item == 6 }?.priority == LoadPriority(.behind, distance: 300))
        // Having last scrolled up, it preloads upwards.
        let upwards = plan(at: 1000, direction: -1)
        #expect(items(upwards, in: .ahead).sorted() == Array(0...9))
        #expect(items(upwards, in: .behind).sorted() == Array(18...21))
    }

    @Test func aFlingLoadsWhereItLandsThenPastItThenWhatItPasses() {
        // 1000 → 11000, e^(−2t): rows 110…117 are where it lands.
        let fling = ScrollMotion(offset: 1000, restingOffset: 11_000, decayPerSecond: 2)
        let planned = plan(at: 1000, motion: fling)
        #expect(items(planned, in: .visible) == Array(10...17))
        #expect(items(planned, in: .landing) == Array(110...117))
        #expect(items(planned, in: .behind).sorted() == Array(6...9))
        let ahead = items(planned, in: .ahead)
        // Past the landing zone first (two screens), then the path, nearest first.
        #expect(ahead == Array(118...133) + Array(18...109))
        #expect(Set(planned.map(\.index)).count == planned.count, "no item planned twice")
    }

    @Test func tilesTheFlingCarriesOffBeforeALoadCouldFinishAreLeftOut() {
        let fling = ScrollMotion(offset: 1000, restingOffset: 11_000, decayPerSecond: 2)
        let loadTime: CGFloat = 0.3
        let planned = plan(at: 1000, motion: fling, loadTime: loadTime)
        // When a load started now finishes, the viewport's top is at 11000 − 10000 e^(−0.6) ≈ 5511.9: every
        // row ending above that has gone by then, so is not worth loading; rows from 55 on are still to come.
        let topThen = 11_000 - 10_000 * exp(-2 * loadTime)
        let firstWorthLoading = Int((topThen / 100).rounded(.down))
        #expect(firstWorthLoading == 55)
        #expect(items(planned, in: .visible).isEmpty, "the whole screen has scrolled off within 42 ms")
        #expect(items(planned, in: .landing) == Array(110...117))
        #expect(items(planned, in: .ahead) == Array(118...133) + Array(firstWorthLoading...109))
    }

    @Test func backwardsEverythingMirrors() {
        let fling = ScrollMotion(offset: 20_000, restingOffset: 10_000, decayPerSecond: 2)
        let planned = plan(at: 20_000, motion: fling)
        #expect(items(planned, in: .visible) == Array(200...207))
        #expect(items(planned, in: .landing) == Array(100...107))
        #expect(items(planned, in: .behind).sorted() == Array(208...211))
        // Past the landing zone upwards (8400 ..< 10000), then the path from the screen's top down to the landing zone.
        let ahead = items(planned, in: .ahead)
        #expect(Set(ahead.prefix(16)) == Set(84...99))
        #expect(Array(ahead.dropFirst(16)) == Array((108...199).reversed()))
    }

    @Test func theCapDropsTheFarthestPassingTilesFirst() {
        let fling = ScrollMotion(offset: 1000, restingOffset: 11_000, decayPerSecond: 2)
        let planned = plan(LoadingRanges(maximumItems: 50), at: 1000, motion: fling)
        #expect(planned.count == 50)
        // 8 visible + 8 landing + 16 ahead + 4 behind = 36; the 14 nearest of the path fill the rest.
        #expect(items(planned, in: .ahead) == Array(118...133) + Array(18...31))
        #expect(items(planned, in: .landing) == Array(110...117) && items(planned, in: .visible) == Array(10...17))
    }

    @Test func backwardTheCapAlsoKeepsTheNearestPassingTiles() {
        let fling = ScrollMotion(offset: 20_000, restingOffset: 10_000, decayPerSecond: 2)
        let planned = plan(LoadingRanges(maximumItems: 50), at: 20_000, motion: fling)
        #expect(planned.count == 50)
        // 8 visible + 8 landing + 16 ahead + 4 behind = 36; the path runs from row 199 down, nearest first.
        #expect(Array(items(planned, in: .ahead).dropFirst(16)) == Array((186...199).reversed()))
    }

    @Test func badInputPlansNothingOrCountsAsNoEstimate() {
        var items: [LoadingRanges.PlannedItem] = [LoadingRanges.PlannedItem(index: ItemIndex(item: 3), priority: .visible)]
        for rect in [CGRect.zero, CGRect(x: 0, y: CGFloat.nan, width: 400, height: 800),
                     CGRect(x: 0, y: 0, width: 400, height: CGFloat.infinity)] {
            LoadingRanges().plan(in: rows, visibleRect: rect, motion: .resting(at: 0), into: &items)
            #expect(items.isEmpty)
        }
        let fling = ScrollMotion(offset: 1000, restingOffset: 11_000, decayPerSecond: 2)
        #expect(plan(at: 1000, motion: fling, loadTime: .nan) == plan(at: 1000, motion: fling))
        #expect(plan(at: 1000, motion: fling, loadTime: -1) == plan(at: 1000, motion: fling))
        let clamped = LoadingRanges(ahead: .nan, behind: -3, maximumItems: -5)
        #expect(clamped.ahead == 0 && clamped.behind == 0 && clamped.maximumItems == 1)
        #expect(plan(clamped, at: 1000).map(\.index.item) == [10])
        let empty = try! GridLayout(configuration: .grid, itemCount: 0, containerSize: CGSize(width: 400, height: 800))
        LoadingRanges().plan(in: empty, visibleRect: viewport(at: 0), motion: fling, into: &items)
        #expect(items.isEmpty)
    }

    @Test func invariantsOverRandomGridsAndFlings() throws {
        var rng = SplitMix64(seed: 10)
        for _ in 0..<300 {
            let width = CGFloat.random(in: 200...1400, using: &rng)
            let count = Int.random(in: 0...5000, using: &rng)
            let layout = try GridLayout(configuration: .grid, itemCount: count, containerSize: CGSize(width: width, height: 800))
            let top = max(layout.contentExtent - 800, 0)
            let offset = CGFloat.random(in: 0...max(top, 1), using: &rng)
            let resting = CGFloat.random(in: 0...max(top, 1), using: &rng)
            let motion = Bool.random(using: &rng) ? ScrollMotion(offset: offset, restingOffset: resting, decayPerSecond: 2.002)
                                                  : .resting(at: offset)
            let ranges = LoadingRanges(ahead: .random(in: 0...3, using: &rng), behind: .random(in: 0...1, using: &rng),
                                       maximumItems: .random(in: 1...400, using: &rng))
            let rect = CGRect(x: 0, y: offset, width: width, height: 800)
            var planned: [LoadingRanges.PlannedItem] = []
            ranges.plan(in: layout, visibleRect: rect, motion: motion, expectedLoadTime: nil, into: &planned)
            #expect(planned.count <= ranges.maximumItems)
            #expect(Set(planned.map(\.index)).count == planned.count)
            #expect(planned.allSatisfy { (0..<count).contains($0.index.item) && $0.priority.range != .outside })
            // Ranges come in order of urgency: visible, landing, then the rest.
            let ranks = planned.map(\.priority.range)
            let urgentPrefix = ranks.prefix { $0 >= .landing }
            #expect(!ranks.dropFirst(urgentPrefix.count).contains { $0 >= .landing })
            // Nothing dropped: every tile on screen is planned visible, unless the cap cut the screen itself.
            let onScreen = layout.items(in: rect).filter { $0.frame.minY < rect.maxY && $0.frame.maxY > rect.minY }
            if onScreen.count <= ranges.maximumItems {
                let visible = Set(planned.filter { $0.priority.range == .visible }.map(\.index))
                #expect(visible == Set(onScreen.map(\.id)))
            }
        }
    }
}
