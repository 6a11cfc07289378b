#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// The layouts a ``DensityPinch`` has built, one per column count of its
/// range, each with what the pinch reads from it more than once: the
/// anchor's frame, and (once the layout is in a pair that needs them) its
/// frames of the items around the anchor.
///
/// A column count's layout is built the first time the pinch reaches it,
/// aligned so the anchor lies under where the fingers came down
/// (`ItemLayout.aligning(_:across:)`), and kept for the rest of the pinch,
/// so chaining back and forth costs one build per count. The store is a
/// value: the arrays are copied (on write) only when a count is first
/// reached.
@usableFromInline
struct DensityPinchLayouts<Layout: ItemLayout> {
    /// What the pinch knows of one column count.
    @usableFromInline
    struct Entry {
        @usableFromInline let layout: Layout
        /// The anchor's frame, `nil` without an anchor (or if the layout
        /// does not have it).
        @usableFromInline let anchorFrame: CGRect?
        /// The layout's frames of the window's items (see
        /// ``DensityPinchWindow/frames(in:)``), read when first needed.
        @usableFromInline var windowFrames: [CGRect]?
    }

    /// The column counts the pinch may reach.
    @usableFromInline let columnRange: ClosedRange<Int>
    /// The item the pinch keeps under the fingers.
    @usableFromInline let anchor: ItemIndex?
    /// The items around the anchor, the same in every layout.
    @usableFromInline let window: DensityPinchWindow
    /// Builds the layout of a column count (not yet aligned).
    private let makeLayout: (Int) throws(LayoutError) -> Layout
    /// Where every count's layout puts the anchor across the axis, in
    /// content coordinates.
    private let alignment: CGFloat
    /// The entries by column count minus the range's lowest.
    private var entries: [Entry?]

    /// A store holding `start`, the layout of `columns` the pinch began
    /// with (kept as it is, not aligned), whose `anchor` is where the
    /// fingers came down at `alignment` across the axis.
    ///
    /// - Complexity: O(items of the window's sections near the anchor).
    init(start: Layout, columns: Int, in columnRange: ClosedRange<Int>, anchor: ItemIndex?, alignment: CGFloat,
         layout makeLayout: @escaping (Int) throws(LayoutError) -> Layout) {
        self.columnRange = columnRange
        self.anchor = anchor
        self.window = anchor.map { DensityPinchWindow(around: $0, in: start) } ?? .empty
        self.makeLayout = makeLayout
        self.alignment = alignment
        entries = Array(repeating: nil, count: columnRange.count)
        entries[columns - columnRange.lowerBound] = Entry(layout: start, anchorFrame: anchor.flatMap(start.frame(of:)))
    }

    /// The layout of `columns`, if built.
    func layout(columns: Int) -> Layout? {
        columnRange.contains(columns) ? entries[columns - columnRange.lowerBound]?.layout : nil
    }

    /// The anchor's frame in the layout of `columns`, if built and it has one.
    func anchorFrame(columns: Int) -> CGRect? {
        columnRange.contains(columns) ? entries[columns - columnRange.lowerBound]?.anchorFrame : nil
    }

    /// The entry of `columns` (within the range), building its layout the
    /// first time.
    ///
    /// - Throws: ``LayoutError`` when the layout cannot be built; the store
    ///   is then unchanged.
    /// - Complexity: O(1) once built; otherwise one layout build.
    @discardableResult
    mutating func entry(columns: Int) throws(LayoutError) -> Entry {
        let slot = columns - columnRange.lowerBound
        if let entry = entries[slot] { return entry }
        var layout = try makeLayout(columns)
        if let anchor { layout = layout.aligning(anchor, across: alignment) }
        let entry = Entry(layout: layout, anchorFrame: anchor.flatMap(layout.frame(of:)))
        entries[slot] = entry
        return entry
    }

    /// The pair of `columns` and the next count (or `columns` again at the
    /// top of a single-count range), both built, and, unless they are two
    /// grids (which walk in closed form), with their frames of the window's
    /// items, each read the first time a layout joins such a pair.
    ///
    /// - Complexity: O(1) for counts met before; otherwise a layout build
    ///   and O(``DensityPinchWindow/capacity``) frame lookups per new count.
    mutating func pair(columns: Int) throws(LayoutError) -> DensityPinchPair<Layout> {
        let upper = min(columns + 1, columnRange.upperBound)
        let source = try entry(columns: columns), destination = try entry(columns: upper)
        let concrete = ConcretePair(source.layout, destination.layout)
        var sourceFrames: [CGRect] = [], destinationFrames: [CGRect] = []
        if case .grids = concrete {} else if window.count > 0 {
            sourceFrames = windowFrames(columns: columns)
            destinationFrames = windowFrames(columns: upper)
        }
        return DensityPinchPair(source: source.layout, destination: destination.layout, concrete: concrete,
                                sourceAnchor: source.anchorFrame, destinationAnchor: destination.anchorFrame,
                                window: window, sourceFrames: sourceFrames, destinationFrames: destinationFrames)
    }

    /// The window's frames in the (built) layout of `columns`, read the
    /// first time.
    private mutating func windowFrames(columns: Int) -> [CGRect] {
        let slot = columns - columnRange.lowerBound
        if let frames = entries[slot]?.windowFrames { return frames }
        guard let layout = entries[slot]?.layout else { return [] }
        let frames = window.frames(in: layout)
        entries[slot]?.windowFrames = frames
        return frames
    }
}
