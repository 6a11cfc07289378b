#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

// The pinch's state and how a gesture drives it. What it shows at a progress
// (offsets, sizes, frames) is in DensityPinch+Geometry.swift; the walk over
// the visible items in DensityPinch+Items.swift and DensityPinchWalk*.swift;
// the layouts kept per column count in DensityPinchLayouts.swift, the
// current pair in DensityPinchPair.swift, the items around the anchor in
// DensityPinchWindow.swift.

/// Pinch to change density: the number of columns follows the fingers, as in
/// the Photos app's grid, while the photo under the fingers stays under them
/// (in a grid; a quilt keeps it at their height, see the focus invariant).
///
/// The surface builds one layout per column count (a grid with
/// `.fixed(n)` columns, a quilt with blocks of `width / n`; a one-column
/// grid is the list) and hands the gesture's scale and focus point to
/// ``update(scale:focus:)`` on every event. The pinch shows an interpolation
/// between the layouts of `n` and `n + 1` columns, `n` chosen by the scale:
/// the focus photo's width follows the fingers (`scale × its width when the
/// pinch began`), so spreading the fingers moves towards fewer, larger
/// photos, and one gesture can chain through several counts
/// (2 → 3 → … → 8). ``end(velocity:cancel:)`` settles on the nearer count,
/// or the one the fingers were heading for, with a short critically damped
/// spring (``Settling``) that the surface plays with
/// ``move(settling:at:)``, or cancels back to where it began.
///
/// **The focus invariant.** The photo under the focus point when the pinch
/// began (or the nearest one) is the *anchor*. Along the scroll axis, the
/// point of it under the fingers is kept as a fraction of its frame: at
/// every progress the content offset puts that same point of the anchor's
/// interpolated frame under the current focus point, so the photo stays
/// under the fingers and follows them up and down. Across the axis the
/// content never moves sideways (a scroll view does not pan across its
/// axis, and a grid shifted sideways would leave the screen half empty);
/// instead every other column count's layout is asked to put the anchor in
/// the column under the fingers (`ItemLayout.aligning(_:across:)`): a
/// grid starts the anchor's section that many cells into its first row,
/// so the anchor's frame is under the fingers at both ends of every step,
/// and so at every progress in between. A layout that cannot align (a
/// quilt) keeps the anchor in its row, where it moves across to its new
/// column. Offsets are not clamped along the axis while the fingers are
/// down (the content may overscroll, as a scroll view's does); the settle
/// moves the offset into the content's bounds.
///
/// **Cost.** Each frame reads the two current layouts only: the anchor's two
/// frames and the items visible in either layout, with nothing allocated
/// (``forEachItem(at:_:)``). A layout is built the first time its column count
/// is reached and then kept for the rest of the pinch, so chaining costs one
/// build per new count (closed form and cheap for ``GridLayout``; O(N) for
/// ``QuiltLayout``, which a surface may build ahead of time). Layouts other
/// than grids also have their frames of the 1,024 items around the anchor
/// read once, when the count is first shown, so that a frame finds an
/// item's frame at the other end without asking the layout.
///
/// **Value semantics.** A pinch is a value: copies share nothing mutable,
/// and a walk over its items keeps what it needs on its own stack, so a
/// walk may be nested in another walk's body, or run on a copy.
///
/// Bad input never traps: a zero, negative, NaN or infinite scale is
/// ignored (the state stays as it was), a non-finite focus keeps the last
/// one, and a focus outside the viewport counts as the nearest point of it.
public struct DensityPinch<Layout: ItemLayout> {
    /// The column counts a pinch may reach, fewest first.
    public let columnRange: ClosedRange<Int>
    /// The column count the pinch began with.
    public let initialColumns: Int
    /// The viewport's size, the same in every layout.
    public let viewportSize: CGSize
    /// The item the pinch keeps under the fingers, `nil` for empty content.
    public let anchor: ItemIndex?
    /// The layouts' scroll axis (the first layout's).
    public let axis: ScrollAxis

