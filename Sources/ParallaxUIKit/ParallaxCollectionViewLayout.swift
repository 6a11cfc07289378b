#if canImport(UIKit)
import ParallaxCore
import ParallaxHosting
import ParallaxLayout
import UIKit

// One file: UIKit's layout overrides, each translating a decision of `CollectionLayoutState`; split, they
// would no longer read in the order UIKit calls them.

/// A `UICollectionViewLayout` over ParallaxKit's layouts: the grid and list
/// of RolfHendriks' UICollectionView-Demo, the quilt, the waterfall, or any `ItemLayout`.
///
/// ```swift
/// let collectionView = UICollectionView(frame: .zero, collectionViewLayout: ParallaxCollectionViewLayout.grid())
/// collectionView.setCollectionViewLayout(ParallaxCollectionViewLayout.list(), animated: true)  // keeps the photo
/// ```
///
/// Every decision is `CollectionLayoutState`'s (tested on Linux); this
/// class translates it into UIKit's overrides:
/// - attributes for a rect in O(visible items + sections), from the
///   closed-form or indexed layout, nothing cached per item;
/// - invalidation only when the collection view's size changes (a scroll
///   never rebuilds);
/// - snapping through `targetContentOffset(forProposedContentOffset:withScrollingVelocity:)`;
/// - the first visible item kept in place across size changes and layout
///   switches through `targetContentOffset(forProposedContentOffset:)`.
///
/// Layouts are built left-to-right; in a right-to-left interface UIKit
/// mirrors them (``flipsHorizontallyInOppositeLayoutDirection`` is `true`),
/// so leave the configurations' `layoutDirection` at `.leftToRight`.
/// Nothing is laid out under the safe area across the scroll axis (a
/// landscape notch), whatever the collection view's inset adjustment.
/// Section headers (when the layout has them) are supplementary views of
/// kind `UICollectionView.elementKindSectionHeader`, and a quilt's section
/// footers of kind `UICollectionView.elementKindSectionFooter`.
@MainActor
open class ParallaxCollectionViewLayout: UICollectionViewLayout {
    /// The decisions behind this layout.
    public private(set) var state: CollectionLayoutState
    /// The scroll axis of the layout it builds.
    public let axis: ScrollAxis

    /// The room the collection view gives the layout (`LayoutRoom`):
    /// nothing under the safe area across the axis.
    private var room = LayoutRoom(boundsSize: .zero, contentInsets: .zero, safeArea: .zero, axis: .vertical,
                                  isRightToLeft: false)
    /// Where the current fling comes to rest: the offset the last
    /// `targetContentOffset(forProposedContentOffset:withScrollingVelocity:)` returned.
    private var landingOffset: CGPoint?
    /// The pinch of a pinchable layout, shared with its builder.
    private var pinchBox: PinchBox?
    /// The item counts the layout was last prepared for.
    private var itemCounts: [Int] = []

    /// A layout made by `builder`, scrolling along `axis` (the axis the
    /// builder's layouts use).
    public init(axis: ScrollAxis = .vertical, isSnappingEnabled: Bool = true,
                builder: @escaping CollectionLayoutState.Builder) {
        self.axis = axis
        self.state = CollectionLayoutState(isSnappingEnabled: isSnappingEnabled, builder: builder)
        super.init()
    }

    /// Not supported: the layout is made in code. Returns `nil`.
    public required init?(coder: NSCoder) {
        return nil
    }

    /// RolfHendriks' UICollectionView-Demo's photo grid (or any grid configuration).
    public static func grid(_ configuration: GridConfiguration = .grid, isSnappingEnabled: Bool = true)
        -> ParallaxCollectionViewLayout {
        ParallaxCollectionViewLayout(axis: configuration.axis, isSnappingEnabled: isSnappingEnabled,
                                     builder: CollectionLayoutState.grid(configuration))
    }

