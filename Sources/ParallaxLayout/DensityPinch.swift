#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

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
/// ``QuiltLayout``, which a surface may build ahead of time).
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

    private let makeLayout: (Int) throws(LayoutError) -> Layout
    /// The layouts built so far, by column count minus the range's lowest.
    private var layouts: [Layout?]
    /// The anchor's frame in each of them.
    private var anchorFrames: [CGRect?]
    /// Where a frame keeps the destination band's frames
    /// (``forEachItem(at:shownAt:_:)``): for layouts in index order a buffer
    /// grown when a band overflows it, for others a window around the
    /// anchor; allocated once (the window on first use), shared by copies of
    /// the pinch.
    @usableFromInline let scratch = BandScratch()
    /// The current pair, kept out of the arrays so a frame reads them directly.
    public private(set) var sourceLayout: Layout
    /// The layout of the current pair's upper count (progress 1), or the
    /// source again when the range has a single count.
    public private(set) var destinationLayout: Layout
    /// The current pair as the layouts it wraps, when they are the built-in
    /// grids or quilts: unwrapped once per change of pair, so that a frame
    /// reads them without a dynamic cast.
    @usableFromInline var pair: ConcretePair = .other
    @usableFromInline var sourceAnchor: CGRect = .zero
    @usableFromInline var destinationAnchor: CGRect = .zero
    /// The point of the anchor under the fingers, as a fraction of its frame.
    @usableFromInline let anchorPoint: CGPoint
    /// The anchor's width (across the axis: its cross extent) when the pinch began.
    private let anchorExtent: CGFloat
    /// The tallest item visible when the pinch began, as a multiple of the
    /// anchor's extent along the axis (at least 1): how far, in anchors, an
    /// item may sit from where the index order alone would put it (a quilt
    /// fills holes behind its frontier with later items; a grid never does).
    @usableFromInline let tallestRatio: CGFloat

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
    /// - Complexity: three layout builds, then O(log items) to find the anchor.
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
        self.makeLayout = layout
        self.columns = columns
        let size = viewport.size
        let sanitized = CGPoint(x: focus.x.isFinite ? focus.x : size.width / 2,
                                y: focus.y.isFinite ? focus.y : size.height / 2)
        self.focus = Self.clamped(sanitized, to: size)
        let start = try layout(columns)
        axis = start.axis
        let counts = columnRange.count
        layouts = Array(repeating: nil, count: counts)
        anchorFrames = Array(repeating: nil, count: counts)
        layouts[columns - columnRange.lowerBound] = start
        sourceLayout = start
        destinationLayout = start
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
        alignment = start.axis.cross(point)
        for count in [columns - 1, columns, columns + 1] where columnRange.contains(count) { _ = try extent(columns: count) }
        try select(columns: columns)
    }

    /// The content offset when the pinch began: across the axis, the offset
    /// of the whole pinch; along it, the offset when there is no anchor.
    @usableFromInline let initialOffset: CGPoint
    /// Where the fingers came down across the axis, in content coordinates:
    /// where each column count's layout puts the anchor.
    private let alignment: CGFloat
    /// The viewport's insets (safe area, bars), which the resting offset respects.
    private let insets: EdgeInsets
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

    // MARK: Reading

    /// The layout of `columns`, if the pinch has built it.
    public func builtLayout(columns: Int) -> Layout? {
        columnRange.contains(columns) ? layouts[columns - columnRange.lowerBound] : nil
    }

    /// The content offset that keeps the anchor under the focus point at the
    /// current progress (or at `progress`, for the settle).
    @inlinable
    public func contentOffset(at progress: CGFloat? = nil) -> CGPoint {
        let p = shape(progress ?? self.progress).fraction
        guard anchor != nil else { return initialOffset }
        return offset(keeping: sourceAnchor.interpolated(to: destinationAnchor, fraction: p))
    }

    /// The offset that puts the held point of the anchor, with the anchor at
    /// `frame`, under the focus point along the axis; across it, the offset
    /// the pinch began with.
    @inlinable
    func offset(keeping frame: CGRect) -> CGPoint {
        let main = axis.main(frame.origin) + axis.main(anchorPoint) * axis.main(frame.size) - axis.main(focus)
        return axis.point(main: main, cross: axis.cross(initialOffset))
    }

    /// The content size at the current progress (or at `progress`).
    public func contentSize(at progress: CGFloat? = nil) -> CGSize {
        let p = shape(progress ?? self.progress).fraction
        let a = sourceLayout.contentSize, b = destinationLayout.contentSize
        return CGSize(width: a.width + (b.width - a.width) * p, height: a.height + (b.height - a.height) * p)
    }

    /// How much the photos shrink (past the densest count) or grow (past the
    /// sparsest) per step of progress beyond the range: the rubber band is a
    /// small zoom about the focus point, at most 10 %.
    @usableFromInline static var rubberZoom: CGFloat { 0.2 }

    /// The progress the two layouts are interpolated at (within 0...1), and
    /// the zoom about the focus point that shows progress past either end.
    @inlinable
    func shape(_ progress: CGFloat) -> (fraction: CGFloat, zoom: CGFloat) {
        let p = Self.fraction(progress)
        let clamped = min(max(p, 0), 1)
        return (clamped, 1 - (p - clamped) * Self.rubberZoom)
    }

    /// The offset a settle ends at: the anchor under the focus point in the
    /// layout of the count it settles on, moved into the content's bounds
    /// along the axis (the viewport's insets respected, as a scroll view
    /// does); across it, back to where it was when the pinch began, so the
    /// grid rests square.
    ///
    /// - Complexity: O(1): the layout of the count it settles on is built
    ///   (it is the pair's or the one the pinch began with).
    public func restingOffset(for settling: Settling) -> CGPoint {
        let unclamped = contentOffset(columns: settling.columns)
        let size = builtLayout(columns: settling.columns)?.contentSize ?? contentSize()
        let range = ScrollViewport(size: viewportSize, insets: insets).offsetRange(contentExtent: axis.main(size), along: axis)
        return axis.point(main: range.clamp(axis.main(unclamped)), cross: axis.cross(initialOffset))
    }

    /// The offset that keeps the anchor under the focus point in the layout
    /// of `columns`, at rest; the current offset if that layout is not built.
    private func contentOffset(columns: Int) -> CGPoint {
        guard anchor != nil, columnRange.contains(columns),
              let frame = anchorFrames[columns - columnRange.lowerBound] else { return contentOffset() }
        return offset(keeping: frame)
    }

    /// Moves to where `settling` is `time` seconds after the fingers lifted
    /// (``move(to:)`` at the spring's position).
    public mutating func move(settling: Settling, at time: TimeInterval) throws(LayoutError) {
        try move(to: settling.position(at: time))
    }

    /// The content offset while settling, once moved to the spring's position
    /// at `time` (``move(settling:at:)``): the focus invariant's offset,
    /// carried into the content's bounds as the spring completes.
    public func contentOffset(settling: Settling, at time: TimeInterval) -> CGPoint {
        let correction = restingOffset(for: settling) - contentOffset(columns: settling.columns)
        let free = contentOffset()
        let c = settling.completion(at: time)
        return CGPoint(x: free.x + correction.x * c, y: free.y + correction.y * c)
    }

    /// The frame of `index` at the current progress (or at `progress`), in
    /// content coordinates, or `nil` if neither layout has it.
    @inlinable
    public func frame(of index: ItemIndex, at progress: CGFloat? = nil) -> CGRect? {
        let (p, zoom) = shape(progress ?? self.progress)
        let frame: CGRect
        switch (sourceLayout.frame(of: index), destinationLayout.frame(of: index)) {
        case let (from?, to?): frame = from.interpolated(to: to, fraction: p)
        case let (from?, nil): frame = from
        case let (nil, to?): frame = to
        case (nil, nil): return nil
        }
        return zoom == 1 ? frame : Self.zoomed(frame, by: zoom, about: focusInContent(at: p))
    }

    /// The frame of `section`'s header at the current progress (or at
    /// `progress`), in content coordinates: moved linearly from its frame in
    /// the source layout to its frame in the destination, as items are;
    /// `nil` when neither layout gives the section a header.
    ///
    /// Complexity: O(1) for the built-in layouts.
    @inlinable
    public func headerFrame(ofSection section: Int, at progress: CGFloat? = nil) -> CGRect? {
        let (p, zoom) = shape(progress ?? self.progress)
        let frame: CGRect
        switch (sourceLayout.headerFrame(ofSection: section), destinationLayout.headerFrame(ofSection: section)) {
        case let (from?, to?): frame = from.interpolated(to: to, fraction: p)
        case let (from?, nil): frame = from
        case let (nil, to?): frame = to
        case (nil, nil): return nil
        }
        return zoom == 1 ? frame : Self.zoomed(frame, by: zoom, about: focusInContent(at: p))
    }

    /// The number of sections of the layouts the pinch moves between.
    public var numberOfSections: Int { sourceLayout.numberOfSections }

    /// Calls `body` once for every item visible through the viewport at the
    /// current progress (or at `progress`), with its frame in content
    /// coordinates at that progress and the viewport's content offset
    /// (``contentOffset(at:)``): first the items of the source layout, then
    /// the destination's others.
    ///
    /// Every frame moves linearly with progress, and so does the offset, so
    /// an item visible at some progress lies, along the axis, within the
    /// viewport of one end: one whose frame is before the viewport at both
    /// ends stays before it in between. (A grid keeps index order along the
    /// axis and the anchor is in view at both ends, so an item cannot jump
    /// from before the viewport to after it; a quilt fills holes with later
    /// items, so an item can cross the whole viewport between the ends, and
    /// the source's band is widened by the tallest item to catch most of
    /// those as they enter and leave.) Across the axis the whole width is
    /// read, since rows rewrap. A quilt item in view at neither end and
    /// farther than that from the source's view, one that fills a hole far
    /// from where it was, is left out while it crosses (about one visible
    /// item in two hundred over random quilts): drawn, it would only streak
    /// across the screen.
    /// Past the densest count the rubber band's zoom shows a little more
    /// than a viewport, and the bands grow to match.
    ///
    /// - Complexity: O(items visible in either layout), nothing allocated.
    @inlinable
    public func forEachItem(at progress: CGFloat? = nil, _ body: (ItemIndex, CGRect) throws -> Void) rethrows {
        try forEachItem(at: progress, shownAt: nil, body)
    }

    /// ``forEachItem(at:_:)`` for a viewport shown at `offset` instead of
    /// ``contentOffset(at:)``: a settle's offset, moved into the content's
    /// bounds (``contentOffset(settling:at:)``).
    @inlinable
    public func forEachItem(at progress: CGFloat?, shownAt shown: CGPoint?,
                            _ body: (ItemIndex, CGRect) throws -> Void) rethrows {
        let (p, zoom) = shape(progress ?? self.progress)
        let axis = self.axis, viewportSize = self.viewportSize
        let invariant = contentOffset(at: p)
        let offset = shown ?? invariant
        // The same shift at both ends: the bands move with it.
        let shift = axis.main(offset) - axis.main(invariant)
        let viewport = CGRect(origin: offset, size: viewportSize)
        let center = CGPoint(x: invariant.x + focus.x, y: invariant.y + focus.y)
        // The band of each end's viewport along the axis, across the whole
        // content: rows rewrap, so items slide into view from either side.
        let inIndexOrder = sourceLayout.placesItemsInIndexOrder && destinationLayout.placesItemsInIndexOrder
        let order = inIndexOrder ? 0
            : tallestRatio * max(axis.main(sourceAnchor.size), axis.main(destinationAnchor.size))
        let zoomSlack = zoom < 1 ? (1 / zoom - 1) * axis.main(viewportSize) : 0
        let crossShift = abs(axis.cross(offset)) + axis.cross(viewportSize) / zoom
        func band(crossing contentSize: CGSize, from offset: CGPoint, slack: CGFloat) -> CGRect {
            let start = axis.main(offset) + shift - slack
            let cross = max(axis.cross(contentSize), axis.cross(viewportSize))
            return axis.rect(main: Span(start, axis.main(viewportSize) + 2 * slack),
                             cross: Span(-crossShift, cross + 2 * crossShift))
        }
        // An item that crosses the viewport between the ends lies outside both ends' views; one that
        // crosses near them lies in either end's widened band, so widening the source's alone catches it.
        let sourceRect = band(crossing: sourceLayout.contentSize, from: contentOffset(at: 0), slack: order + zoomSlack)
        let destinationRect = band(crossing: destinationLayout.contentSize, from: contentOffset(at: 1), slack: zoomSlack)
        if inIndexOrder, case let .grids(source, destination) = pair,
           try Self.forEachItemOfGrids(source, destination, sourceRect: sourceRect, destinationRect: destinationRect,
                                       fraction: p, zoom: zoom, center: center, viewport: viewport, body) {
            return
        }
        if inIndexOrder {
            try forEachItemInIndexOrder(sourceRect: sourceRect, destinationRect: destinationRect, fraction: p,
                                        zoom: zoom, center: center, viewport: viewport, body)
            return
        }
        try forEachItemOutOfOrder(sourceRect: sourceRect, destinationRect: destinationRect, fraction: p, zoom: zoom,
                                  center: center, viewport: viewport, body)
    }

    /// The pass of ``forEachItem(at:shownAt:_:)`` for layouts out of index
    /// order (quilts): ``forEachItemOfPair(_:_:near:window:sourceRect:destinationRect:fraction:zoom:center:viewport:_:)``
    /// with the pinch's scratch window, or without it for a `body` that
    /// walks the same pinch again. Quilts behind ``AnyItemLayout`` are read
    /// as quilts, with no dynamic dispatch per item.
    @inlinable
    func forEachItemOutOfOrder(sourceRect: CGRect, destinationRect: CGRect, fraction p: CGFloat, zoom: CGFloat,
                               center: CGPoint, viewport: CGRect,
                               _ body: (ItemIndex, CGRect) throws -> Void) rethrows {
        let near = anchor ?? ItemIndex(item: 0)
        let scratch = self.scratch
        let window = scratch.isInUse ? nil : scratch.window()
        if window != nil { scratch.isInUse = true }
        defer { if window != nil { scratch.isInUse = false } }
        if case let .quilts(source, destination) = pair {
            try Self.forEachItemOfPair(source, destination, near: near, window: window, sourceRect: sourceRect,
                                       destinationRect: destinationRect, fraction: p, zoom: zoom, center: center,
                                       viewport: viewport, body)
        } else {
            try Self.forEachItemOfPair(sourceLayout, destinationLayout, near: near, window: window,
                                       sourceRect: sourceRect, destinationRect: destinationRect, fraction: p,
                                       zoom: zoom, center: center, viewport: viewport, body)
        }
    }

    /// The pass for any two layouts. With a `window` (room for the frames
    /// of ``BandScratch/windowItems`` items around `near`, the anchor, which
    /// both bands hold): the destination band's frames are kept there first,
    /// then each item of the source band takes its destination frame from
    /// the window, and the destination items the source band did not hold
    /// are what is left in it; only an item in one band alone costs a frame
    /// lookup in the other layout, and an item outside the window (a band far
    /// wider than a screen) is checked by its frame. Without a window, every
    /// source item is looked up in the destination and every destination
    /// item in the source. Items of sections other than the anchor's are
    /// outside the window too, so a quilt of many short sections pays a
    /// second destination walk and a lookup per item (still O(items in
    /// either band)).
    ///
    /// - Complexity: O(items in either band), nothing allocated.
    @inlinable
    static func forEachItemOfPair<L: ItemLayout>(_ source: L, _ destination: L, near: ItemIndex,
                                                 window: BandScratch.Window?, sourceRect: CGRect,
                                                 destinationRect: CGRect, fraction p: CGFloat, zoom: CGFloat,
                                                 center: CGPoint, viewport: CGRect,
                                                 _ body: (ItemIndex, CGRect) throws -> Void) rethrows {
        @inline(__always) func report(_ index: ItemIndex, from: CGRect, to: CGRect) throws {
            var frame = from.interpolated(to: to, fraction: p)
            if zoom != 1 { frame = Self.zoomed(frame, by: zoom, about: center) }
            if frame.isVisible(in: viewport) { try body(index, frame) }
        }
        guard let window else {
            try source.forEachItem(in: sourceRect) { index, from in
                try report(index, from: from, to: destination.frame(of: index) ?? from)
            }
            try destination.forEachItem(in: destinationRect) { index, to in
                guard let from = source.frame(of: index) else { return try report(index, from: to, to: to) }
                guard !from.isVisible(in: sourceRect) else { return }                  // reported above
                try report(index, from: from, to: to)
            }
            return
        }
        let capacity = BandScratch.windowItems, words = capacity / 64
        let base = near.item - capacity / 2
        @inline(__always) func slot(_ index: ItemIndex) -> Int? {
            // Compared before subtracting: `index.item - base` may not fit an `Int` far from the anchor.
            guard index.section == near.section, index.item >= base, index.item - capacity < base else { return nil }
            return index.item - base
        }
        let frames = window.frames, kept = window.kept
        kept.update(repeating: 0, count: words)
        var outside = false
        destination.forEachItem(in: destinationRect) { index, to in
            guard let slot = slot(index) else { outside = true; return }
            frames[slot] = to
            kept[slot >> 6] |= 1 << UInt64(slot & 63)
        }
        try source.forEachItem(in: sourceRect) { index, from in
            if let slot = slot(index), kept[slot >> 6] & (1 << UInt64(slot & 63)) != 0 {
                kept[slot >> 6] &= ~(1 << UInt64(slot & 63))                        // reported here, not below
                try report(index, from: from, to: frames[slot])
            } else {
                try report(index, from: from, to: destination.frame(of: index) ?? from)
            }
        }
        // The destination's newcomers: what the source band did not take.
        for word in 0..<words {
            var bits = kept[word]
            while bits != 0 {
                let slot = word * 64 + bits.trailingZeroBitCount
                bits &= bits - 1
                let index = ItemIndex(item: base + slot, section: near.section)
                let to = frames[slot]
                try report(index, from: source.frame(of: index) ?? to, to: to)
            }
        }
        guard outside else { return }
        try destination.forEachItem(in: destinationRect) { index, to in
            guard slot(index) == nil else { return }                                   // reported above
            guard let from = source.frame(of: index) else { return try report(index, from: to, to: to) }
            guard !from.isVisible(in: sourceRect) else { return }
            try report(index, from: from, to: to)
        }
    }

    /// The pass of ``forEachItem(at:shownAt:_:)`` for two layouts in index
    /// order. Each band, spanning the whole content across the axis, holds
    /// whole lines: a contiguous run of indices. The destination band's
    /// frames are read once into the pinch's scratch buffer, and the source
    /// band is walked merging with it by index (both come in index order), so
    /// an item in both bands costs no frame lookup; only the items in one
    /// band alone (a line or two at its edges) are looked up in the other
    /// layout. A `body` that walks the same pinch again gets the lookups.
    @inlinable
    func forEachItemInIndexOrder(sourceRect: CGRect, destinationRect: CGRect, fraction p: CGFloat, zoom: CGFloat,
                                 center: CGPoint, viewport: CGRect,
                                 _ body: (ItemIndex, CGRect) throws -> Void) rethrows {
        let scratch = self.scratch
        guard !scratch.isInUse else {
            try Self.mergeBands(sourceLayout, destinationLayout, buffer: UnsafeMutableBufferPointer(start: nil, count: 0),
                                sourceRect: sourceRect, destinationRect: destinationRect, fraction: p, zoom: zoom,
                                center: center, viewport: viewport, body)
            return
        }
        scratch.isInUse = true
        defer { scratch.isInUse = false }
        let needed = try Self.mergeBands(sourceLayout, destinationLayout, buffer: scratch.entries, sourceRect: sourceRect,
                                         destinationRect: destinationRect, fraction: p, zoom: zoom, center: center,
                                         viewport: viewport, body)
        scratch.reserve(needed)
    }

    /// Reports the items of both bands, merging by index with the
    /// destination band's frames kept in `buffer`; what does not fit is
    /// looked up. Returns how many entries the destination band needed.
    /// (Static, with the layouts as arguments, so that its closures capture
    /// the two layouts and not a copy of the whole pinch.)
    @inlinable
    @discardableResult
    static func mergeBands(_ sourceLayout: Layout, _ destinationLayout: Layout,
                           buffer band: UnsafeMutableBufferPointer<BandScratch.Entry>, sourceRect: CGRect,
                           destinationRect: CGRect, fraction p: CGFloat, zoom: CGFloat, center: CGPoint, viewport: CGRect,
                           _ body: (ItemIndex, CGRect) throws -> Void) rethrows -> Int {
        var count = 0, needed = 0
        if band.count > 0 {
            destinationLayout.forEachItem(in: destinationRect) { index, to in
                needed += 1
                if count < band.count {
                    band[count] = BandScratch.Entry(index: index, frame: to)
                    count += 1
                }
            }
        }
        let overflowed = band.count == 0 || needed > count
        @inline(__always) func report(_ index: ItemIndex, from: CGRect, to: CGRect) throws {
            var frame = from.interpolated(to: to, fraction: p)
            if zoom != 1 { frame = Self.zoomed(frame, by: zoom, about: center) }
            if frame.isVisible(in: viewport) { try body(index, frame) }
        }
        var first = ItemIndex(item: .max, section: .max), last = ItemIndex(item: -1, section: -1)
        var cursor = 0
        try sourceLayout.forEachItem(in: sourceRect) { index, from in
            if index < first { first = index }
            if last < index { last = index }
            while cursor < count, band[cursor].index < index { cursor += 1 }
            let to = cursor < count && band[cursor].index == index ? band[cursor].frame
                : destinationLayout.frame(of: index) ?? from
            try report(index, from: from, to: to)
        }
        // The destination's newcomers: indices outside the source band's run, a
        // prefix and a suffix of the buffer (it is in index order).
        var slot = 0
        while slot < count, band[slot].index < first {
            let entry = band[slot]
            try report(entry.index, from: sourceLayout.frame(of: entry.index) ?? entry.frame, to: entry.frame)
            slot += 1
        }
        var tail = count - 1
        while tail >= slot, last < band[tail].index { tail -= 1 }
        for slot in (tail + 1)..<max(count, tail + 1) {
            let entry = band[slot]
            try report(entry.index, from: sourceLayout.frame(of: entry.index) ?? entry.frame, to: entry.frame)
        }
        guard overflowed else { return needed }
        let stored = count > 0 ? band[count - 1].index : nil
        try destinationLayout.forEachItem(in: destinationRect) { index, to in
            guard stored.map({ $0 < index }) ?? true, index < first || last < index else { return }
            try report(index, from: sourceLayout.frame(of: index) ?? to, to: to)
        }
        return needed
    }

    /// The focus point in content coordinates at interpolation `fraction`.
    @inlinable
    func focusInContent(at fraction: CGFloat) -> CGPoint {
        let offset = contentOffset(at: fraction)
        return CGPoint(x: offset.x + focus.x, y: offset.y + focus.y)
    }

    /// `frame` scaled by `zoom` about `center`.
    @inlinable
    static func zoomed(_ frame: CGRect, by zoom: CGFloat, about center: CGPoint) -> CGRect {
        CGRect(x: center.x + (frame.minX - center.x) * zoom, y: center.y + (frame.minY - center.y) * zoom,
               width: frame.width * zoom, height: frame.height * zoom)
    }

    // MARK: Helpers

    /// The anchor's cross extent in the layout of `columns`, building the
    /// layout if the pinch has not reached that count before.
    private mutating func extent(columns: Int) throws(LayoutError) -> CGFloat {
        let slot = columns - columnRange.lowerBound
        if let frame = anchorFrames[slot] { return axis.cross(frame.size) }
        let layout: Layout
        if let built = layouts[slot] {
            layout = built
        } else if let anchor {
            layout = try makeLayout(columns).aligning(anchor, across: alignment)
            layouts[slot] = layout
        } else {
            layout = try makeLayout(columns)
            layouts[slot] = layout
        }
        guard let anchor, let frame = layout.frame(of: anchor) else { return 0 }
        anchorFrames[slot] = frame
        return axis.cross(frame.size)
    }

    /// Makes (`columns`, `columns + 1`) the current pair; both are built.
    private mutating func select(columns: Int) throws(LayoutError) {
        let lower = columnRange.lowerBound
        let upper = min(columns + 1, columnRange.upperBound)
        _ = try extent(columns: columns)
        _ = try extent(columns: upper)
        self.columns = columns
        sourceLayout = layouts[columns - lower]!
        destinationLayout = layouts[upper - lower]!
        sourceAnchor = anchorFrames[columns - lower] ?? .zero
        destinationAnchor = anchorFrames[upper - lower] ?? .zero
        if let source = Self.grid(sourceLayout), let destination = Self.grid(destinationLayout) {
            pair = .grids(source, destination)
        } else if let source = Self.quilt(sourceLayout), let destination = Self.quilt(destinationLayout) {
            pair = .quilts(source, destination)
        } else {
            pair = .other
        }
    }

    @inlinable
    static func fraction(_ progress: CGFloat) -> CGFloat { progress.isFinite ? progress : 0 }

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