    /// The lower column count of the current pair.
    public private(set) var columns: Int
    /// How far the pinch is from `columns` towards `columns + 1`: 0 shows
    /// the `columns` layout, 1 the next denser one. Beyond the ends of
    /// ``columnRange`` it runs a little past 0 or 1 with resistance, as a
    /// scroll view's rubber band does, and the photos shrink or grow a
    /// little about the focus point (at most 10 %).
    public private(set) var progress: CGFloat = 0
    /// The focus point, in the viewport's coordinates.
    public private(set) var focus: CGPoint

    /// The layouts built so far, one per column count reached.
    private var layouts: DensityPinchLayouts<Layout>
    /// The current pair, as a frame reads it.
    @usableFromInline private(set) var pair: DensityPinchPair<Layout>
    /// The point of the anchor under the fingers, as a fraction of its frame.
    @usableFromInline let anchorPoint: CGPoint
    /// The anchor's width (across the axis: its cross extent) when the pinch began.
    private let anchorExtent: CGFloat
    /// The tallest item visible when the pinch began, as a multiple of the
    /// anchor's extent along the axis (at least 1): how far, in anchors, an
    /// item may sit from where the index order alone would put it (a quilt
    /// fills holes behind its frontier with later items; a grid never does).
    @usableFromInline let tallestRatio: CGFloat
    /// The content offset when the pinch began: across the axis, the offset
    /// of the whole pinch; along it, the offset when there is no anchor.
    @usableFromInline let initialOffset: CGPoint
    /// The viewport's insets (safe area, bars), which the resting offset respects.
    let insets: EdgeInsets

    /// The layout of the current pair's lower count (progress 0).
    @inlinable
    public var sourceLayout: Layout { pair.source }
    /// The layout of the current pair's upper count (progress 1), or the
    /// source again when the range has a single count.
    @inlinable
    public var destinationLayout: Layout { pair.destination }

    /// Begins a pinch over the layout of `columns` columns seen through
    /// `viewport`, with the fingers centred on `focus` (viewport
    /// coordinates). `layout` builds the layout of any column count in
    /// `columnRange`; it is called for `columns` and its two neighbours now,
    /// and for other counts when the pinch first reaches them. Each layout
    /// but the first is then aligned so the anchor lies under the fingers
    /// (`ItemLayout.aligning(_:across:)`); ``builtLayout(columns:)`` is the
    /// aligned one, which a surface shows once the pinch rests.
    ///
    /// A pinch may begin mid-fling: the surface stops its deceleration (a
    /// scroll view does when a pinch begins) and passes the viewport as it is
    /// at that moment.
    ///
    /// - Throws: ``LayoutError`` when `columnRange` does not contain
    ///   `columns` or starts below 1, or when `layout` throws.
    /// - Complexity: three layout builds, then O(log items) to find the
    ///   anchor; for layouts other than grids, O(1,024) frame lookups to
    ///   read the frames around it.
    public init(
        columns: Int, in columnRange: ClosedRange<Int>, viewport: ScrollViewport, focus: CGPoint,
        layout: @escaping (Int) throws(LayoutError) -> Layout
    ) throws(LayoutError) {
        try LayoutError.require(columnRange.lowerBound, "columnRange.lowerBound", atLeast: 1)
        // A layout per count is kept: a thousand counts is already far more than a screen shows.
        guard columnRange.upperBound - columnRange.lowerBound < Self.maximumCounts else {
            throw .countOutsideRange(name: "columnRange.upperBound", value: columnRange.upperBound,
                                     range: columnRange.lowerBound...(columnRange.lowerBound + Self.maximumCounts - 1))
        }
        guard columnRange.contains(columns) else {
            throw .countOutsideRange(name: "columns", value: columns, range: columnRange)
        }
        self.columnRange = columnRange
        self.initialColumns = columns
        self.viewportSize = viewport.size
        self.columns = columns
        let size = viewport.size
        let sanitized = CGPoint(x: focus.x.isFinite ? focus.x : size.width / 2,
                                y: focus.y.isFinite ? focus.y : size.height / 2)
        self.focus = Self.clamped(sanitized, to: size)
        let start = try layout(columns)
        axis = start.axis
        // The anchor: the item under the focus point, else the nearest visible one.
        let point = CGPoint(x: viewport.contentOffset.x + self.focus.x, y: viewport.contentOffset.y + self.focus.y)
        var best: (index: ItemIndex, frame: CGRect, distance: CGFloat)?
        var tallest: CGFloat = 0
        start.forEachItem(in: CGRect(origin: viewport.contentOffset, size: size)) { index, frame in
            tallest = max(tallest, start.axis.main(frame.size))
            let dx = max(frame.minX - point.x, 0, point.x - frame.maxX)
            let dy = max(frame.minY - point.y, 0, point.y - frame.maxY)
            let distance = dx * dx + dy * dy
            if best == nil || distance < best!.distance { best = (index, frame, distance) }
        }
        if best == nil, let first = Self.firstItem(of: start), let frame = start.frame(of: first) {
            best = (first, frame, 0)
        }
        anchor = best?.index
        if let best {
            let frame = best.frame
            // Not clamped to the photo: fingers in a gap or a margin keep their distance from the
            // nearest photo (scaled with it), so the first frame of the pinch is the frame before it.
            anchorPoint = CGPoint(x: frame.width > 0 ? (point.x - frame.minX) / frame.width : 0.5,
                                  y: frame.height > 0 ? (point.y - frame.minY) / frame.height : 0.5)
            anchorExtent = start.axis.cross(frame.size)
            let anchorMain = start.axis.main(frame.size)
            tallestRatio = anchorMain > 0 ? max(tallest / anchorMain, 1) : 1
        } else {
            anchorPoint = CGPoint(x: 0.5, y: 0.5)
            anchorExtent = 0
            tallestRatio = 1
        }
        initialOffset = viewport.contentOffset
        insets = viewport.insets
        var layouts = DensityPinchLayouts(start: start, columns: columns, in: columnRange, anchor: anchor,
                                          alignment: start.axis.cross(point), layout: layout)
        for count in [columns - 1, columns, columns + 1] where columnRange.contains(count) {
            try layouts.build(columns: count)
        }
        pair = try layouts.pair(columns: columns)
        self.layouts = layouts
    }

