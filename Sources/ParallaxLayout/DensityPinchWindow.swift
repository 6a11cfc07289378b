#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// The items around a pinch's anchor, numbered by *slot*: up to
/// ``capacity`` items in index order, across section boundaries, with the
/// anchor near the middle.
///
/// A pinch keeps every layout's frames of these items
/// (``frames(in:)``), read once when the layout first joins a pair, so
/// that a frame's walk takes an item's frame at the other end from there
/// instead of asking the layout; and a walk marks the slots it has
/// reported in a few words of its own stack (``SlotSet``), so the second
/// layout's pass knows what the first one reported without looking it up.
/// The window is fixed for the whole pinch (the anchor does not change)
/// and is shared, immutable, by every layout's frames.
///
/// Every visible band of a pinch holds the anchor, so all but a band far
/// taller than a screen lies within the window; an item outside it is
/// looked up in the layout instead (the same frames, only slower).
@usableFromInline
struct DensityPinchWindow: Sendable {
    /// The most items a window holds: many screens of a quilt (and one
    /// bit each in a ``SlotSet``).
    @usableFromInline static var capacity: Int { 1_024 }

    /// Where a section's items fall in the window: item `i` has slot
    /// `zero + i`, for `i` in `items`.
    @usableFromInline
    struct Slots: Sendable {
        @usableFromInline let zero: Int
        @usableFromInline let items: Range<Int>

        @inlinable
        init(zero: Int, items: Range<Int>) {
            self.zero = zero
            self.items = items
        }
    }

    /// The first section the window reaches into.
    @usableFromInline let firstSection: Int
    /// The slots of each section the window reaches into, from
    /// ``firstSection`` on.
    @usableFromInline let sections: [Slots]
    /// The slots in use: `0..<count`.
    @usableFromInline let count: Int

    /// A window of no items: every item is looked up.
    @usableFromInline static let empty = DensityPinchWindow(firstSection: 0, sections: [], count: 0)

    private init(firstSection: Int, sections: [Slots], count: Int) {
        self.firstSection = firstSection
        self.sections = sections
        self.count = count
    }

    /// The window around `anchor` in `layout` (whose section sizes every
    /// layout of the pinch shares): up to half the capacity before the
    /// anchor, the rest from the anchor on; fewer on one side leaves more
    /// room for the other.
    ///
    /// - Complexity: O(sections crossed), at most O(``capacity``) sections
    ///   each way (empty sections count).
    init(around anchor: ItemIndex, in layout: some ItemLayout) {
        let capacity = Self.capacity
        assert(MemoryLayout<SlotSet>.size * 8 >= capacity, "a set of slots holds every slot")
        let sectionCount = layout.numberOfSections
        guard anchor.section >= 0, anchor.section < sectionCount,
              anchor.item >= 0, anchor.item < layout.numberOfItems(inSection: anchor.section) else {
            self = .empty
            return
        }
        // How many items lie on each side, as far as the window could reach.
        var before = anchor.item, first = anchor.section
        while before < capacity, first > 0, anchor.section - first < capacity {
            first -= 1
            before += layout.numberOfItems(inSection: first)
        }
        var after = layout.numberOfItems(inSection: anchor.section) - anchor.item, last = anchor.section
        while after < capacity, last < sectionCount - 1, last - anchor.section < capacity {
            last += 1
            after += layout.numberOfItems(inSection: last)
        }
        let takenAfter = min(after, max(capacity / 2, capacity - before))
        let takenBefore = min(before, capacity - takenAfter)
        // Slot of each section's item 0: the anchor sits at slot `takenBefore`.
        var zero = takenBefore - anchor.item
        var zeros = [zero]
        for section in stride(from: anchor.section - 1, through: first, by: -1) {
            zero -= layout.numberOfItems(inSection: section)
            zeros.append(zero)
        }
        zeros.reverse()
        zero = zeros[zeros.count - 1]
        for section in (anchor.section + 1)..<(last + 1) {
            zero += layout.numberOfItems(inSection: section - 1)
            zeros.append(zero)
        }
        let count = takenBefore + takenAfter
        let sections = zeros.enumerated().map { offset, zero in
            let items = layout.numberOfItems(inSection: first + offset)
            let low = max(0, -zero), high = min(items, count - zero)
            return Slots(zero: zero, items: low..<max(low, high))
        }
        self.init(firstSection: first, sections: sections, count: count)
    }

    /// The slot of `index`, or `nil` outside the window.
    @inlinable @inline(__always)
    func slot(of index: ItemIndex) -> Int? {
        let offset = index.section &- firstSection
        guard offset >= 0, offset < sections.count else { return nil }
        let slots = sections[offset]
        guard slots.items.contains(index.item) else { return nil }
        return slots.zero + index.item
    }

    /// `layout`'s frame of every item of the window, by slot: `CGRect.null`
    /// for an item `layout` does not have.
    ///
    /// - Complexity: O(``count``) frame lookups.
    func frames(in layout: some ItemLayout) -> [CGRect] {
        var frames = [CGRect](repeating: .null, count: count)
        for (offset, slots) in sections.enumerated() {
            for item in slots.items {
                let index = ItemIndex(item: item, section: firstSection + offset)
                frames[slots.zero + item] = layout.frame(of: index) ?? .null
            }
        }
        return frames
    }
}

extension DensityPinchWindow {
    /// `layout`'s frame of `index`, whose slot is `slot` (`nil`: outside
    /// the window): read from `frames` (the layout's frames of the window,
    /// see ``frames(in:)``, or empty) when they hold it, else asked of the
    /// layout; `nil` if the layout does not have the item. O(1) from
    /// `frames`.
    @inlinable @inline(__always)
    static func frame<L: ItemLayout>(of index: ItemIndex, slot: Int?, in frames: [CGRect], of layout: L) -> CGRect? {
        if let slot, slot < frames.count {
            let frame = frames[slot]
            return frame.isNull ? nil : frame
        }
        return layout.frame(of: index)
    }
}

extension DensityPinchWindow {
    /// A set of a window's slots, a bit each: a plain value of sixteen
    /// words (``DensityPinchWindow/capacity`` bits) that a walk keeps on
    /// its own stack, made empty for each walk.
    @usableFromInline
    struct SlotSet {
        @usableFromInline var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                                      UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

        /// An empty set.
        @inlinable
        init() {
            words = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        }

        /// Adds `slot` (in `0..<capacity`). O(1).
        @inlinable @inline(__always)
        mutating func insert(_ slot: Int) {
            withUnsafeMutableBytes(of: &words) { words in
                let offset = (slot >> 6) << 3
                words.storeBytes(of: words.load(fromByteOffset: offset, as: UInt64.self) | 1 << UInt64(slot & 63),
                                 toByteOffset: offset, as: UInt64.self)
            }
        }

        /// Whether the set holds `slot` (in `0..<capacity`). O(1).
        @inlinable @inline(__always)
        func contains(_ slot: Int) -> Bool {
            withUnsafeBytes(of: words) { words in
                words.load(fromByteOffset: (slot >> 6) << 3, as: UInt64.self) & (1 << UInt64(slot & 63)) != 0
            }
        }
    }
}