    /// RolfHendriks' UICollectionView-Demo's list: full-width rows half as tall as wide.
    public static func list(_ configuration: GridConfiguration = .list, isSnappingEnabled: Bool = true)
        -> ParallaxCollectionViewLayout {
        grid(configuration, isSnappingEnabled: isSnappingEnabled)
    }

    /// A quilt whose items cover `span(index)` blocks.
    public static func quilt(_ configuration: QuiltConfiguration = QuiltConfiguration(), isSnappingEnabled: Bool = false,
                             span: @escaping (ItemIndex) -> QuiltSpan) -> ParallaxCollectionViewLayout {
        ParallaxCollectionViewLayout(axis: configuration.axis, isSnappingEnabled: isSnappingEnabled,
                                     builder: CollectionLayoutState.quilt(configuration, span: span))
    }

    /// A grid whose number of columns follows a pinch (``DensityPinchGesture``
    /// attaches one in a line): `columns` fixed columns at rest, any count in
    /// `range` during a pinch, `configuration`'s margins, spacing and cell
    /// shape otherwise. A one-column grid is a list with the grid's margins.
    public static func pinchableGrid(_ configuration: GridConfiguration = .grid, columns: Int = 3,
                                     range: ClosedRange<Int> = 1...8,
                                     isSnappingEnabled: Bool = true) -> ParallaxCollectionViewLayout {
        let pinch = ColumnPinch(columns: columns, range: range) { n, size, counts throws(LayoutError) in
            var fixed = configuration
            fixed.columns = .fixed(n)
            return try GridLayout(configuration: fixed, itemCounts: counts, containerSize: size)
        }
        return pinchable(pinch, axis: configuration.axis, isSnappingEnabled: isSnappingEnabled)
    }

    /// A quilt whose number of block columns follows a pinch: square blocks
    /// of the container's width divided by the count, items covering
    /// `span(index)` blocks (RFQuiltLayout's packing).
    public static func pinchableQuilt(_ configuration: QuiltConfiguration = QuiltConfiguration(), columns: Int = 4,
                                      range: ClosedRange<Int> = 2...8,
                                      span: @escaping (ItemIndex) -> QuiltSpan) -> ParallaxCollectionViewLayout {
        let pinch = ColumnPinch(columns: columns, range: range) { n, size, counts throws(LayoutError) in
            var blocks = configuration
            let cross = configuration.axis.cross(size)
            // A hair under the exact side, so rounding never loses a column.
            let side = max((cross / CGFloat(n) * 100).rounded(.down) / 100, 1)
            blocks.blockSize = CGSize(width: side, height: side)
            let sections = counts.enumerated().map { section, count in
                (0..<max(count, 0)).map { span(ItemIndex(item: $0, section: section)) }
            }
            return try QuiltLayout(configuration: blocks, sections: sections, containerSize: size)
        }
        return pinchable(pinch, axis: configuration.axis, isSnappingEnabled: false)
    }

    /// A layout over `pinch`'s resting column count.
    private static func pinchable(_ pinch: ColumnPinch, axis: ScrollAxis,
                                  isSnappingEnabled: Bool) -> ParallaxCollectionViewLayout {
        let box = PinchBox(pinch)
        let layout = ParallaxCollectionViewLayout(axis: axis, isSnappingEnabled: isSnappingEnabled) { size, counts throws(LayoutError) in
            try box.pinch.restingLayout(containerSize: size, itemCounts: counts)
        }
        layout.pinchBox = box
        return layout
    }

    /// A waterfall of items with the aspect ratios of `size(index)`.
    public static func waterfall(_ configuration: WaterfallConfiguration = WaterfallConfiguration(),
                                 size: @escaping (ItemIndex) -> CGSize) -> ParallaxCollectionViewLayout {
        ParallaxCollectionViewLayout(axis: configuration.axis, isSnappingEnabled: false,
                                     builder: CollectionLayoutState.waterfall(configuration, size: size))
    }

    /// Whether flings come to rest on a line of items.
    public var isSnappingEnabled: Bool {
        get { state.isSnappingEnabled }
        set { state.isSnappingEnabled = newValue }
    }

