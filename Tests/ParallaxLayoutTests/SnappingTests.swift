import Foundation
import Testing
@testable import ParallaxCore
@testable import ParallaxLayout

@Suite("Snapping")
struct SnappingTests {
    let size = CGSize(width: 390, height: 844)

    @Test func noSnapAtZeroVelocityOrAtTheEnds() throws {
        let grid = try GridLayout(configuration: .grid, itemCount: 100, containerSize: size)
        let viewport = ScrollViewport(size: size)
        let proposed = CGPoint(x: 0, y: 1234)
        #expect(ScrollSnapping.restingOffset(proposed: proposed, velocity: .zero, in: grid, viewport: viewport) == proposed)
        let end = CGPoint(x: 0, y: grid.contentSize.height - 844)
        #expect(ScrollSnapping.restingOffset(proposed: end, velocity: CGPoint(x: 0, y: 3), in: grid, viewport: viewport) == end)
        let beyond = CGPoint(x: 0, y: -40)
        #expect(ScrollSnapping.restingOffset(proposed: beyond, velocity: CGPoint(x: 0, y: -3), in: grid, viewport: viewport) == beyond)
    }

    @Test func snapsToRowBoundariesByHand() throws {
        let grid = try GridLayout(configuration: .grid, itemCount: 100, containerSize: size)
        let viewport = ScrollViewport(size: size, insets: EdgeInsets(top: 20))
        // Rows at 8 + 191·r: resting positions 0 (first row) and 8 + 191·r − 8 = 191·r after.
        // Proposed 1000 puts the edge at 1020: nearest is 191·5 = 955, so o' = 955 − 20.
        let snapped = ScrollSnapping.restingOffset(proposed: CGPoint(x: 0, y: 1000), velocity: CGPoint(x: 0, y: 1),
                                                   in: grid, viewport: viewport)
        #expect(snapped == CGPoint(x: 0, y: 935))
        let nearTop = ScrollSnapping.restingOffset(proposed: CGPoint(x: 0, y: 70), velocity: CGPoint(x: 0, y: -1),
                                                   in: grid, viewport: viewport)
        #expect(nearTop == CGPoint(x: 0, y: -20))
    }

    @Test func snappedOffsetsAreOnRowBoundariesForRandomLayouts() throws {
        var rng = SplitMix64(seed: 1234)
        var checked = 0
        for _ in 0..<300 {
            let configuration = randomConfiguration(using: &rng)
            let counts = randomCounts(using: &rng)
            let size = CGSize(width: .random(in: 200...1200, using: &rng), height: .random(in: 200...1200, using: &rng))
            let grid = try GridLayout(configuration: configuration, itemCounts: counts, containerSize: size)
            let reference = ReferenceGrid(configuration: configuration, itemCounts: counts, containerSize: size)
            let axis = configuration.axis
            let mirrored = grid.isMainAxisMirrored
            // Every resting position, brute force: section starts and (line start − spacing).
            var rests: [CGFloat] = []
            let spacing = axis.main(configuration.spacing)
            let before = axis == .vertical ? configuration.margins.top : configuration.margins.left
            let after = axis == .vertical ? configuration.margins.bottom : configuration.margins.right
            var sectionStart: CGFloat = 0
            for (section, count) in counts.enumerated() {
                rests.append(sectionStart)
                var lineStarts = Set<CGFloat>()
                for item in 0..<count {
                    let span = axis.mainSpan(of: reference.frames[ItemIndex(item: item, section: section)]!)
                    lineStarts.insert(mirrored ? grid.contentExtent - span.upperBound : span.lowerBound)
                }
                let sorted = lineStarts.sorted()
                rests += sorted.dropFirst().map { $0 - spacing }
                let linesExtent = sorted.last.map { $0 + axis.main(grid.itemSize) - sorted[0] } ?? 0
                sectionStart += configuration.headerHeight + before + linesExtent + after
            }
            rests.append(sectionStart)
            let viewport = ScrollViewport(size: size, insets: EdgeInsets(top: 10, left: 5, bottom: 10, right: 5))
            let range = viewport.offsetRange(contentExtent: grid.contentExtent, along: axis)
            for _ in 0..<10 {
                let proposed = CGFloat.random(in: range, using: &rng)
                let result = axis.main(ScrollSnapping.restingOffset(
                    proposed: axis.point(main: proposed, cross: 0), velocity: axis.point(main: 5, cross: 0),
                    in: grid, viewport: viewport))
                #expect(range.contains(result))
                guard result > range.lowerBound, result < range.upperBound, proposed > range.lowerBound else { continue }
                var placed = viewport
                placed.contentOffset = axis.point(main: result, cross: 0)
                let edge = placed.leadingEdge(along: axis, mirrored: mirrored)
                let logicalEdge = mirrored ? grid.contentExtent - edge : edge
                // On a resting position, and the nearest one to where the fling was aimed.
                #expect(rests.contains { abs($0 - logicalEdge) < 1e-6 })
                var aimed = viewport
                aimed.contentOffset = axis.point(main: proposed, cross: 0)
                let aimedEdge = aimed.leadingEdge(along: axis, mirrored: mirrored)
                let logicalAim = mirrored ? grid.contentExtent - aimedEdge : aimedEdge
                let best = rests.map { abs($0 - logicalAim) }.min()!
                #expect(abs(abs(logicalEdge - logicalAim) - best) < 1e-6)
                checked += 1
            }
        }
        #expect(checked > 1000)
    }
}