    /// The most column counts a range may hold.
    public static var maximumCounts: Int { 1_024 }

    // MARK: Driving

    /// Follows the gesture: `scale` is its scale since the pinch began (1 at
    /// the start, above 1 as the fingers spread), `focus` the point between
    /// the fingers in viewport coordinates (`nil`: unchanged).
    ///
    /// - Throws: ``LayoutError`` when building a newly reached column
    ///   count's layout fails; the state is then unchanged.
    /// - Complexity: O(1) per frame, plus one layout build per column count
    ///   reached for the first time.
    public mutating func update(scale: CGFloat, focus: CGPoint? = nil) throws(LayoutError) {
        if let focus, focus.x.isFinite, focus.y.isFinite { self.focus = Self.clamped(focus, to: viewportSize) }
        guard scale.isFinite, scale > 0, anchor != nil, anchorExtent > 0 else { return }
        let target = anchorExtent * scale
        let lowest = columnRange.lowerBound, highest = columnRange.upperBound
        guard highest > lowest else {
            // A single count: nothing to change between, only the rubber band.
            let excess = (target - anchorExtent) / anchorExtent
            progress = excess > 0 ? -Self.resisted(excess) : Self.resisted(-excess)
            return
        }
        // Walk to the pair (n, n + 1) whose anchor widths bracket the target
        // width; past either end, the end pair.
        var n = min(columns, highest - 1)
        while n > lowest {
            if try target > extent(columns: n) { n -= 1 } else { break }
        }
        while n + 1 < highest {
            if try target < extent(columns: n + 1) { n += 1 } else { break }
        }
        let wide = try extent(columns: n)
        let narrow = try extent(columns: n + 1)
        if n != columns { try select(columns: n) }
        let span = wide - narrow
        let raw = span > 0 ? (wide - target) / span : 0
        progress = raw < 0 ? -Self.resisted(-raw) : raw > 1 ? 1 + Self.resisted(raw - 1) : raw
    }

    /// A rubber band for progress past either end: about a third of the
    /// excess, and never more than half a step.
    private static func resisted(_ excess: CGFloat) -> CGFloat {
        guard excess > 0 else { return 0 }
        return 0.5 * (1 - 1 / (excess * 0.66 + 1))
    }