/// The two layouts of a pinch's current pair, unwrapped (see
/// ``DensityPinch``'s `pair`).
@usableFromInline
enum ConcretePair {
    case grids(GridLayout, GridLayout)
    case quilts(QuiltLayout, QuiltLayout)
    case other
}

private func - (lhs: CGPoint, rhs: CGPoint) -> CGPoint { CGPoint(x: lhs.x - rhs.x, y: lhs.y - rhs.y) }

/// Scratch space for ``DensityPinch``'s frames: one buffer per pinch,
/// allocated once and reused every frame, so a frame allocates nothing. It
/// is shared by copies of the pinch, which (like the pinch) stay in one
/// isolation domain; ``isInUse`` guards a frame that walks the pinch again
/// from inside its own walk.
@usableFromInline
final class BandScratch {
    /// One item of a band: its index and its frame.
    @usableFromInline
    struct Entry {
        @usableFromInline var index: ItemIndex
        @usableFromInline var frame: CGRect

        @inlinable
        init(index: ItemIndex, frame: CGRect) {
            self.index = index
            self.frame = frame
        }
    }

    /// The most entries kept: past a band this large, frames are looked up.
    @usableFromInline static let maximumCapacity = 65_536

    @usableFromInline private(set) var entries: UnsafeMutableBufferPointer<Entry>
    @usableFromInline var isInUse = false

