#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore
import ParallaxLayout

/// A layout of several sections, each under a header, seen as one section
/// of consecutive items: item `i` of the whole is item `i − start(s)` of
/// the section `s` it falls in.
///
/// The gallery numbers photos by their position in the arranged order
/// (``PhotoTimeline``), whatever month they fall in; everything it does
/// with a layout (place keeping, switches, pinches, loading plans) speaks
/// of those positions. The layouts themselves (grid, quilt, waterfall)
/// lay out sections with headers; this wraps one so both hold, and hands
/// the headers to whoever draws them (``forEachHeader(in:_:)``).
///
/// Complexity: O(1) to map an item the base reports (its section's start
/// is a lookup); O(log sections) to map a position to the base's index.
package struct FlattenedSections<Base: ItemLayout>: ItemLayout, FlattenedLayout {
    /// The sectioned layout.
    package let base: Base
    /// `starts[s]` is the position of section `s`'s first item; the last
    /// element is the number of items.
    private let starts: [Int]

    package init(_ base: Base) {
        self.base = base
        var starts = [0]
        starts.reserveCapacity(base.numberOfSections + 1)
        for section in 0..<base.numberOfSections { starts.append(starts[starts.count - 1] + base.numberOfItems(inSection: section)) }
        self.starts = starts
    }

    private init(base: Base, starts: [Int]) {
        self.base = base
        self.starts = starts
    }

    /// The base's index of position `item`, or `nil` past the end.
    package func baseIndex(of item: Int) -> ItemIndex? {
        guard item >= 0, item < starts[starts.count - 1] else { return nil }
        // The last section whose start is at or before `item` (empty sections share a start).
        var low = 0, high = starts.count - 2
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= item { low = middle } else { high = middle - 1 }
        }
        return ItemIndex(item: item - starts[low], section: low)
    }

    /// The position of the base's `index`.
    @inline(__always)
    package func position(of index: ItemIndex) -> Int { starts[index.section] + index.item }

    /// Calls `body` with every section whose header is visible in `rect`,
    /// and the header's frame. O(sections).
    package func forEachHeader(in rect: CGRect, _ body: (Int, CGRect) -> Void) {
        for section in 0..<base.numberOfSections {
            guard let frame = base.headerFrame(ofSection: section) else { continue }
            if frame.intersects(rect) { body(section, frame) }
        }
    }

    package var sectionedLayout: any ItemLayout { base }

    // MARK: ItemLayout

    package var axis: ScrollAxis { base.axis }
    package var isMainAxisMirrored: Bool { base.isMainAxisMirrored }
    package var contentSize: CGSize { base.contentSize }
    package var numberOfSections: Int { 1 }
    package var placesItemsInIndexOrder: Bool { base.placesItemsInIndexOrder }

    package func numberOfItems(inSection section: Int) -> Int { section == 0 ? starts[starts.count - 1] : 0 }

    package func frame(of index: ItemIndex) -> CGRect? {
        guard index.section == 0, let inner = baseIndex(of: index.item) else { return nil }
        return base.frame(of: inner)
    }

    /// None: the sections' headers are the base's (``forEachHeader(in:_:)``).
    package func headerFrame(ofSection section: Int) -> CGRect? { nil }

    package func forEachItem(in rect: CGRect, _ body: (ItemIndex, CGRect) throws -> Void) rethrows {
        try base.forEachItem(in: rect) { index, frame in try body(ItemIndex(item: position(of: index)), frame) }
    }

    package func restingPosition(showing index: ItemIndex) -> CGFloat? {
        guard index.section == 0, let inner = baseIndex(of: index.item) else { return nil }
        return base.restingPosition(showing: inner)
    }

    package func restingPosition(nearest position: CGFloat) -> CGFloat? { base.restingPosition(nearest: position) }

    package func aligning(_ index: ItemIndex, across position: CGFloat) -> FlattenedSections<Base> {
        guard index.section == 0, let inner = baseIndex(of: index.item) else { return self }
        return FlattenedSections(base: base.aligning(inner, across: position), starts: starts)
    }
}

/// A ``FlattenedSections`` of any base: what code that does not know the
/// base asks (its headers, its column count).
package protocol FlattenedLayout: ItemLayout {
    /// The sectioned layout underneath.
    var sectionedLayout: any ItemLayout { get }
    /// The base's index of position `item`, or `nil` past the end.
    func baseIndex(of item: Int) -> ItemIndex?
    /// Calls `body` with every section whose header is visible in `rect`.
    func forEachHeader(in rect: CGRect, _ body: (Int, CGRect) -> Void)
}
