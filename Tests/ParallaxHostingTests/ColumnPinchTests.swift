import Foundation
import Testing
import ParallaxCore
import ParallaxLayout
@testable import ParallaxHosting

@Suite("Column pinch, as a scroll view drives it")
struct ColumnPinchTests {
    static let size = CGSize(width: 390, height: 844)
    static func builder(_ n: Int, _ size: CGSize, _ counts: [Int]) throws(LayoutError) -> any ItemLayout {
        var configuration = GridConfiguration.grid
        configuration.columns = .fixed(n)
        return try GridLayout(configuration: configuration, itemCounts: counts, containerSize: size)
    }

    /// Runs the settle at 60 Hz until it ends; returns the last frame's offset and visible frames.
    func settle(_ pinch: inout ColumnPinch, from start: TimeInterval) -> (CGPoint, [ItemIndex: CGRect], frames: Int) {
        var time = start, frames = 0
        var offset = pinch.contentOffset ?? .zero
        var visible: [ItemIndex: CGRect] = [:]
        while pinch.advance(to: time) {
            offset = pinch.contentOffset ?? offset
            visible = [:]
            pinch.forEachItem { visible[$0] = $1 }
            // Every item visible at the offset shown (moved into the content's bounds) is reported.
            let shown = CGRect(origin: offset, size: Self.size)
            for item in 0..<1_000 {
                let index = ItemIndex(item: item)
                if let frame = pinch.frame(of: index), frame.isVisible(in: shown) {
                    #expect(visible[index] != nil, "item \(item) is on screen at \(time) s but not reported")
                }
            }
            time += 1.0 / 60
            frames += 1
            if frames > 600 { break }
        }
        return (offset, visible, frames)
    }

    @Test func aPinchOutSettlesOnFewerColumnsWithThePhotoWhereItWas() throws {
        var pinch = ColumnPinch(columns: 3, range: 1...6, builder: Self.builder)
        let viewport = ScrollViewport(size: Self.size, contentOffset: CGPoint(x: 0, y: 2_000))
        let focus = CGPoint(x: 200, y: 400)
        let began = pinch.begin(viewport: viewport, focus: focus, containerSize: Self.size, itemCounts: [1_000])
        #expect(began)
        #expect(pinch.isActive && pinch.contentOffset == viewport.contentOffset)
        // The fingers spread to 1.3× and stay still: nearer to two columns than three.
        for step in 1...20 { pinch.change(scale: 1 + 0.3 * CGFloat(step) / 20, focus: focus) }
        guard case .pinching(let live) = pinch.phase else { Issue.record("not pinching"); return }
        #expect(live.columns == 2 && live.progress < 0.5)
        pinch.end(scaleVelocity: 0, at: 10)
        let (offset, visible, frames) = settle(&pinch, from: 10)
        #expect(!pinch.isActive && pinch.columns == 2)
        #expect(frames >= 10 && frames <= 60, "a short spring: \(frames) frames")
        // The last settling frame is the resting layout at the resting offset, to within the spring's
        // last thousandth (under two points): no visible jump when it ends.
        let rest = try pinch.restingLayout(containerSize: Self.size, itemCounts: [1_000])
        let shown = CGRect(origin: offset, size: Self.size)
        var resting: [ItemIndex: CGRect] = [:]
        rest.forEachItem(in: shown) { resting[$0] = $1 }
        #expect(Set(resting.keys) == Set(visible.keys))
        for (index, frame) in resting {
            let last = try #require(visible[index])
            #expect(abs(last.minX - frame.minX) < 2 && abs(last.minY - frame.minY) < 2 && abs(last.width - frame.width) < 2)
        }
        #expect(offset.y >= 0 && offset.y <= rest.contentSize.height - Self.size.height && abs(offset.x) < 2)
    }

    /// Pinched at the left edge from 3 columns to 4 and 5, the photo under
    /// the fingers (item 31, which a plain grid would move to the right-hand
    /// column) stays under them at every event and every settling frame, the
    /// grid never moves sideways, and it rests on a grid whose first row
    /// starts further in, so the photo is still there. A second pinch starts
    /// from that grid; another container size gets the plain grid again.
    @Test func thePhotoUnderTheFingersStaysInTheirColumnAndTheGridRestsAligned() throws {
        var pinch = ColumnPinch(columns: 3, range: 1...6, builder: Self.builder)
        let viewport = ScrollViewport(size: Self.size, contentOffset: CGPoint(x: 0, y: 1_300))
        let plain = try Self.builder(3, Self.size, [1_000])
        let focus = CGPoint(x: 40, y: 300)
        let anchor = try #require(plain.items(in: CGRect(origin: viewport.contentOffset, size: Self.size))
            .first { $0.frame.contains(CGPoint(x: focus.x, y: focus.y + 1_300)) }?.id)
        #expect(anchor.item % 3 == 0, "the photo under the fingers is in the first column")
        pinch.begin(viewport: viewport, focus: focus, containerSize: Self.size, itemCounts: [1_000])
        func underTheFingers(_ label: String) throws {
            let offset = try #require(pinch.contentOffset)
            let frame = try #require(pinch.frame(of: anchor))
            #expect(offset.x == 0, "\(label): the grid moved sideways")
            #expect(frame.minX <= focus.x + 4 && frame.maxX >= focus.x - 4, "\(label): \(frame) left x = \(focus.x)")
            #expect(frame.minY - offset.y <= focus.y && frame.maxY - offset.y >= focus.y, "\(label): \(frame) left y")
        }
        for step in 1...30 {
            pinch.change(scale: 1 - 0.42 * CGFloat(step) / 30, focus: focus)
            try underTheFingers("scale step \(step)")
        }
        pinch.end(scaleVelocity: 0, at: 0)
        var time = 0.0
        while pinch.advance(to: time) {
            try underTheFingers("settle at \(time) s")
            time += 1.0 / 60
        }
        #expect(pinch.columns == 5)
        let rest = try pinch.restingLayout(containerSize: Self.size, itemCounts: [1_000])
        let grid = try #require(rest as? GridLayout)
        #expect(grid.columnCount == 5 && grid.firstColumn(ofSection: 0) == (5 - anchor.item % 5) % 5)
        #expect(try #require(grid.frame(of: anchor)).minX < focus.x, "at rest the photo is in the first column")

