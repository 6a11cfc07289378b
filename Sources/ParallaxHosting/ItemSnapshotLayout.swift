#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore
import ParallaxLayout

/// An `ItemLayout` made of the items another layout reported in some
/// rectangles: what a UIKit adapter reads from a flow, compositional or
/// custom layout (`layoutAttributesForElements(in:)`) or a table (its
/// rows' rectangles), so ``ViewportLoading`` and ``LoadingRanges`` plan over
/// it as over ParallaxKit's own layouts.
///
/// Items outside the rectangles read do not exist for the snapshot: read
/// the viewport alone on a frame that plans nothing, and the
/// ``LookAheadRegion`` when ``ViewportLoading/needsPlan(layout:visibleRect:motion:)``
/// says a plan is due.
///
/// Complexity: O(items) per ``forEachItem(in:_:)`` (a few hundred at most:
/// one region's worth); O(1) for ``frame(of:)``.
public struct ItemSnapshotLayout: ItemLayout {
    /// The axis the content scrolls along.
    public let axis: ScrollAxis
    /// Whether the first item is at the far end (a right-to-left horizontal layout).
    public let isMainAxisMirrored: Bool
    /// The size of all the content.
    public let contentSize: CGSize

    private let itemCounts: [Int]
    private let items: [(index: ItemIndex, frame: CGRect)]
    private let frames: [ItemIndex: CGRect]

    /// A snapshot of `items` (each listed once; a repeat keeps the first
    /// frame) in content of `contentSize` along `axis`, whose sections hold
    /// `itemCounts` items.
    public init(axis: ScrollAxis, contentSize: CGSize, itemCounts: [Int],
                items: some Sequence<(ItemIndex, CGRect)>, isMainAxisMirrored: Bool = false) {
        self.axis = axis
        self.contentSize = contentSize
        self.itemCounts = itemCounts
        self.isMainAxisMirrored = isMainAxisMirrored
        var frames: [ItemIndex: CGRect] = [:]
        var list: [(index: ItemIndex, frame: CGRect)] = []
        for (index, frame) in items where frames[index] == nil {
            frames[index] = frame
            list.append((index, frame))
        }
        list.sort { $0.index < $1.index }
        self.items = list
        self.frames = frames
    }

    /// The number of items in the snapshot.
    public var count: Int { items.count }

    /// The number of sections.
    public var numberOfSections: Int { itemCounts.count }

    /// The number of items in `section` (0 for a section that does not exist).
    public func numberOfItems(inSection section: Int) -> Int {
        itemCounts.indices.contains(section) ? itemCounts[section] : 0
    }

    /// The frame of the item at `index`, if the snapshot holds it.
    public func frame(of index: ItemIndex) -> CGRect? { frames[index] }

    /// Headers are not planned: none.
    public func headerFrame(ofSection section: Int) -> CGRect? { nil }

    /// Calls `body` for every item of the snapshot visible in `rect`, in index order.
    public func forEachItem(in rect: CGRect, _ body: (ItemIndex, CGRect) throws -> Void) rethrows {
        for item in items where item.frame.isVisible(in: rect) { try body(item.index, item.frame) }
    }

    /// Not known from a snapshot: `nil`.
    public func restingPosition(showing index: ItemIndex) -> CGFloat? { nil }

    /// Not known from a snapshot: `nil`.
    public func restingPosition(nearest position: CGFloat) -> CGFloat? { nil }
}
