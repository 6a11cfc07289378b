import Foundation
import ParallaxCore
import ParallaxHosting
import ParallaxImages
import ParallaxLayout
import Testing

/// A flow layout as UIKit would answer `layoutAttributesForElements(in:)`: three columns of 130 × 130 cells with
/// 10 pt gaps, 1,000 items in one section, 390 wide. It knows nothing of flings or loading.
struct FakeFlowLayout {
    let columns = 3, side: CGFloat = 130, gap: CGFloat = 10, count = 1_000
    var contentSize: CGSize { CGSize(width: 390, height: CGFloat((count + columns - 1) / columns) * (side + gap)) }
    func frame(of item: Int) -> CGRect {
        CGRect(x: CGFloat(item % columns) * side, y: CGFloat(item / columns) * (side + gap), width: side, height: side)
    }
    /// What UIKit answers: every item whose frame meets `rect` (counted calls tell how much was read).
    func attributes(in rect: CGRect) -> [(ItemIndex, CGRect)] {
        let firstRow = max(Int((rect.minY / (side + gap)).rounded(.down)), 0)
        let lastRow = Int((rect.maxY / (side + gap)).rounded(.down))
        guard lastRow >= firstRow else { return [] }
        return (firstRow * columns...min(lastRow * columns + columns - 1, count - 1)).compactMap { item in
            guard item >= 0 else { return nil }
            let frame = frame(of: item)
            return frame.intersects(rect) ? (ItemIndex(item: item), frame) : nil
        }
    }
    /// The snapshot an adapter builds from the attributes in `rects`.
    func snapshot(_ rects: [CGRect]) -> ItemSnapshotLayout {
        ItemSnapshotLayout(axis: .vertical, contentSize: contentSize, itemCounts: [count],
                           items: rects.flatMap { attributes(in: $0) })
    }
}

@MainActor
@Suite("Loading ahead with any layout: look-ahead regions over layout attributes")
struct LookAheadLoadingTests {
    let flow = FakeFlowLayout()
    let size = try! ThumbnailSize(width: 40, height: 40)
    func key(_ item: Int) -> ThumbnailKey { ThumbnailKey(id: ImageID("photo-\(item).jpg"), size: size) }
    func viewport(_ offset: CGFloat) -> CGRect { CGRect(x: 0, y: offset, width: 390, height: 844) }