    /// Why the layout could not be built, if it could not (it then shows nothing).
    public var layoutError: LayoutError? { state.error }

    // MARK: Building

    /// Builds the layout for the room the collection view gives it and its
    /// item counts, unless it was built for exactly those: a scroll costs a
    /// comparison.
    open override func prepare() {
        super.prepare()
        guard let collectionView else { return }
        let sections = max(collectionView.numberOfSections, 0)
        let counts = (0..<sections).map { max(collectionView.numberOfItems(inSection: $0), 0) }
        room = LayoutRoom(
            boundsSize: collectionView.bounds.size, contentInsets: EdgeInsets(collectionView.adjustedContentInset),
            safeArea: EdgeInsets(collectionView.safeAreaInsets), axis: axis,
            isRightToLeft: collectionView.effectiveUserInterfaceLayoutDirection == .rightToLeft)
        itemCounts = counts
        // A pinch shows its own frames; the resting layout is built again when it ends.
        if pinchBox?.pinch.isActive != true { state.prepare(containerSize: room.containerSize, itemCounts: counts) }
    }

    /// Forgets a place kept for a layout switch that proposed no offset, so a
    /// later reload never jumps back to it.
    open override func finalizeLayoutTransition() {
        super.finalizeLayoutTransition()
        state.forgetPendingPlace()
    }

    /// Rebuilds at the next ``prepare()`` when everything or the item counts
    /// are invalidated; otherwise the built layout stays.
    open override func invalidateLayout(with context: UICollectionViewLayoutInvalidationContext) {
        if context.invalidateEverything || context.invalidateDataSourceCounts { state.invalidateContents() }
        // Items added or removed under a pinch: its frames no longer match them, so it stops where it is.
        if context.invalidateDataSourceCounts, pinchBox?.pinch.isActive == true { pinchBox?.pinch.abandon() }
        super.invalidateLayout(with: context)
    }

    /// The layout's content size, plus the safe area left uncovered across the
    /// axis.
    open override var collectionViewContentSize: CGSize {
        room.contentSize(for: pinchBox?.pinch.contentSize ?? state.contentSize, along: axis)
    }

    private func shown(_ frame: CGRect) -> CGRect { room.shown(frame, along: axis) }
    private func built(_ rect: CGRect) -> CGRect { room.built(rect, along: axis) }

    /// `true`: layouts are built left to right, and UIKit mirrors them in a
    /// right-to-left interface.
    open override var flipsHorizontallyInOppositeLayoutDirection: Bool { true }

    // MARK: Attributes

    /// The cells visible in `rect` and the section headers and footers that
    /// meet it, in O(visible items + sections); nothing is cached per item.
    open override func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? {
        var attributes: [UICollectionViewLayoutAttributes] = []
        if let pinch = pinchBox?.pinch, pinch.isActive {
            // The pinch's frames: the items visible in either of the two layouts it shows.
            pinch.forEachItem { index, frame in
                let item = UICollectionViewLayoutAttributes(forCellWith: IndexPath(item: index.item, section: index.section))
                item.frame = shown(frame)
                if item.frame.intersects(rect) { attributes.append(item) }
            }
            // Headers move with their sections. (A quilt's footers are left out while it is pinched.)
            for section in 0..<pinch.numberOfSections {
                if let header = pinchHeaderAttributes(section: section, of: pinch), header.frame.intersects(rect) {
                    attributes.append(header)
                }
            }
            return attributes
        }
        guard let layout = state.layout else { return [] }
        layout.forEachItem(in: built(rect)) { index, frame in
            let item = UICollectionViewLayoutAttributes(forCellWith: IndexPath(item: index.item, section: index.section))
            item.frame = shown(frame)
            attributes.append(item)
        }
        for section in 0..<layout.numberOfSections {
            for kind in Self.supplementaryKinds {
                if let view = supplementaryAttributes(kind, section: section, in: layout), view.frame.intersects(rect) {
                    attributes.append(view)
                }
            }
        }
        return attributes
    }