    /// Room for the destination frames of the items around the anchor, for
    /// layouts out of index order: a frame per item and a bit saying it is
    /// kept, item `near.item - windowItems / 2 + slot` at `slot`.
    @usableFromInline
    struct Window {
        @usableFromInline let frames: UnsafeMutablePointer<CGRect>
        @usableFromInline let kept: UnsafeMutablePointer<UInt64>
    }

    /// The items a ``Window`` covers: many screens of a quilt.
    @usableFromInline static var windowItems: Int { 1_024 }

    private var storedWindow: Window?

    @usableFromInline
    init() {
        entries = .allocate(capacity: 256)
    }

    deinit {
        entries.deallocate()
        if let storedWindow {
            storedWindow.frames.deallocate()
            storedWindow.kept.deallocate()
        }
    }

    /// The window, allocated the first time a pinch out of index order asks.
    @usableFromInline
    func window() -> Window {
        if let storedWindow { return storedWindow }
        let window = Window(frames: .allocate(capacity: Self.windowItems), kept: .allocate(capacity: Self.windowItems / 64))
        window.frames.initialize(repeating: .zero, count: Self.windowItems)
        window.kept.initialize(repeating: 0, count: Self.windowItems / 64)
        storedWindow = window
        return window
    }

    /// Grows the buffer to hold `count` entries (up to the maximum), for the
    /// next frame: only when a band has outgrown it.
    @usableFromInline
    func reserve(_ count: Int) {
        guard count > entries.count, entries.count < Self.maximumCapacity else { return }
        let grown = min(max(count, entries.count * 2), Self.maximumCapacity)
        entries.deallocate()
        entries = .allocate(capacity: grown)
    }
}