    @Test("a flow-like layout gets ahead ranges: items below the screen are requested before their cells appear")
    func aheadBeforeCellsAppear() throws {
        let loading = ViewportLoading(loader: ImageLoader(source: InMemoryImageSource(images: [])))
        var requested: [Int: LoadPriority] = [:]
        var offset: CGFloat = 0
        while offset < 20_000 {
            let visible = viewport(offset)
            let motion = ScrollMotion.resting(at: offset)
            let onScreen = flow.snapshot([visible])
            // Items on screen now were requested earlier, ahead of the viewport (after the first screen).
            if offset > 0 {
                onScreen.forEachItem(in: visible) { index, _ in
                    #expect(requested[index.item] != nil, "item \(index.item) was planned before it appeared")
                }
            }
            if loading.needsPlan(layout: onScreen, visibleRect: visible, motion: motion) {
                let region = LookAheadRegion(visibleRect: visible, contentSize: flow.contentSize, axis: .vertical,
                                             motion: motion, direction: loading.direction(at: offset), ranges: loading.ranges)
                let plan = try #require(loading.update(layout: flow.snapshot(region.rects), visibleRect: visible,
                                                       motion: motion) { index, _ in key(index.item) })
                for entry in plan.entries { requested[Int(entry.key.id.rawValue.dropFirst(6).dropLast(4))!] = entry.priority }
            } else {
                #expect(loading.update(layout: onScreen, visibleRect: visible, motion: motion) { _, _ in nil } == nil)
            }
            offset += 97
        }
        #expect(loading.planCount > 10 && loading.planCount < 200, "a plan when new rows arrive, not every frame")
    }

    @Test("a fling's landing zone, predicted from the release velocity, is planned before anything it passes")
    func landingZone() throws {
        let loading = ViewportLoading(loader: ImageLoader(source: InMemoryImageSource(images: [])))
        let range: ClosedRange<CGFloat> = 0...(flow.contentSize.height - 844)
        let fling = try #require(FlingPrediction(offset: 1_000, velocity: 6_000, rate: .normal, range: range))
        #expect(abs(fling.restingOffset - (1_000 + 6_000 / DecelerationRate.normal.decayPerSecond)) < 1e-6)
        let motion = fling.motion(at: 1_000, isDecelerating: true)
        let visible = viewport(1_000)
        let region = LookAheadRegion(visibleRect: visible, contentSize: flow.contentSize, axis: .vertical,
                                     motion: motion, ranges: loading.ranges)
        let plan = try #require(loading.update(layout: flow.snapshot(region.rects), visibleRect: visible, motion: motion) {
            index, _ in key(index.item)
        })
        let landing = Set(plan.entries.filter { $0.priority.range == .landing }.map(\.key))
        let expected = Set(flow.attributes(in: viewport(fling.restingOffset)).filter { !$0.1.intersects(visible) }
            .map { key($0.0.item) })
        #expect(!landing.isEmpty && landing == expected)
        let ranks = plan.entries.map(\.priority.range)
        let lastLanding = try #require(ranks.lastIndex(of: .landing))
        #expect(ranks.firstIndex(of: .ahead).map { $0 > lastLanding } ?? true, "the landing zone is listed before anything ahead")
    }

    @Test("regions: one rectangle for a short fling or a still scroll, two when the fling goes far; clamped to content")
    func regions() throws {
        let ranges = LoadingRanges(ahead: 2, behind: 0.5)
        let content = CGSize(width: 390, height: 100_000)
        let still = LookAheadRegion(visibleRect: viewport(5_000), contentSize: content, axis: .vertical,
                                    motion: .resting(at: 5_000), ranges: ranges)
        #expect(still.rects == [CGRect(x: 0, y: 5_000 - 422, width: 390, height: 422 + 844 + 2 * 844)])
        let up = LookAheadRegion(visibleRect: viewport(5_000), contentSize: content, axis: .vertical,
                                 motion: .resting(at: 5_000), direction: -1, ranges: ranges)
        #expect(up.rects == [CGRect(x: 0, y: 5_000 - 2 * 844, width: 390, height: 2 * 844 + 844 + 422)])
        let far = LookAheadRegion(visibleRect: viewport(5_000), contentSize: content, axis: .vertical,
                                  motion: ScrollMotion(offset: 5_000, restingOffset: 50_000, decayPerSecond: 2), ranges: ranges)
        #expect(far.rects == [CGRect(x: 0, y: 5_000 - 422, width: 390, height: 422 + 844 + 844),
                              CGRect(x: 0, y: 50_000, width: 390, height: 3 * 844)])
        let top = LookAheadRegion(visibleRect: viewport(0), contentSize: content, axis: .vertical,
                                  motion: ScrollMotion(offset: 0, restingOffset: -5_000, decayPerSecond: 2), ranges: ranges)
        #expect(top.rects.allSatisfy { $0.minY >= -844 })
        #expect(LookAheadRegion(visibleRect: .zero, contentSize: content, axis: .vertical, motion: .resting(at: 0),
                                ranges: ranges).rects.isEmpty)
    }

    @Test("fling prediction: clamped to the content, nothing for a still release, at rest once caught")
    func flingPrediction() throws {
        #expect(FlingPrediction(offset: 100, velocity: 0, rate: .normal, range: 0...1_000) == nil)
        #expect(FlingPrediction(offset: 0, velocity: -3_000, rate: .normal, range: 0...1_000) == nil, "already at the top")
        let clamped = try #require(FlingPrediction(offset: 900, velocity: 9_000, rate: .fast, range: 0...1_000))
        #expect(clamped.restingOffset == 1_000)
        #expect(clamped.motion(at: 950, isDecelerating: false) == .resting(at: 950))
        #expect(clamped.motion(at: 950, isDecelerating: true).restingOffset == 1_000)
    }

    @Test("a snapshot keeps the first frame of an item listed twice and answers frames of what it read only")
    func snapshot() {
        let layout = ItemSnapshotLayout(axis: .vertical, contentSize: CGSize(width: 100, height: 1_000), itemCounts: [5, 3],
                                        items: [(ItemIndex(item: 2), CGRect(x: 0, y: 200, width: 100, height: 100)),
                                                (ItemIndex(item: 0, section: 1), CGRect(x: 0, y: 600, width: 100, height: 100)),
                                                (ItemIndex(item: 2), CGRect(x: 0, y: 900, width: 100, height: 100))])
        #expect(layout.count == 2 && layout.numberOfSections == 2 && layout.numberOfItems(inSection: 1) == 3)
        #expect(layout.numberOfItems(inSection: 7) == 0)
        #expect(layout.frame(of: ItemIndex(item: 2)) == CGRect(x: 0, y: 200, width: 100, height: 100))
        #expect(layout.frame(of: ItemIndex(item: 3)) == nil)
        #expect(layout.items(in: CGRect(x: 0, y: 0, width: 100, height: 1_000)).map(\.id)
                == [ItemIndex(item: 2), ItemIndex(item: 0, section: 1)])
    }
}
