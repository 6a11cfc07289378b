#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore
import ParallaxImages
import ParallaxLayout

/// Which item a detail view shows as it pages to the next or previous
/// photo, and so which tile its closing zoom returns to.
///
/// A detail view opened from one tile may page away from it; closing must
/// then zoom back to the tile of the photo shown *now*, not the one that
/// was tapped. Paging runs through every item of every section in order,
/// skipping empty sections. ``revealPolicy`` says how far the grid may
/// scroll to show the tile it returns to (``ZoomSourceResolution``).
///
/// Complexity: O(1) per page within a section; O(sections) to cross into
/// another.
public struct DetailPaging: Sendable, Hashable {
    /// The number of items in each section.
    public private(set) var itemCounts: [Int]
    /// The item shown now: the one the closing zoom returns to.
    public private(set) var current: ItemIndex
    /// The item the detail view was opened from.
    public let opened: ItemIndex

    /// Paging that starts at `index` among sections of `itemCounts` items;
    /// `nil` when there is no such item.
    public init?(opening index: ItemIndex, itemCounts: [Int]) {
        guard itemCounts.indices.contains(index.section), (0..<itemCounts[index.section]).contains(index.item) else {
            return nil
        }
        self.itemCounts = itemCounts
        current = index
        opened = index
    }

    /// Whether the detail view shows another item than the one it opened from.
    public var hasPaged: Bool { current != opened }

    /// How far the grid may scroll to show the tile the zoom returns to:
    /// only when nothing of it shows while the detail view shows the tapped
    /// photo (the tile is where the finger left it), until it shows whole
    /// once the detail view has paged.
    public var revealPolicy: ZoomReveal { hasPaged ? .whole : .ifHidden }

    /// The item after ``current``, `nil` at the end.
    public var next: ItemIndex? {
        if current.item + 1 < itemCounts[current.section] { return ItemIndex(item: current.item + 1, section: current.section) }
        var section = current.section + 1
        while section < itemCounts.count {
            if itemCounts[section] > 0 { return ItemIndex(item: 0, section: section) }
            section += 1
        }
        return nil
    }

    /// The item before ``current``, `nil` at the start.
    public var previous: ItemIndex? {
        if current.item > 0 { return ItemIndex(item: current.item - 1, section: current.section) }
        var section = current.section - 1
        while section >= 0 {
            if itemCounts[section] > 0 { return ItemIndex(item: itemCounts[section] - 1, section: section) }
            section -= 1
        }
        return nil
    }

    /// Shows the next item; `false` (and nothing changes) at the end.
    @discardableResult
    public mutating func pageForward() -> Bool {
        guard let next else { return false }
        current = next
        return true
    }

    /// Shows the previous item; `false` (and nothing changes) at the start.
    @discardableResult
    public mutating func pageBackward() -> Bool {
        guard let previous else { return false }
        current = previous
        return true
    }

    /// Shows `index`; `false` (and nothing changes) when there is no such item.
    @discardableResult
    public mutating func page(to index: ItemIndex) -> Bool {
        guard itemCounts.indices.contains(index.section), (0..<itemCounts[index.section]).contains(index.item) else {
            return false
        }
        current = index
        return true
    }
}

/// How far a grid may scroll so that a zoom can return to a tile.
public enum ZoomReveal: Sendable, Hashable {
    /// Not at all: the tile is used where it is if any of it shows.
    case never
    /// Only when nothing of the tile shows, to bring it whole into view.
    case ifHidden
    /// Until the whole tile shows, past the bars (the least scroll that
    /// does: ``RevealOffset``).
    case whole
}

/// A scrolling grid as a zoom transition sees it when it needs a source
/// tile: its viewport, its layout's frames, and the views it shows now.
///
/// UIKit's `ParallaxZoomSource` makes a `UICollectionView` one; tests use
/// fakes, so every decision about which tile a zoom uses is tested on Linux.
@MainActor
public protocol ZoomSourceHost: AnyObject {
    /// The kind of view that shows an item's photo.
    associatedtype Source: ZoomSourceView

    /// The axis the grid scrolls along.
    var zoomAxis: ScrollAxis { get }
    /// The grid's viewport: its size, content offset and insets (the bars
    /// included, as UIKit's `adjustedContentInset`).
    var zoomViewport: ScrollViewport { get }
    /// The size of the grid's content.
    var zoomContentSize: CGSize { get }
    /// The layout's frame for the item at `index`, in content coordinates,
    /// whether or not a view shows it; `nil` when there is no such item.
    func zoomLayoutFrame(at index: ItemIndex) -> CGRect?
    /// The view showing the item at `index` now and its frame in content
    /// coordinates; `nil` when none does (scrolled away, never made).
    func zoomSource(at index: ItemIndex) -> (view: Source, frame: CGRect)?
    /// Moves the content offset to `offset` without animation and lays the
    /// grid out, so the views of what is now visible exist.
    func zoomScroll(to offset: CGPoint)
}

