import Foundation
import Testing
@testable import ParallaxCore
@testable import ParallaxLayout

/// A grid of exactly `n` columns over `count` items, RolfHendriks' grid
/// spacing, in a container `width` wide.
func pinchGrid(_ n: Int, count: Int, width: CGFloat) throws(LayoutError) -> GridLayout {
    var configuration = GridConfiguration.grid
    configuration.columns = .fixed(n)
    return try GridLayout(configuration: configuration, itemCount: count, containerSize: CGSize(width: width, height: 800))
}

/// A quilt of `n` square block columns (the block a hair under `width / n`
/// so rounding never loses a column).
func pinchQuilt(_ n: Int, spans: [QuiltSpan], width: CGFloat) throws(LayoutError) -> QuiltLayout {
    let side = (width / CGFloat(n) * 100).rounded(.down) / 100
    let configuration = QuiltConfiguration(blockSize: CGSize(width: side, height: side),
                                           itemInsets: EdgeInsets(all: 1))
    return try QuiltLayout(configuration: configuration, spans: spans, containerSize: CGSize(width: width, height: 800))
}

/// A grid seen only through ``ItemLayout``: index-ordered, but not a
/// `GridLayout`, so a pinch over it takes the general merged pass rather
/// than the grids' closed form.
struct OrderedLayout: ItemLayout {
    let base: GridLayout
    var axis: ScrollAxis { base.axis }
    var isMainAxisMirrored: Bool { base.isMainAxisMirrored }
    var contentSize: CGSize { base.contentSize }
    var numberOfSections: Int { base.numberOfSections }
    var placesItemsInIndexOrder: Bool { true }
    func numberOfItems(inSection section: Int) -> Int { base.numberOfItems(inSection: section) }
    func frame(of index: ItemIndex) -> CGRect? { base.frame(of: index) }
    func headerFrame(ofSection section: Int) -> CGRect? { base.headerFrame(ofSection: section) }
    func forEachItem(in rect: CGRect, _ body: (ItemIndex, CGRect) throws -> Void) rethrows {
        try base.forEachItem(in: rect, body)
    }
    func restingPosition(showing index: ItemIndex) -> CGFloat? { base.restingPosition(showing: index) }
    func restingPosition(nearest position: CGFloat) -> CGFloat? { base.restingPosition(nearest: position) }
}

/// The kinds of layout the visible-set test pinches: each takes its own pass.
enum PinchedKind: String, CaseIterable, CustomTestStringConvertible {
    /// Grids: the closed-form walk.
    case grid
    /// Index-ordered layouts in general: the merged bands.
    case ordered
    /// Quilts: widened bands, looked up.
    case quilt

    var testDescription: String { rawValue }
}

/// Where `point` (viewport coordinates) falls inside `frame` (content
/// coordinates) seen at `offset`, as a fraction of the frame.
func relativePoint(_ point: CGPoint, in frame: CGRect, offset: CGPoint) -> CGPoint {
    CGPoint(x: (point.x + offset.x - frame.minX) / frame.width, y: (point.y + offset.y - frame.minY) / frame.height)
}

