#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore
import ParallaxImages
import ParallaxLayout

/// Which items to load, and how urgently, for a viewport in motion: the
/// viewport's ranges, as Texture (AsyncDisplayKit) tunes its preload
/// ranges in screens, plus the landing zone a fling is heading for.
///
/// For a viewport showing `V` and a scroll coming to rest showing `L`:
/// - **visible**: items in `V` that stay on screen long enough to be
///   shown (an item the fling carries off before a typical load finishes
///   gets nothing: decoding it would only delay what will be seen);
/// - **landing**: items in `L`, the screen the user will look at when the
///   fling stops: loaded before anything the fling only passes;
/// - **ahead**: items the fling passes between `V` and `L` that will be on
///   screen after a typical load finishes, then ``ahead`` screens past `L`
///   in the scroll direction, nearest first;
/// - **behind**: ``behind`` screens before `V`, against the direction;
/// - everything else is **outside**: not planned (the loader lowers or
///   cancels its work).
///
/// The path of the fling comes from `ScrollMotion` (the exponential
/// deceleration's closed form), so which items are carried past too fast
/// is worked out, not guessed.
public struct LoadingRanges: Sendable, Hashable {
    /// One item's place in the plan.
    public struct PlannedItem: Sendable, Hashable {
        /// The item.
        public var index: ItemIndex
        /// How urgently its thumbnail is wanted: its range, then its distance
        /// from the screen.
        public var priority: LoadPriority

        /// The item at `index`, planned at `priority`.
        public init(index: ItemIndex, priority: LoadPriority) {
            self.index = index
            self.priority = priority
        }
    }

    /// Screens loaded ahead of where the scroll rests, in the scroll
    /// direction (2 by default; Texture preloads 2 screens ahead too).
    public var ahead: CGFloat
    /// Screens loaded behind the viewport (½ by default).
    public var behind: CGFloat
    /// The most items a plan lists; the items a fling passes are dropped
    /// first, farthest first.
    public var maximumItems: Int

    /// Ranges of `ahead` and `behind` screens (non-finite or negative: 0),
    /// listing at most `maximumItems` items (at least 1).
    public init(ahead: CGFloat = 2, behind: CGFloat = 0.5, maximumItems: Int = 600) {
        self.ahead = ahead.isFinite ? max(ahead, 0) : 0
        self.behind = behind.isFinite ? max(behind, 0) : 0
        self.maximumItems = max(maximumItems, 1)
    }