/// What a zoom transition does for an item: use its tile, scroll the grid
/// first, or fall back to a cross-fade.
public enum ZoomSourceDecision: Sendable, Equatable {
    /// The tile shows the photo, on screen: zoom to it.
    case use
    /// Scroll the grid to this content offset first, then decide again.
    case reveal(CGPoint)
    /// No tile can be the source: return no view, and the transition
    /// cross-fades (UIKit's zoom does when its source view provider
    /// returns `nil`).
    case fallBack(ZoomFallbackReason)
}

/// Why no tile can be a zoom's source.
public enum ZoomFallbackReason: Sendable, Hashable {
    /// The layout has no such item (the model changed under the detail view).
    case noSuchItem
    /// No view shows the item (off screen, and the grid may not scroll to it).
    case notShown
    /// The view at the item shows another photo (the model changed, or the
    /// view was reused).
    case showsAnotherPhoto
    /// The tile is there but nothing of it shows past the bars.
    case offScreen
}

/// Which tile a zoom transition starts from or returns to, asked each time
/// the transition needs one (UIKit asks its source view provider when it
/// presents and again when it dismisses).
///
/// A tile is used only while it shows the photo the detail view shows and
/// some of it is on screen; a tile scrolled away, or reused for another
/// photo, is never used. When the item has scrolled away (the detail view
/// paged to another photo, or rotated), the grid is first scrolled by the
/// least amount that shows it (``RevealOffset``), as ``ZoomReveal`` allows.
///
/// Complexity: O(1) besides the host's lookups.
public enum ZoomSourceResolution {
    /// What to do for the item at `index`, which the detail view shows as
    /// `imageID`, in `host`, scrolling as far as `reveal` allows.
    @MainActor
    public static func decide<Host: ZoomSourceHost>(for index: ItemIndex, showing imageID: ImageID, in host: Host,
                                                    reveal: ZoomReveal) -> ZoomSourceDecision {
        guard let layoutFrame = host.zoomLayoutFrame(at: index) else { return .fallBack(.noSuchItem) }
        let found = host.zoomSource(at: index)
        if let found, found.view.zoomImageID != imageID { return .fallBack(.showsAnotherPhoto) }
        let viewport = host.zoomViewport, axis = host.zoomAxis
        let tile = found?.frame ?? layoutFrame
        let unobscured = viewport.visibleRect.shrunk(by: viewport.insets)
        let showsPart = !unobscured.intersection(tile).isNull && !unobscured.intersection(tile).isEmpty
        let target = revealingOffset(for: tile, in: viewport, contentSize: host.zoomContentSize, axis: axis)
        let moves = abs(axis.main(target) - axis.main(viewport.contentOffset)) > 0.5
        switch reveal {
        case .never:
            break
        case .ifHidden:
            if found == nil || !showsPart, moves { return .reveal(target) }
        case .whole:
            if moves { return .reveal(target) }
        }
        guard found != nil else { return .fallBack(.notShown) }
        return showsPart ? .use : .fallBack(.offScreen)
    }

    /// The view to use as the source for the item at `index`, shown as
    /// `imageID`: scrolls `host` once if ``decide(for:showing:in:reveal:)``
    /// says to, then decides again without scrolling. `nil`: no tile can
    /// be the source (cross-fade).
    @MainActor
    public static func source<Host: ZoomSourceHost>(for index: ItemIndex, showing imageID: ImageID, in host: Host,
                                                    reveal: ZoomReveal) -> Host.Source? {
        var decision = decide(for: index, showing: imageID, in: host, reveal: reveal)
        if case .reveal(let offset) = decision {
            host.zoomScroll(to: offset)
            decision = decide(for: index, showing: imageID, in: host, reveal: .never)
        }
        guard decision == .use else { return nil }
        return host.zoomSource(at: index)?.view
    }

    /// The content offset that shows `tile` whole past the viewport's
    /// insets with the least scroll along `axis` (its top or leading edge
    /// when it is longer than the unobscured length), within the offsets
    /// the grid can rest at. The offset across the axis is kept.
    public static func revealingOffset(for tile: CGRect, in viewport: ScrollViewport, contentSize: CGSize,
                                       axis: ScrollAxis) -> CGPoint {
        let lower = viewport.insets.lowerInset(along: axis), upper = viewport.insets.upperInset(along: axis)
        let span = axis.mainSpan(of: tile.standardized)
        // RevealOffset measures along y from the offset: the item is moved by the lower inset, so "visible"
        // means past the bar at the top (or leading) edge and before the one at the far edge.
        let along = CGRect(x: 0, y: span.lowerBound - lower, width: 1, height: span.length)
        let offset = axis.main(viewport.contentOffset)
        let main = RevealOffset.offset(revealing: along, from: offset,
                                       visibleLength: axis.main(viewport.size) - lower - upper,
                                       range: viewport.offsetRange(contentExtent: axis.main(contentSize), along: axis))
        return axis.point(main: main, cross: axis.cross(viewport.contentOffset))
    }
}

extension CGRect {
    /// The rectangle shrunk by `insets` (ParallaxCore's insets, not UIKit's).
    fileprivate func shrunk(by insets: ParallaxCore.EdgeInsets) -> CGRect {
        CGRect(x: minX + insets.left, y: minY + insets.top, width: max(0, width - insets.left - insets.right),
               height: max(0, height - insets.top - insets.bottom))
    }
}