    /// Where the pinch is, as one number: the column count plus the
    /// progress towards the next (3.25 is a quarter of the way from three
    /// columns to four). Settling springs this number to a whole count.
    public var position: CGFloat { CGFloat(columns) + progress }

    /// Shows `position` (see ``position``): the pair that brackets it and
    /// the progress between them; past either end of ``columnRange``, the end
    /// pair with the rubber band. A non-finite position is ignored.
    ///
    /// - Throws: ``LayoutError`` when building a column count's layout fails.
    /// - Complexity: O(1), plus a layout build for a count never reached before.
    public mutating func move(to position: CGFloat) throws(LayoutError) {
        guard position.isFinite else { return }
        let lowest = columnRange.lowerBound, highest = columnRange.upperBound
        // At most the rubber band's half step past either end (a fast spring's overshoot).
        let bounded = min(max(position, CGFloat(lowest) - 0.5), CGFloat(highest) + 0.5)
        guard highest > lowest else {
            progress = bounded - CGFloat(lowest)
            return
        }
        let n = min(max(Int(bounded.rounded(.down)), lowest), highest - 1)
        if n != columns { try select(columns: n) }
        progress = bounded - CGFloat(n)
    }

    /// Ends the pinch: where to settle, and how. With the fingers still
    /// (`velocity` 0, in columns per second, positive towards denser) it
    /// settles on the nearer count; a quick pinch settles on the count it
    /// was heading for. `cancel` returns to the count the pinch began with,
    /// through the counts in between.
    ///
    /// - Complexity: O(1).
    public func end(velocity: CGFloat = 0, cancel: Bool = false) -> Settling {
        // Capped at 20 columns a second, so the spring never runs far past its target.
        let v = velocity.isFinite ? min(max(velocity, -20), 20) : 0
        if cancel {
            return Settling(from: position, to: CGFloat(initialColumns), velocity: 0, columns: initialColumns)
        }
        // Where the position would be a moment (0.15 s) later at this speed.
        let ahead = min(max(position, CGFloat(columnRange.lowerBound)), CGFloat(columnRange.upperBound)) + v * 0.15
        let lower = min(max(Int(ahead.isFinite ? position.rounded(.down) : 0), columnRange.lowerBound),
                        columnRange.upperBound)
        let target = min(max(ahead - CGFloat(lower) >= 0.5 ? lower + 1 : lower, columnRange.lowerBound),
                         columnRange.upperBound)
        return Settling(from: position, to: CGFloat(target), velocity: v, columns: target)
    }

    /// How a pinch settles once the fingers lift.
    public typealias Settling = PinchSettling

    /// Moves to where `settling` is `time` seconds after the fingers lifted
    /// (``move(to:)`` at the spring's position).
    public mutating func move(settling: Settling, at time: TimeInterval) throws(LayoutError) {
        try move(to: settling.position(at: time))
    }

    /// The layout of `columns`, if the pinch has built it.
    public func builtLayout(columns: Int) -> Layout? {
        layouts.layout(columns: columns)
    }

    /// The anchor's frame in the layout of `columns`, if built.
    func anchorFrame(columns: Int) -> CGRect? {
        layouts.anchorFrame(columns: columns)
    }

    // MARK: Helpers

    /// The anchor's cross extent in the layout of `columns` (0 if it has no
    /// anchor), building the layout if the pinch has not reached that count
    /// before.
    private mutating func extent(columns: Int) throws(LayoutError) -> CGFloat {
        try layouts.anchorFrame(building: columns).map { axis.cross($0.size) } ?? 0
    }

    /// Makes (`columns`, `columns + 1`) the current pair, building what it
    /// lacks; the state is unchanged if that fails.
    private mutating func select(columns: Int) throws(LayoutError) {
        pair = try layouts.pair(columns: columns)
        self.columns = columns
    }

    private static func clamped(_ point: CGPoint, to size: CGSize) -> CGPoint {
        CGPoint(x: min(max(point.x, 0), max(size.width, 0)), y: min(max(point.y, 0), max(size.height, 0)))
    }

    private static func firstItem(of layout: Layout) -> ItemIndex? {
        for section in 0..<layout.numberOfSections where layout.numberOfItems(inSection: section) > 0 {
            return ItemIndex(item: 0, section: section)
        }
        return nil
    }
}