    /// The cell at `indexPath`; `nil` when the layout has no such item or
    /// could not be built.
    open override func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        let index = ItemIndex(item: indexPath.item, section: indexPath.section)
        let pinching = pinchBox?.pinch.isActive == true
        guard let frame = pinching ? pinchBox?.pinch.frame(of: index) : state.layout?.frame(of: index) else {
            return nil
        }
        let attributes = UICollectionViewLayoutAttributes(forCellWith: indexPath)
        attributes.frame = shown(frame)
        return attributes
    }

    /// The header (any layout that has one) or footer (quilts) of
    /// `indexPath`'s section; `nil` for another kind or a section without
    /// one.
    open override func layoutAttributesForSupplementaryView(
        ofKind elementKind: String, at indexPath: IndexPath
    ) -> UICollectionViewLayoutAttributes? {
        if let pinch = pinchBox?.pinch, pinch.isActive {
            guard elementKind == UICollectionView.elementKindSectionHeader else { return nil }
            return pinchHeaderAttributes(section: indexPath.section, of: pinch)
        }
        guard let layout = state.layout else { return nil }
        return supplementaryAttributes(elementKind, section: indexPath.section, in: layout)
    }

    /// A section's header where the pinch shows it now.
    private func pinchHeaderAttributes(section: Int, of pinch: ColumnPinch) -> UICollectionViewLayoutAttributes? {
        guard let frame = pinch.headerFrame(ofSection: section), frame.width > 0, frame.height > 0 else { return nil }
        let attributes = UICollectionViewLayoutAttributes(
            forSupplementaryViewOfKind: UICollectionView.elementKindSectionHeader, with: IndexPath(item: 0, section: section))
        attributes.frame = shown(frame)
        return attributes
    }

    private static let supplementaryKinds = [UICollectionView.elementKindSectionHeader,
                                             UICollectionView.elementKindSectionFooter]

    /// A section's header (every layout may have one) or footer (quilts).
    private func supplementaryAttributes(_ kind: String, section: Int, in layout: any ItemLayout)
        -> UICollectionViewLayoutAttributes? {
        let frame: CGRect?
        switch kind {
        case UICollectionView.elementKindSectionHeader: frame = layout.headerFrame(ofSection: section)
        case UICollectionView.elementKindSectionFooter: frame = (layout as? QuiltLayout)?.footerFrame(ofSection: section)
        default: frame = nil
        }
        guard let frame, frame.width > 0, frame.height > 0 else { return nil }
        let attributes = UICollectionViewLayoutAttributes(
            forSupplementaryViewOfKind: kind, with: IndexPath(item: 0, section: section))
        attributes.frame = shown(frame)
        return attributes
    }

    // MARK: Size changes, snapping, place keeping

    /// Whether the bounds change needs a new layout: only a change of size
    /// does, never a scroll. The first visible item is remembered first, so
    /// the next proposed offset keeps it in place.
    open override func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
        guard let collectionView, pinchBox?.pinch.isActive != true else { return false }
        return state.shouldInvalidateLayout(
            forBoundsChangeFrom: viewport(of: collectionView), to: newBounds,
            isUserScrolling: collectionView.isTracking || collectionView.isDecelerating)
    }

    /// Remembers the first visible item of `oldLayout` (ParallaxKit's or any
    /// other), so the switch to this layout keeps it in place.
    open override func prepareForTransition(from oldLayout: UICollectionViewLayout) {
        super.prepareForTransition(from: oldLayout)
        guard let collectionView else { return }
        let viewport = viewport(of: collectionView)
        if let old = oldLayout as? ParallaxCollectionViewLayout {
            state.keepPlace(of: old.state.anchor(in: viewport))
        } else {
            // Someone else's layout: the same rule over the items it shows.
            let visible = (oldLayout.layoutAttributesForElements(in: collectionView.bounds) ?? [])
                .filter { $0.representedElementCategory == .cell }
                .map { VisibleItem(id: ItemIndex(item: $0.indexPath.item, section: $0.indexPath.section), frame: $0.frame) }
            state.keepPlace(of: PlaceKeeping.anchor(among: visible, axis: axis, viewport: viewport))
        }
    }

    /// The offset that puts the remembered item back in place after a size
    /// change or a layout switch; otherwise `proposedContentOffset` clamped
    /// to the content.
    open override func targetContentOffset(forProposedContentOffset proposedContentOffset: CGPoint) -> CGPoint {
        guard let collectionView else { return proposedContentOffset }
        return state.targetContentOffset(forProposed: proposedContentOffset, in: viewport(of: collectionView))
    }

    /// Where a fling comes to rest: when snapping is on, the resting
    /// position nearest to `proposedContentOffset` (ParallaxLayout's
    /// `ScrollSnapping`, after RHGridCollectionView in RolfHendriks'
    /// UICollectionView-Demo), else the proposal itself. Remembered for
    /// ``motion(of:)``.
    open override func targetContentOffset(
        forProposedContentOffset proposedContentOffset: CGPoint, withScrollingVelocity velocity: CGPoint
    ) -> CGPoint {
        guard let collectionView else { return proposedContentOffset }
        let target = state.targetContentOffset(forProposed: proposedContentOffset, velocity: velocity,
                                               in: viewport(of: collectionView))
        landingOffset = target
        return target
    }

    // MARK: Pinching

    /// The pinch of a layout made by ``pinchableGrid(_:columns:range:isSnappingEnabled:)``
    /// or ``pinchableQuilt(_:columns:range:span:)``; `nil` for other layouts.
    public var columnPinch: ColumnPinch? { pinchBox?.pinch }

    /// The fingers came down at `location` (collection-view coordinates).
    /// Stops a fling where it is. Returns `false` for a layout that cannot
    /// pinch, or when a layout cannot be built (see ``columnPinch``'s error).
    @discardableResult
    public func beginPinch(at location: CGPoint) -> Bool {
        guard let collectionView, let box = pinchBox else { return false }
        // A pinch that begins while the last one settles: that one comes to rest at once.
        if box.pinch.isActive, let offset = box.pinch.finishSettling() { showRestingLayout(at: offset) }
        collectionView.setContentOffset(collectionView.contentOffset, animated: false)   // stops a fling
        let visible = built(unmirrored(collectionView.bounds, in: collectionView))
        let insets = EdgeInsets(collectionView.adjustedContentInset)
        let viewport = ScrollViewport(size: visible.size, contentOffset: visible.origin, insets: insets)
        let focus = focusPoint(location, in: collectionView)
        guard box.pinch.begin(viewport: viewport, focus: focus, containerSize: room.containerSize,
                              itemCounts: itemCounts) else { return false }
        showPinch()
        return true
    }

    /// The gesture moved: its scale since it began, and the point between
    /// the fingers (collection-view coordinates).
    public func changePinch(scale: CGFloat, at location: CGPoint) {
        guard let collectionView, let box = pinchBox else { return }
        box.pinch.change(scale: scale, focus: focusPoint(location, in: collectionView))
        showPinch()
    }

    /// The fingers lifted (or the gesture was cancelled) at `time`
    /// (`CACurrentMediaTime()`), with the gesture's scale changing by
    /// `velocity` per second. Play the settle with ``advancePinch(to:)``.
    public func endPinch(velocity: CGFloat, cancelled: Bool, at time: TimeInterval) {
        pinchBox?.pinch.end(scaleVelocity: velocity, cancelled: cancelled, at: time)
        showPinch()
    }

    /// Moves the settle to `time`; returns whether it is still running. Once
    /// it has ended, the resting layout of the new column count is built and
    /// shown where the settle left the photos.
    @discardableResult
    public func advancePinch(to time: TimeInterval) -> Bool {
        guard let box = pinchBox, box.pinch.isActive else { return false }
        let offset = box.pinch.contentOffset
        let running = box.pinch.advance(to: time)
        if running {
            showPinch()
        } else if let offset {
            showRestingLayout(at: offset)
        }
        return running
    }

    /// Builds the resting layout of the pinch's column count and shows it at
    /// `offset` (layout coordinates): where a pinch came to rest.
    private func showRestingLayout(at offset: CGPoint) {
        guard let collectionView else { return }
        state.invalidateContents()
        invalidateLayout()
        collectionView.layoutIfNeeded()
        let size = built(collectionView.bounds).size
        collectionView.contentOffset = mirrored(shown(CGRect(origin: offset, size: size)), in: collectionView).origin
    }

    /// Shows the pinch's current frames at its offset.
    private func showPinch() {
        guard let collectionView, let offset = pinchBox?.pinch.contentOffset else { return }
        invalidateLayout()
        let size = built(collectionView.bounds).size
        collectionView.contentOffset = mirrored(shown(CGRect(origin: offset, size: size)), in: collectionView).origin
    }

    /// `location` (collection-view coordinates) in the coordinates of the
    /// visible rectangle of the layout.
    private func focusPoint(_ location: CGPoint, in collectionView: UICollectionView) -> CGPoint {
        let visible = built(unmirrored(collectionView.bounds, in: collectionView))
        let point = built(unmirrored(CGRect(origin: location, size: .zero), in: collectionView)).origin
        return CGPoint(x: point.x - visible.minX, y: point.y - visible.minY)
    }

    /// In a right-to-left interface UIKit mirrors this layout's frames
    /// across the content's width (``flipsHorizontallyInOppositeLayoutDirection``)
    /// but not the content offset or touch locations: `rect` (collection-view
    /// coordinates) as the layout, built left to right, sees it. Unchanged
    /// left to right.
    private func unmirrored(_ rect: CGRect, in collectionView: UICollectionView) -> CGRect {
        guard collectionView.effectiveUserInterfaceLayoutDirection == .rightToLeft else { return rect }
        var mirrored = rect
        mirrored.origin.x = collectionViewContentSize.width - rect.maxX
        return mirrored
    }

    /// The inverse of ``unmirrored(_:in:)`` (the same reflection): a
    /// rectangle of the layout's content where UIKit shows it.
    private func mirrored(_ rect: CGRect, in collectionView: UICollectionView) -> CGRect {
        unmirrored(rect, in: collectionView)
    }

    // MARK: Loading

    /// The path of the scroll as far as it is known: towards where the
    /// fling lands (UIKit asks the layout for that offset when a drag ends)
    /// at the collection view's deceleration rate while it decelerates; at
    /// rest otherwise. ``ParallaxController`` plans loading with it.
    public func motion(of collectionView: UICollectionView) -> ScrollMotion {
        let offset = axis.main(collectionView.contentOffset)
        guard collectionView.isDecelerating, !collectionView.isTracking, let landingOffset else { return .resting(at: offset) }
        let rate = DecelerationRate(rawValue: collectionView.decelerationRate.rawValue)
        return ScrollMotion(offset: offset, restingOffset: axis.main(landingOffset), decayPerSecond: rate.decayPerSecond)
    }

    /// `rect` of the collection view (its bounds, say) in the coordinates
    /// of ``state``'s layout.
    public func layoutRect(of rect: CGRect) -> CGRect { room.built(rect, along: axis) }

    /// A frame of ``state``'s layout where the collection view shows it.
    public func shownFrame(of frame: CGRect) -> CGRect { room.shown(frame, along: axis) }

    // MARK: Geometry

    /// The collection view as place keeping and snapping see it: its size,
    /// offset and adjusted insets (safe area included).
    private func viewport(of collectionView: UICollectionView) -> ScrollViewport {
        ScrollViewport(size: collectionView.bounds.size, contentOffset: collectionView.contentOffset,
                       insets: EdgeInsets(collectionView.adjustedContentInset))
    }
}

/// The pinch a pinchable layout and its builder share: the builder reads
/// the resting column count when UIKit asks for a new layout.
@MainActor
private final class PinchBox {
    var pinch: ColumnPinch
    init(_ pinch: ColumnPinch) { self.pinch = pinch }
}
#endif