    /// Lists into `items` (emptied first; its capacity is kept, so a
    /// surface that reuses one buffer allocates nothing once it is large
    /// enough) the items of every range of `layout` for a viewport showing
    /// `visibleRect` while the scroll follows `motion` along the layout's
    /// axis.
    ///
    /// - Parameters:
    ///   - layout: the layout whose items are planned; the ranges run along
    ///     its axis.
    ///   - visibleRect: the part of `layout` on screen, in its coordinates.
    ///     A rectangle with no area, or a non-finite one, plans nothing.
    ///   - motion: where the scroll is going along the layout's axis
    ///     (`ScrollMotion.resting(at:)` when a finger holds it or it is
    ///     still).
    ///   - direction: the direction to preload ahead in while the scroll is
    ///     at rest (the last one it moved in; +1 forward, −1 backward).
    ///     While it moves, its own direction counts.
    ///   - expectedLoadTime: how long a load typically takes, in seconds
    ///     (`ImageLoader.typicalLoadTime`); `nil` or 0 counts every tile
    ///     the fling passes as worth loading.
    ///   - items: the buffer the plan is written into: emptied first, its
    ///     capacity kept.
    ///
    /// Complexity: O(items in the ranges), capped by ``maximumItems``.
    public func plan(
        in layout: some ItemLayout, visibleRect: CGRect, motion: ScrollMotion, direction: CGFloat = 1,
        expectedLoadTime: CGFloat? = nil, into items: inout [PlannedItem]
    ) {
        items.removeAll(keepingCapacity: true)
        let axis = layout.axis
        let visible = axis.mainSpan(of: visibleRect)
        let cross = axis.crossSpan(of: visibleRect)
        guard visible.isFinite, cross.isFinite, visible.length > 0, cross.length > 0 else { return }
        let load = expectedLoadTime.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? 0
        let moving = motion.isMoving
        let forward = moving ? motion.direction > 0 : !(direction < 0)
        let landing = Span(visible.lowerBound + (motion.restingOffset - motion.offset), visible.length)
        let extent = visible.length
        let limit = maximumItems
        func rect(_ from: CGFloat, _ to: CGFloat) -> CGRect? {
            guard to > from else { return nil }
            return axis.rect(main: Span(from, to - from), cross: cross)
        }
        /// How far `span` is from the visible span (0 when they overlap).
        func gap(_ span: Span) -> Double {
            Double(max(span.lowerBound - visible.upperBound, visible.lowerBound - span.upperBound, 0))
        }
        /// The offset at which the viewport stops overlapping `span` in the direction of motion.
        func leavingOffset(_ span: Span) -> CGFloat {
            forward ? span.upperBound : span.lowerBound - extent
        }
        func add(_ index: ItemIndex, _ priority: LoadPriority) throws {
            guard items.count < limit else { throw PlanIsFull() }
            items.append(PlannedItem(index: index, priority: priority))
        }

        // 1. On screen: stays (visible), or is carried off before it could be shown (not planned).
        if let area = rect(visible.lowerBound, visible.upperBound) {
            try? layout.forEachItem(in: area) { index, frame in
                let span = axis.mainSpan(of: frame)
                guard span.overlaps(visible) else { return }
                if moving, !span.overlaps(landing),
                   let leaves = motion.time(toReach: leavingOffset(span)), leaves < load {
                    return
                }
                try add(index, .visible)
            }
        }
        // 2. Where the scroll comes to rest.
        if moving, let area = rect(landing.lowerBound, landing.upperBound) {
            try? layout.forEachItem(in: area) { index, frame in
                let span = axis.mainSpan(of: frame)
                guard span.overlaps(landing), !span.overlaps(visible) else { return }
                try add(index, LoadPriority(.landing))
            }
        }
        // 3. Ahead, past where it rests.
        let aheadLength = extent * ahead
        let aheadArea = forward ? rect(landing.upperBound, landing.upperBound + aheadLength)
            : rect(landing.lowerBound - aheadLength, landing.lowerBound)
        if let area = aheadArea {
            try? layout.forEachItem(in: area) { index, frame in
                let span = axis.mainSpan(of: frame)
                guard !span.overlaps(landing), !span.overlaps(visible) else { return }
                try add(index, LoadPriority(.ahead, distance: gap(span)))
            }
        }
        // 4. Behind.
        let behindLength = extent * behind
        let behindArea = forward ? rect(visible.lowerBound - behindLength, visible.lowerBound)
            : rect(visible.upperBound, visible.upperBound + behindLength)
        if let area = behindArea {
            try? layout.forEachItem(in: area) { index, frame in
                let span = axis.mainSpan(of: frame)
                guard !span.overlaps(visible), !span.overlaps(landing) else { return }
                try add(index, LoadPriority(.behind, distance: gap(span)))
            }
        }
        // 5. What the fling passes between here and there, nearest first: worth loading only if it will
        //    still be on screen when a load started now finishes. Last, so a cap drops these first, and
        //    a screen at a time from the near end, so it drops the farthest. An item belongs to the slice
        //    its near edge is in.
        guard moving else { return }
        var near = forward ? visible.upperBound : visible.lowerBound
        let far = forward ? landing.lowerBound : landing.upperBound
        while forward ? near < far : near > far {
            let next = forward ? min(near + extent, far) : max(near - extent, far)
            guard let area = forward ? rect(near, next) : rect(next, near) else { break }
            let sliceStart = items.count
            let (low, high) = forward ? (near, next) : (next, near)
            // The layout lists a slice in ascending order, nearest first only when moving forward; backward,
            // the whole slice is listed, reversed to nearest first, and then cut to the cap.
            do {
                try layout.forEachItem(in: area) { index, frame in
                    let span = axis.mainSpan(of: frame)
                    let edge = forward ? span.lowerBound : span.upperBound
                    guard forward ? (edge >= low && edge < high) : (edge > low && edge <= high),
                          !span.overlaps(visible), !span.overlaps(landing) else { return }
                    if let leaves = motion.time(toReach: leavingOffset(span)), leaves <= load { return }
                    let priority = LoadPriority(.ahead, distance: gap(span))
                    if forward { try add(index, priority) } else { items.append(PlannedItem(index: index, priority: priority)) }
                }
            } catch {
                return
            }
            if !forward {
                items[sliceStart...].reverse()
                if items.count >= limit {
                    items.removeLast(items.count - limit)
                    return
                }
            }
            near = next
        }
    }
}

/// Thrown to stop a layout's enumeration once a plan is full.
private struct PlanIsFull: Error {}