@Suite("Pinch to change density")
struct DensityPinchTests {
    /// Over thousands of random grids and quilts, viewports (some mid-fling,
    /// past the content's ends), focus points and scales: along the axis the
    /// point of the anchor photo that was under the fingers stays exactly
    /// under them; across it the content never moves sideways, and a grid's
    /// anchor is in the column under where the fingers came down (within
    /// half a spacing of it, or as far as it was when they came down in a
    /// margin) at every progress; the items reported are exactly the ones
    /// visible.
    @Test(arguments: PinchedKind.allCases)
    func thePhotoUnderTheFingersStaysUnderThem(kind: PinchedKind) throws {
        let quilt = kind == .quilt
        var rng = SplitMix64(seed: quilt ? 0x9117 : kind == .grid ? 0x6121 : 0x0D3E)
        var checkedStates = 0, visibleTotal = 0, reportedTotal = 0
        for _ in 0..<(quilt ? 120 : 300) {
            let width = CGFloat.random(in: 240...1300, using: &rng)
            let height = CGFloat.random(in: 300...1000, using: &rng)
            let count = Int.random(in: 1...(quilt ? 300 : 600), using: &rng)
            let lowest = Int.random(in: 1...3, using: &rng)
            let range = lowest...Int.random(in: (lowest + 1)...9, using: &rng)
            let start = Int.random(in: range, using: &rng)
            let spans = (0..<count).map { _ in
                [QuiltSpan(width: 1, height: 1), QuiltSpan(width: 2, height: 1), QuiltSpan(width: 1, height: 2),
                 QuiltSpan(width: 2, height: 2)][Int.random(in: 0..<4, using: &rng)]
            }
            let make: (Int) throws(LayoutError) -> AnyItemLayout = { n throws(LayoutError) in
                switch kind {
                case .quilt: AnyItemLayout(try pinchQuilt(n, spans: spans, width: width))
                case .grid: AnyItemLayout(try pinchGrid(n, count: count, width: width))
                case .ordered: AnyItemLayout(OrderedLayout(base: try pinchGrid(n, count: count, width: width)))
                }
            }
            let first = try make(start)
            // Anywhere in the content, or a little past either end (a fling's overscroll).
            let extent = max(first.contentSize.height - height, 0)
            let offset = CGPoint(x: 0, y: CGFloat.random(in: -80...(extent + 80), using: &rng))
            let focus = CGPoint(x: .random(in: 0...width, using: &rng), y: .random(in: 0...height, using: &rng))
            let viewport = ScrollViewport(size: CGSize(width: width, height: height), contentOffset: offset)
            var pinch = try DensityPinch(columns: start, in: range, viewport: viewport, focus: focus, layout: make)
            let anchor = try #require(pinch.anchor)
            let anchorFrame = try #require(first.frame(of: anchor))
            // Where the fingers are relative to the anchor photo, in fractions of it (beyond 0...1 when
            // they are in a gap or a margin next to it): held at every step.
            let held = relativePoint(focus, in: anchorFrame, offset: offset)
            // Across: how far from the anchor the fingers came down, which no count may exceed (by more
            // than half a column spacing, where they fall between two cells).
            let downAt = offset.x + focus.x
            func across(_ frame: CGRect) -> CGFloat { max(frame.minX - downAt, 0, downAt - frame.maxX) }
            let allowed = max(across(anchorFrame), GridConfiguration.grid.spacing.width / 2) + 1e-6
            let firstOffset = pinch.contentOffset()
            #expect(abs(firstOffset.x - offset.x) < 1e-6 && abs(firstOffset.y - offset.y) < 1e-6,
                    "the first frame is the frame before the pinch")

            for _ in 0..<8 {
                let scale = CGFloat(exp(Double.random(in: -2.2...2.2, using: &rng)))
                let moved = Bool.random(using: &rng)
                    ? CGPoint(x: .random(in: 0...width, using: &rng), y: .random(in: 0...height, using: &rng)) : nil
                try pinch.update(scale: scale, focus: moved)
                #expect(range.contains(pinch.columns) && (pinch.columns < range.upperBound))
                #expect(pinch.progress > -0.5 && pinch.progress < 1.5)
                let offsetNow = pinch.contentOffset()
                let frame = try #require(pinch.frame(of: anchor))
                let now = relativePoint(pinch.focus, in: frame, offset: offsetNow)
                #expect(abs(now.y - held.y) < 1e-6,
                        "anchor point moved along the axis: \(held) → \(now) at \(pinch.columns)+\(pinch.progress)")
                #expect(offsetNow.x == offset.x, "the content moved sideways")
                if kind == .grid, pinch.progress >= 0, pinch.progress <= 1 {
                    #expect(across(frame) <= allowed, "the anchor left the fingers: \(across(frame)) > \(allowed)")
                    for count in [pinch.columns, pinch.columns + 1] {
                        let end = try #require(pinch.builtLayout(columns: count)?.frame(of: anchor))
                        #expect(across(end) <= allowed, "\(count) columns put the anchor \(across(end)) away")
                    }
                }

                // The visible items, each once, with their interpolated frames. A quilt item may be
                // in view at neither end (it fills a hole far from where it was): such an item may be
                // left out while it crosses, and only such an item; a grid has none.
                if count <= 300 {
                    let visible = CGRect(origin: offsetNow, size: viewport.size)
                    let ends = [pinch.contentOffset(at: 0), pinch.contentOffset(at: 1)]
                    var reported: [ItemIndex: CGRect] = [:]
                    pinch.forEachItem { index, frame in
                        #expect(reported[index] == nil, "\(index) reported twice")
                        reported[index] = frame
                    }
                    var required = Set<ItemIndex>(), allowed = Set<ItemIndex>()
                    for item in 0..<count {
                        let index = ItemIndex(item: item)
                        guard let frame = pinch.frame(of: index), frame.isVisible(in: visible) else { continue }
                        allowed.insert(index)
                        let inAnEndsView = zip([pinch.sourceLayout, pinch.destinationLayout], ends).contains { layout, end in
                            guard let at = layout.frame(of: index) else { return false }
                            return at.maxY > end.y && at.minY < end.y + height
                        }
                        if inAnEndsView || !quilt { required.insert(index) }
                    }
                    #expect(Set(reported.keys).isSubset(of: allowed), "reported invisible \(Set(reported.keys).subtracting(allowed).sorted().prefix(5))")
                    #expect(required.isSubset(of: reported.keys), "missing \(required.subtracting(reported.keys).sorted().prefix(5))")
                    for (index, frame) in reported { #expect(frame == pinch.frame(of: index)) }
                    visibleTotal += allowed.count
                    reportedTotal += reported.count
                }
                checkedStates += 1
            }
        }
        #expect(checkedStates >= 900)
        // Items that cross the whole viewport mid-pinch are rare: nearly every visible item is drawn.
        #expect(Double(reportedTotal) >= 0.99 * Double(visibleTotal), "\(reportedTotal) of \(visibleTotal) drawn")
    }

    /// A band holding more items than the window of frames read around the
    /// anchor (1,024): the items past it are looked up instead, and the
    /// visible set is still exact, each item once. A body that walks the
    /// pinch again from inside its walk gets the same items.
    @Test func aBandLargerThanTheWindowStillReportsEveryVisibleItemOnce() throws {
        let size = CGSize(width: 390, height: 844)
        let count = 20_000
        // Through `OrderedLayout`: grids take the closed form, which reads no window.
        let make: (Int) throws(LayoutError) -> OrderedLayout = { n throws(LayoutError) in
            var configuration = GridConfiguration(preferredItemSize: CGSize(width: 4, height: 4), margins: EdgeInsets(all: 2),
                                                  spacing: CGSize(width: 1, height: 1))
            configuration.columns = .fixed(n)
            return OrderedLayout(base: try GridLayout(configuration: configuration, itemCount: count, containerSize: size))
        }
        let viewport = ScrollViewport(size: size, contentOffset: CGPoint(x: 0, y: 3_000))
        var pinch = try DensityPinch(columns: 40, in: 30...50, viewport: viewport, focus: CGPoint(x: 200, y: 400), layout: make)
        var rng = SplitMix64(seed: 512)
        var largest = 0
        for _ in 0..<12 {
            try pinch.update(scale: CGFloat.random(in: 0.7...1.3, using: &rng))
            let visible = CGRect(origin: pinch.contentOffset(), size: size)
            var reported: [ItemIndex: CGRect] = [:]
            pinch.forEachItem { index, frame in
                #expect(reported[index] == nil, "\(index) reported twice")
                reported[index] = frame
            }
            var expected = Set<ItemIndex>()
            for item in 0..<count {
                let index = ItemIndex(item: item)
                if let frame = pinch.frame(of: index), frame.isVisible(in: visible) { expected.insert(index) }
            }
            let wrong = Set(reported.keys).symmetricDifference(expected)
            #expect(wrong.isEmpty, "\(wrong.count) items wrong, as \(wrong.sorted().prefix(3))")
            for (index, frame) in reported { #expect(frame == pinch.frame(of: index)) }
            largest = max(largest, expected.count)
        }
        #expect(largest > DensityPinchWindow.capacity, "the band overflows the window")
        // Re-entered: walks share nothing, so the inner one reports the same items.
        var outer: [ItemIndex] = [], inner: [ItemIndex] = []
        pinch.forEachItem { index, _ in
            if outer.isEmpty { pinch.forEachItem { index, _ in inner.append(index) } }
            outer.append(index)
        }
        #expect(Set(inner) == Set(outer) && inner.count == outer.count && !outer.isEmpty)
    }

    /// Section headers move with their sections: at each end the header
    /// frame is that layout's, in between it moves linearly, and the items
    /// of several sections are still reported exactly.
    /// Quilts of several sections, with viewports up to far taller than a
    /// screen: every item a quilt pass must report (in view at either end)
    /// is reported once, at its interpolated frame, whether it lies in the
    /// window of frames kept around the anchor, in another section, or past
    /// the window (a band of more than 1,024 items); a walk nested in a
    /// walk reports the same items.
    @Test func quiltsOfManySectionsAndHugeBandsReportEveryItemOnce() throws {
        var rng = SplitMix64(seed: 0x5EC7)
        var pastTheWindow = 0, otherSections = 0
        for round in 0..<24 {
            let width = CGFloat.random(in: 300...900, using: &rng)
            let height = round % 3 == 0 ? CGFloat.random(in: 3_000...9_000, using: &rng) : CGFloat.random(in: 300...900, using: &rng)
            let sections = (0..<Int.random(in: 2...4, using: &rng)).map { _ in
                (0..<Int.random(in: 0...2_500, using: &rng)).map { _ in
                    [QuiltSpan(width: 1, height: 1), QuiltSpan(width: 2, height: 1), QuiltSpan(width: 1, height: 2),
                     QuiltSpan(width: 2, height: 2)][Int.random(in: 0..<4, using: &rng)]
                }
            }
            let make: (Int) throws(LayoutError) -> AnyItemLayout = { n throws(LayoutError) in
                let side = (width / CGFloat(n) * 100).rounded(.down) / 100
                let configuration = QuiltConfiguration(blockSize: CGSize(width: side, height: side), itemInsets: EdgeInsets(all: 1),
                                                       headerHeight: 20)
                return AnyItemLayout(try QuiltLayout(configuration: configuration, sections: sections,
                                                     containerSize: CGSize(width: width, height: height)))
            }
            let start = Int.random(in: 3...12, using: &rng)
            let first = try make(start)
            let offset = CGPoint(x: 0, y: CGFloat.random(in: 0...max(first.contentSize.height - height, 0), using: &rng))
            let viewport = ScrollViewport(size: CGSize(width: width, height: height), contentOffset: offset)
            var pinch = try DensityPinch(columns: start, in: 2...16, viewport: viewport,
                                         focus: CGPoint(x: width / 2, y: height / 2), layout: make)
            guard let anchor = pinch.anchor else { continue }
            for _ in 0..<4 {
                try pinch.update(scale: CGFloat(exp(Double.random(in: -0.9...0.9, using: &rng))))
                var reported: [ItemIndex: CGRect] = [:]
                pinch.forEachItem { index, frame in
                    #expect(reported[index] == nil, "\(index) reported twice")
                    reported[index] = frame
                }
                let ends = [pinch.contentOffset(at: 0), pinch.contentOffset(at: 1)]
                let shown = CGRect(origin: pinch.contentOffset(), size: viewport.size)
                for section in 0..<sections.count {
                    for item in 0..<sections[section].count {
                        let index = ItemIndex(item: item, section: section)
                        guard let frame = pinch.frame(of: index) else { continue }
                        let inAnEndsView = zip([pinch.sourceLayout, pinch.destinationLayout], ends).contains { layout, end in
                            guard let at = layout.frame(of: index) else { return false }
                            return at.maxY > end.y && at.minY < end.y + height
                        }
                        if frame.isVisible(in: shown), inAnEndsView {
                            #expect(reported[index] == frame, "\(index) in view at an end but not reported as shown")
                            if section != anchor.section { otherSections += 1 }
                            if section == anchor.section, abs(item - anchor.item) >= 512 { pastTheWindow += 1 }
                        }
                        if let at = reported[index] { #expect(at == frame && frame.isVisible(in: shown)) }
                    }
                }
                // Nested: the inner walk agrees with the outer one.
                var outer = Set<ItemIndex>(), inner = Set<ItemIndex>()
                pinch.forEachItem { index, _ in
                    if outer.isEmpty { pinch.forEachItem { index, _ in inner.insert(index) } }
                    outer.insert(index)
                }
                #expect(inner == outer && outer == Set(reported.keys))
            }
        }
        #expect(pastTheWindow > 0 && otherSections > 0, "\(pastTheWindow) past the window, \(otherSections) in other sections")
    }

    @Test func sectionHeadersMoveWithTheirSections() throws {
        let size = CGSize(width: 390, height: 844)
        let counts = [7, 5, 3, 12, 4, 9, 40]
        let make: (Int) throws(LayoutError) -> GridLayout = { n throws(LayoutError) in
            var configuration = GridConfiguration.grid
            configuration.columns = .fixed(n)
            configuration.headerHeight = 36
            return try GridLayout(configuration: configuration, itemCounts: counts, containerSize: size)
        }
        let viewport = ScrollViewport(size: size, contentOffset: CGPoint(x: 0, y: 400))
        var pinch = try DensityPinch(columns: 3, in: 2...6, viewport: viewport, focus: CGPoint(x: 120, y: 300), layout: make)
        #expect(pinch.numberOfSections == 7)
        for scale in [0.95, 0.85, 0.75, 1.2] as [CGFloat] {
            try pinch.update(scale: scale)
            for section in 0..<7 {
                let from = try #require(pinch.sourceLayout.headerFrame(ofSection: section))
                let to = try #require(pinch.destinationLayout.headerFrame(ofSection: section))
                #expect(pinch.headerFrame(ofSection: section, at: 0) == from)
                #expect(pinch.headerFrame(ofSection: section, at: 1) == to)
                let half = try #require(pinch.headerFrame(ofSection: section, at: 0.5))
                #expect(abs(half.minY - (from.minY + to.minY) / 2) < 1e-9 && abs(half.height - 36) < 1e-9)
            }
            #expect(pinch.headerFrame(ofSection: 9) == nil)
            // The items of every section on screen, each once, exactly the visible ones.
            let visible = CGRect(origin: pinch.contentOffset(), size: size)
            var reported: [ItemIndex: CGRect] = [:]
            pinch.forEachItem { index, frame in
                #expect(reported[index] == nil)
                reported[index] = frame
            }
            var expected = Set<ItemIndex>()
            for (section, count) in counts.enumerated() {
                for item in 0..<count {
                    let index = ItemIndex(item: item, section: section)
                    if let frame = pinch.frame(of: index), frame.isVisible(in: visible) { expected.insert(index) }
                }
            }
            #expect(Set(reported.keys) == expected && Set(expected.map(\.section)).count > 1)
            for (index, frame) in reported { #expect(frame == pinch.frame(of: index)) }
        }
    }

    @Test func oneGestureChainsFromTwoColumnsToEight() throws {
        var builds: [Int] = []
        let make: (Int) throws(LayoutError) -> GridLayout = { n throws(LayoutError) in
            builds.append(n)
            return try pinchGrid(n, count: 10_000, width: 390)
        }
        let viewport = ScrollViewport(size: CGSize(width: 390, height: 844), contentOffset: CGPoint(x: 0, y: 20_000))
        var pinch = try DensityPinch(columns: 2, in: 1...8, viewport: viewport, focus: CGPoint(x: 200, y: 400), layout: make)
        #expect(builds.sorted() == [1, 2, 3], "the start and its neighbours, built up front")
        var seen: [Int] = []
        var scale: CGFloat = 1
        while scale > 0.12 {
            scale *= 0.97
            try pinch.update(scale: scale)
            if seen.last != pinch.columns { seen.append(pinch.columns) }
        }
        #expect(seen == [2, 3, 4, 5, 6, 7])
        #expect(pinch.progress > 1, "past eight columns: the rubber band")
        #expect(pinch.progress < 1.5)
        #expect(builds.sorted() == Array(1...8), "each count built once")
        // Back out again in the same gesture, to the one-column list.
        while scale < 6 {
            scale *= 1.03
            try pinch.update(scale: scale)
        }
        #expect(pinch.columns == 1 && pinch.progress < 0)
        #expect(builds.count == 8, "nothing rebuilt on the way back")
        // Cancelled after chaining away: back to the two columns it began with, photos at their present size.
        scale = 0.3
        try pinch.update(scale: scale)
        let shownWidth = try #require(pinch.frame(of: pinch.anchor!)).width
        let back = pinch.end(cancel: true)
        #expect(back.columns == 2 && back.target == 2 && back.start == pinch.position)
        // The spring plays back through every count to two columns, the photos growing all the way.
        var width = shownWidth, time = 0.0
        while !back.isFinished(at: time) {
            time += 1.0 / 60
            try pinch.move(settling: back, at: time)
            let now = try #require(pinch.frame(of: pinch.anchor!)).width
            #expect(now >= width - 1e-6, "no jump back: \(width) → \(now) at \(time) s")
            width = now
        }
        #expect(pinch.position == 2 || abs(pinch.position - 2) < 0.001)
        #expect(builds.count == 8, "the way back reuses the layouts")
    }

    @Test func releasingSettlesOnTheNearerCountOrTheOneTheFingersWereHeadingFor() throws {
        let viewport = ScrollViewport(size: CGSize(width: 390, height: 844), contentOffset: CGPoint(x: 0, y: 1_000))
        var pinch = try DensityPinch(columns: 3, in: 1...6, viewport: viewport, focus: CGPoint(x: 100, y: 300)) {
            n throws(LayoutError) in try pinchGrid(n, count: 500, width: 390)
        }
        let a = try #require(pinch.anchor)
        let wide = try #require(pinch.sourceLayout.frame(of: a)).width
        let narrow = try #require(pinch.destinationLayout.frame(of: a)).width
        // 70 % of the way from three columns to four.
        try pinch.update(scale: (wide - 0.7 * (wide - narrow)) / wide)
        #expect(pinch.columns == 3 && abs(pinch.progress - 0.7) < 1e-9)
        #expect(abs(pinch.position - 3.7) < 1e-9)
        let commit = pinch.end()
        #expect(commit.target == 4 && commit.columns == 4)
        // The same place, but the fingers were spreading fast: back to three.
        let back = pinch.end(velocity: -3)
        #expect(back.target == 3 && back.columns == 3)
        let cancel = pinch.end(cancel: true)
        #expect(cancel.target == 3 && cancel.columns == 3)

        // No jump when the fingers lift.
        let fingers = pinch.contentOffset()
        var settling = pinch
        try settling.move(settling: commit, at: 0)
        let lifted = settling.contentOffset(settling: commit, at: 0)
        #expect(abs(lifted.x - fingers.x) < 1e-9 && abs(lifted.y - fingers.y) < 1e-9)
        // The spring: to rest in about 0.45 s, critically damped (never past four columns).
        #expect(abs(commit.position(at: 0.001) - 3.7) < 0.01)
        #expect(!commit.isFinished(at: 0.1) && commit.isFinished(at: 0.6))
        var previous = commit.position(at: 0)
        for step in 1...60 {
            let p = commit.position(at: Double(step) / 120)
            #expect(p >= previous - 1e-12 && p <= 4 + 1e-9, "critically damped: no overshoot")
            previous = p
        }
        // At rest: four columns, the offset inside the content and square across it.
        let rest = pinch.restingOffset(for: commit)
        try settling.move(settling: commit, at: 5)
        #expect(settling.position == 4 || abs(settling.position - 4) < 1e-9)
        #expect(rest.y >= 0 && rest.y <= max(settling.contentSize().height - 844, 0) && rest.x == 0)
        let end = settling.contentOffset(settling: commit, at: 5)
        #expect(abs(end.y - rest.y) < 1e-6 && abs(end.x - rest.x) < 1e-6)
    }

    @Test func aPinchThatBeginsMidFlingKeepsThePhotoUnderTheFingers() throws {
        // Between two row positions, and 60 pt past the top (the fling's rubber band).
        for y: CGFloat in [1_234.5, -60] {
            let viewport = ScrollViewport(size: CGSize(width: 414, height: 896), contentOffset: CGPoint(x: 0, y: y))
            let focus = CGPoint(x: 300, y: 120)
            var pinch = try DensityPinch(columns: 4, in: 1...8, viewport: viewport, focus: focus) {
                n throws(LayoutError) in try pinchGrid(n, count: 2_000, width: 414)
            }
            let a = try #require(pinch.anchor)
            let before = try #require(pinch.sourceLayout.frame(of: a))
            #expect(before.contains(CGPoint(x: focus.x, y: focus.y + y)))
            try pinch.update(scale: 1.6)
            let frame = try #require(pinch.frame(of: a))
            #expect(frame.contains(CGPoint(x: focus.x + pinch.contentOffset().x, y: focus.y + pinch.contentOffset().y)))
        }
    }

    @Test func badInputIsIgnoredOrRefusedNeverTrapped() throws {
        let viewport = ScrollViewport(size: CGSize(width: 390, height: 844), contentOffset: CGPoint(x: 0, y: 500))
        let make: (Int) throws(LayoutError) -> GridLayout = { n throws(LayoutError) in try pinchGrid(n, count: 300, width: 390) }
        var pinch = try DensityPinch(columns: 3, in: 2...5, viewport: viewport, focus: CGPoint(x: 10, y: 10), layout: make)
        try pinch.update(scale: 1.2)
        let state = (pinch.columns, pinch.progress, pinch.contentOffset())
        for scale: CGFloat in [0, -1, .nan, .infinity, -.infinity] {
            try pinch.update(scale: scale)
            #expect(pinch.columns == state.0 && pinch.progress == state.1 && pinch.contentOffset() == state.2, "\(scale)")
        }
        try pinch.update(scale: 1.2, focus: CGPoint(x: CGFloat.nan, y: 3))
        #expect(pinch.focus == CGPoint(x: 10, y: 10))
        // A focus outside the viewport (or the content) counts as the nearest point of the viewport.
        try pinch.update(scale: 1.2, focus: CGPoint(x: -500, y: 10_000))
        #expect(pinch.focus == CGPoint(x: 0, y: 844))
        let outside = try DensityPinch(columns: 3, in: 2...5, viewport: viewport, focus: CGPoint(x: 9_999, y: -9_999), layout: make)
        #expect(outside.focus == CGPoint(x: 390, y: 0) && outside.anchor != nil)
        // NaN progress reads as 0; settling with a NaN velocity is the still release.
        #expect(pinch.contentOffset(at: .nan) == pinch.contentOffset(at: 0))
        let nanEnd = pinch.end(velocity: .nan), stillEnd = pinch.end(velocity: 0)
        #expect(nanEnd == stillEnd)
        // Positions and velocities far past anything a gesture gives: bounded, never a trap.
        var far = pinch
        try far.move(to: 1e300)
        #expect(far.position == 5.5 && far.progress == 1.5)
        try far.move(to: -1e300)
        #expect(far.position == 1.5)
        let flung = pinch.end(velocity: 1e12)
        #expect(flung.velocity == 20 && flung.columns <= 5)
        #expect(throws: LayoutError.self) {
            try DensityPinch(columns: 2, in: 1...Int.max, viewport: viewport, focus: .zero, layout: make)
        }
        // A column count outside the range, or a range below one column, is refused.
        #expect(throws: LayoutError.countOutsideRange(name: "columns", value: 9, range: 2...5)) {
            try DensityPinch(columns: 9, in: 2...5, viewport: viewport, focus: .zero, layout: make)
        }
        #expect(throws: LayoutError.invalidCount(name: "columnRange.lowerBound", value: 0, minimum: 1)) {
            try DensityPinch(columns: 1, in: 0...5, viewport: viewport, focus: .zero, layout: make)
        }
        // A layout that cannot be built is the caller's error, passed on.
        #expect(throws: LayoutError.self) {
            try DensityPinch(columns: 1, in: 1...3, viewport: viewport, focus: .zero) { n throws(LayoutError) in
                var bad = GridConfiguration.grid
                bad.spacing = CGSize(width: -1, height: 0)
                return try GridLayout(configuration: bad, itemCount: 10, containerSize: CGSize(width: 390, height: 800))
            }
        }
        // Nothing to show: no anchor, nothing moves, nothing is reported.
        var empty = try DensityPinch(columns: 2, in: 1...4, viewport: viewport, focus: CGPoint(x: 5, y: 5)) {
            n throws(LayoutError) in try pinchGrid(n, count: 0, width: 390)
        }
        try empty.update(scale: 3)
        #expect(empty.anchor == nil && empty.progress == 0 && empty.contentOffset() == viewport.contentOffset)
        var reported = 0
        empty.forEachItem { _, _ in reported += 1 }
        #expect(reported == 0)
        // A single count: only the rubber band.
        var single = try DensityPinch(columns: 3, in: 3...3, viewport: viewport, focus: CGPoint(x: 100, y: 100), layout: make)
        try single.update(scale: 2)
        #expect(single.columns == 3 && single.progress < 0 && single.progress > -0.5)
        let singleEnd = single.end()
        #expect(singleEnd.columns == 3 && singleEnd.target == 3)
    }

    @Test func theRestingOffsetRespectsTheViewportsInsetsAndComesBackSquare() throws {
        // A navigation bar of 100 pt and a home indicator of 34 pt; the fingers near the top of the content.
        let viewport = ScrollViewport(size: CGSize(width: 390, height: 844), contentOffset: CGPoint(x: 0, y: -100),
                                      insets: EdgeInsets(top: 100, left: 0, bottom: 34, right: 0))
        var pinch = try DensityPinch(columns: 2, in: 1...6, viewport: viewport, focus: CGPoint(x: 380, y: 130)) {
            n throws(LayoutError) in try pinchGrid(n, count: 200, width: 390)
        }
        try pinch.update(scale: 0.4)
        let settling = pinch.end()
        let rest = pinch.restingOffset(for: settling)
        let range = viewport.offsetRange(contentExtent: try #require(pinch.builtLayout(columns: settling.columns)).contentExtent,
                                         along: .vertical)
        #expect(range.contains(rest.y) && range.lowerBound == -100, "\(rest.y) in \(range)")
        #expect(rest.x == 0, "across the axis, back where it began")
    }
}
