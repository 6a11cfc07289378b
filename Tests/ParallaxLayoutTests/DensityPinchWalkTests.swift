import Foundation
import Testing
@testable import ParallaxCore
@testable import ParallaxLayout

/// The pinch's walk and the window of items around its anchor, on their
/// own: against naive references that read every item, over seeded random
/// contents, sections, bands and viewports.
@Suite("Pinch walk and window")
struct DensityPinchWalkTests {
    /// Section sizes adding up to at least one item: some sections empty,
    /// some past the window's capacity when `large`.
    static func sectionCounts(using rng: inout SplitMix64, large: Bool) -> [Int] {
        var counts = (0..<Int.random(in: 1...8, using: &rng)).map { _ in
            Int.random(in: 0...3, using: &rng) == 0 ? 0 : Int.random(in: 1...(large ? 1_500 : 120), using: &rng)
        }
        if counts.allSatisfy({ $0 == 0 }) { counts[0] = 1 }
        return counts
    }

    /// Every item of `counts`, in index order.
    static func items(_ counts: [Int]) -> [ItemIndex] {
        counts.enumerated().flatMap { section, count in (0..<count).map { ItemIndex(item: $0, section: section) } }
    }

    /// The window numbers a run of consecutive items (across sections) that
    /// holds the anchor, 0, 1, 2, … in index order: as many as the content
    /// has up to the capacity, up to half before the anchor unless the
    /// content after it is short. Its frames are the layout's.
    @Test func theWindowNumbersARunOfItemsAroundTheAnchor() throws {
        var rng = SplitMix64(seed: 0x3A11)
        let capacity = DensityPinchWindow.capacity
        for round in 0..<200 {
            let counts = Self.sectionCounts(using: &rng, large: round % 2 == 0)
            var configuration = GridConfiguration.grid
            configuration.columns = .fixed(Int.random(in: 1...6, using: &rng))
            configuration.headerHeight = 20
            let grid = try GridLayout(configuration: configuration, itemCounts: counts,
                                      containerSize: CGSize(width: 390, height: 844))
            let items = Self.items(counts)
            let position = Int.random(in: 0..<items.count, using: &rng)
            let anchor = items[position]
            let window = DensityPinchWindow(around: anchor, in: grid)

            let slotted = items.compactMap { index in window.slot(of: index).map { (index: index, slot: $0) } }
            #expect(window.count == min(items.count, capacity))
            #expect(slotted.map(\.slot) == Array(0..<window.count), "slots run 0, 1, 2, … in index order")
            let first = try #require(items.firstIndex(of: slotted[0].index))
            #expect(items[first..<(first + window.count)].elementsEqual(slotted.map(\.index)), "a run of consecutive items")
            let after = items.count - position
            let takenAfter = min(after, max(capacity / 2, capacity - position))
            #expect(position - first == min(position, capacity - takenAfter), "the anchor \(anchor) at slot \(position - first)")
            // Indices the content does not have are outside the window.
            for (section, count) in counts.enumerated() {
                #expect(window.slot(of: ItemIndex(item: count, section: section)) == nil)
                #expect(window.slot(of: ItemIndex(item: -1, section: section)) == nil)
            }
            #expect(window.slot(of: ItemIndex(item: 0, section: counts.count)) == nil)
            #expect(window.slot(of: ItemIndex(item: 0, section: -1)) == nil)

            // A layout's frames of the window, and `.null` for what another layout lacks.
            let frames = window.frames(in: grid)
            for (index, slot) in slotted { #expect(frames[slot] == grid.frame(of: index)) }
            let fewer = try GridLayout(configuration: configuration, itemCounts: counts.map { $0 / 2 },
                                       containerSize: CGSize(width: 390, height: 844))
            let fewerFrames = window.frames(in: fewer)
            for (index, slot) in slotted {
                #expect(fewerFrames[slot] == (fewer.frame(of: index) ?? .null))
            }
        }
        #expect(DensityPinchWindow.empty.count == 0 && DensityPinchWindow.empty.slot(of: ItemIndex(item: 0)) == nil)
    }

    /// A walk over two layouts reports each item once, at its interpolated
    /// (and zoomed) frame, when that frame is visible in the viewport and
    /// the item lies in its end's band in either layout: exactly those for
    /// the general pass, whether it reads the window's frames or looks every
    /// frame up; grids, walked in closed form by whole rows, may also report
    /// visible items of the rows between.
    @Test(arguments: PinchedKind.allCases)
    func aWalkReportsTheVisibleItemsOfItsBandsOnce(kind: PinchedKind) throws {
        var rng = SplitMix64(seed: kind == .quilt ? 0x3E1C : kind == .grid ? 0x61D5 : 0x0DE2)
        var reportedTotal = 0, outsideTheWindow = 0
        for round in 0..<(kind == .quilt ? 80 : 120) {
            // One round in four: a band far taller than a screen, of more items than the window holds.
            let huge = round % 4 == 0
            let size = CGSize(width: CGFloat.random(in: 240...900, using: &rng),
                              height: huge ? CGFloat.random(in: 3_000...9_000, using: &rng) : CGFloat.random(in: 300...900, using: &rng))
            let counts = Self.sectionCounts(using: &rng, large: huge || round % 3 == 0)
            let columns = huge ? 12...30 : 1...8
            let spans = counts.map { count in
                (0..<count).map { _ in
                    [QuiltSpan(width: 1, height: 1), QuiltSpan(width: 2, height: 1), QuiltSpan(width: 1, height: 2),
                     QuiltSpan(width: 2, height: 2)][Int.random(in: 0..<4, using: &rng)]
                }
            }
            func make(_ n: Int) throws(LayoutError) -> AnyItemLayout {
                switch kind {
                case .quilt:
                    let side = (size.width / CGFloat(n) * 100).rounded(.down) / 100
                    let configuration = QuiltConfiguration(blockSize: CGSize(width: side, height: side),
                                                           itemInsets: EdgeInsets(all: 1), headerHeight: 16)
                    return AnyItemLayout(try QuiltLayout(configuration: configuration, sections: spans, containerSize: size))
                case .grid, .ordered:
                    var configuration = GridConfiguration.grid
                    configuration.columns = .fixed(n)
                    configuration.headerHeight = 16
                    let grid = try GridLayout(configuration: configuration, itemCounts: counts, containerSize: size)
                    return kind == .grid ? AnyItemLayout(grid) : AnyItemLayout(OrderedLayout(base: grid))
                }
            }
            let source = try make(Int.random(in: columns, using: &rng))
            let destination = try make(Int.random(in: columns, using: &rng))
            let items = Self.items(counts)
            let anchor = items[Int.random(in: 0..<items.count, using: &rng)]
            let window = DensityPinchWindow(around: anchor, in: source)
            let readAhead = Bool.random(using: &rng)
            let pair = DensityPinchPair(
                source: source, destination: destination, concrete: ConcretePair(source, destination),
                sourceAnchor: source.frame(of: anchor), destinationAnchor: destination.frame(of: anchor), window: window,
                sourceFrames: readAhead ? window.frames(in: source) : [],
                destinationFrames: readAhead ? window.frames(in: destination) : [])

            // Each end's band spans the content across the axis, around the anchor as a pinch's bands
            // are; the viewport is a screen between them.
            let sourceAt = try #require(source.frame(of: anchor)).midY
            let destinationAt = try #require(destination.frame(of: anchor)).midY
            func band(around y: CGFloat) -> CGRect {
                let height = CGFloat.random(in: 1...(2 * size.height), using: &rng)
                return CGRect(x: -size.width, y: y - height * .random(in: 0...1, using: &rng), width: 3 * size.width,
                              height: height)
            }
            let sourceBand = band(around: sourceAt), destinationBand = band(around: destinationAt)
            let fraction = CGFloat.random(in: 0...1, using: &rng)
            let at = sourceAt + (destinationAt - sourceAt) * fraction
            let interpolation = DensityPinchInterpolation(
                fraction: fraction, zoom: Bool.random(using: &rng) ? 1 : .random(in: 0.9...1.1, using: &rng),
                center: CGPoint(x: .random(in: 0...size.width, using: &rng), y: at))
            let viewport = CGRect(x: 0, y: at - size.height * .random(in: 0...1, using: &rng),
                                  width: size.width, height: size.height)
            let walk = DensityPinchWalk(interpolation: interpolation, viewport: viewport, sourceBand: sourceBand,
                                        destinationBand: destinationBand)

            var reported: [ItemIndex: CGRect] = [:]
            walk.forEachItem(in: pair) { index, frame in
                #expect(reported[index] == nil, "\(index) reported twice")
                reported[index] = frame
            }
            // The naive reference: every item, both frames looked up.
            var required = Set<ItemIndex>()
            for index in items {
                let from = source.frame(of: index), to = destination.frame(of: index)
                guard let shown = interpolation.frame(from: from ?? to, to: to ?? from) else { continue }
                if let at = reported[index] {
                    #expect(at == shown, "\(index) at \(at), not \(shown)")
                    #expect(shown.isVisible(in: viewport), "\(index) reported but not visible")
                }
                let inABand = from.map { $0.isVisible(in: sourceBand) } == true
                    || to.map { $0.isVisible(in: destinationBand) } == true
                if inABand, shown.isVisible(in: viewport) { required.insert(index) }
            }
            if kind == .grid {
                #expect(required.isSubset(of: reported.keys), "missing \(required.subtracting(reported.keys).sorted().prefix(3))")
            } else {
                #expect(Set(reported.keys) == required,
                        "wrong: \(Set(reported.keys).symmetricDifference(required).sorted().prefix(3))")
            }
            reportedTotal += reported.count
            outsideTheWindow += reported.keys.filter { window.slot(of: $0) == nil }.count
        }
        #expect(reportedTotal > 2_000, "the walks reported \(reportedTotal) items")
        #expect(outsideTheWindow > 0, "none of the \(reportedTotal) items reported lay outside the window")
    }
}