        // The next pinch begins on the grid the last one rested on: its first frame is that grid.
        let next = ScrollViewport(size: Self.size, contentOffset: CGPoint(x: 0, y: 900))
        pinch.begin(viewport: next, focus: CGPoint(x: 300, y: 200), containerSize: Self.size, itemCounts: [1_000])
        #expect(pinch.frame(of: anchor) == grid.frame(of: anchor) && pinch.contentOffset == next.contentOffset)
        pinch.abandon()
        // Another container (a rotation) or other items: the builder's plain grid.
        let rotated = try #require(try pinch.restingLayout(containerSize: CGSize(width: 844, height: 390),
                                                           itemCounts: [1_000]) as? GridLayout)
        #expect(rotated.firstColumn(ofSection: 0) == 0)
        let other = try #require(try pinch.restingLayout(containerSize: Self.size, itemCounts: [999]) as? GridLayout)
        #expect(other.firstColumn(ofSection: 0) == 0)
    }

    @Test func aQuickPinchInCommitsACancelledOneReturns() throws {
        var pinch = ColumnPinch(columns: 3, range: 1...6, builder: Self.builder)
        let viewport = ScrollViewport(size: Self.size, contentOffset: CGPoint(x: 0, y: 500))
        pinch.begin(viewport: viewport, focus: CGPoint(x: 100, y: 100), containerSize: Self.size, itemCounts: [300])
        pinch.change(scale: 0.93, focus: nil)                 // a little way towards four columns...
        pinch.end(scaleVelocity: -2, at: 0)                   // ...but closing fast
        _ = settle(&pinch, from: 0)
        #expect(pinch.columns == 4)

        pinch.begin(viewport: viewport, focus: CGPoint(x: 100, y: 100), containerSize: Self.size, itemCounts: [300])
        pinch.change(scale: 0.5, focus: nil)
        pinch.end(scaleVelocity: 0, cancelled: true, at: 0)
        _ = settle(&pinch, from: 0)
        #expect(pinch.columns == 4, "cancelled: back where it began")
    }

    @Test func aPinchThatBeginsDuringASettleTakesOverFromIt() throws {
        var pinch = ColumnPinch(columns: 3, range: 1...6, builder: Self.builder)
        let viewport = ScrollViewport(size: Self.size, contentOffset: CGPoint(x: 0, y: 500))
        pinch.begin(viewport: viewport, focus: CGPoint(x: 100, y: 100), containerSize: Self.size, itemCounts: [300])
        pinch.change(scale: 0.8, focus: nil)
        pinch.end(scaleVelocity: 0, at: 0)
        let stillSettling = pinch.advance(to: 0.05)
        #expect(stillSettling)
        // The settle comes to rest at once, where it was heading; the new pinch starts from there.
        guard case .settling(let live, let settling, _) = pinch.phase else { Issue.record("not settling"); return }
        let finished = pinch.finishSettling()
        let rest = try #require(finished)
        #expect(rest == live.restingOffset(for: settling) && pinch.columns == 4 && !pinch.isActive)
        let restingViewport = ScrollViewport(size: Self.size, contentOffset: rest)
        let began = pinch.begin(viewport: restingViewport, focus: CGPoint(x: 50, y: 50), containerSize: Self.size,
                                itemCounts: [300])
        #expect(began)
        guard case .pinching(let next) = pinch.phase else { Issue.record("not pinching"); return }
        #expect(next.initialColumns == 4 && next.contentOffset() == rest, "no jump")
        pinch.abandon()
        #expect(!pinch.isActive && pinch.columns == 4)
    }

    @Test func aLayoutThatCannotBeBuiltIsAnErrorNotATrap() {
        var pinch = ColumnPinch(columns: 2, range: 0...3) { _, _, _ throws(LayoutError) in
            throw LayoutError.invalidCount(name: "columns", value: 0, minimum: 1)
        }
        #expect(pinch.range == 1...3 && pinch.columns == 2)
        let viewport = ScrollViewport(size: Self.size)
        let began = pinch.begin(viewport: viewport, focus: .zero, containerSize: Self.size, itemCounts: [10])
        #expect(!began)
        #expect(pinch.error != nil && !pinch.isActive && pinch.contentOffset == nil)
        pinch.change(scale: 2, focus: nil)
        pinch.end(scaleVelocity: .nan, at: .nan)
        let settling = pinch.advance(to: 1)
        #expect(!settling && !pinch.isActive)
    }
}
