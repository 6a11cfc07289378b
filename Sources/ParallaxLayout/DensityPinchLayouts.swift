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
/// value: its arrays (a few entries, one per count) are copied on write
/// only when a count is first reached or first joins a pair that reads its
/// frames, never per frame. The frames around the anchor take up to 32 KB
/// per count that needs them.
struct DensityPinchLayouts<Layout: ItemLayout> {
    /// The column counts the pinch may reach.
    let columnRange: ClosedRange<Int>
    /// The item the pinch keeps under the fingers.
    let anchor: ItemIndex?
    /// The items around the anchor, the same in every layout.
    let window: DensityPinchWindow
    /// Builds the layout of a column count (not yet aligned).
    private let makeLayout: (Int) throws(LayoutError) -> Layout
    /// Where every count's layout puts the anchor across the axis, in
    /// content coordinates.
    private let alignment: CGFloat
    // By column count minus the range's lowest. Three arrays rather than one
    // of a generic entry: a frame's `update` reads the anchor's frames only,
    // and reading them touches no type built from `Layout`.
    /// The layouts built so far.
    private var layouts: [Layout?]
    /// The anchor's frame in each (`nil` without an anchor, or if the layout
    /// does not have it).
    private var anchorFrames: [CGRect?]
    /// Each layout's frames of the window's items (see
    /// ``DensityPinchWindow/frames(in:)``), read when first needed.
    private var windowFrames: [[CGRect]?]

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
        layouts = Array(repeating: nil, count: columnRange.count)
        anchorFrames = Array(repeating: nil, count: columnRange.count)
        windowFrames = Array(repeating: nil, count: columnRange.count)
        layouts[columns - columnRange.lowerBound] = start
        anchorFrames[columns - columnRange.lowerBound] = anchor.flatMap(start.frame(of:))
    }

    /// The layout of `columns`, if built.
    func layout(columns: Int) -> Layout? {
        columnRange.contains(columns) ? layouts[columns - columnRange.lowerBound] : nil
    }

    /// The anchor's frame in the layout of `columns`, if built and it has one.
    func anchorFrame(columns: Int) -> CGRect? {
        columnRange.contains(columns) ? anchorFrames[columns - columnRange.lowerBound] : nil
    }

    /// The anchor's frame in the layout of `columns` (within the range),
    /// building the layout the first time.
    ///
    /// - Throws: ``LayoutError`` when the layout cannot be built; the store
    ///   is then unchanged.
    /// - Complexity: O(1) once built; otherwise one layout build.
    @inline(__always)
    mutating func anchorFrame(building columns: Int) throws(LayoutError) -> CGRect? {
        if let frame = anchorFrames[columns - columnRange.lowerBound] { return frame }
        return try build(columns: columns).anchorFrame
    }

    /// The layout of `columns` (within the range) and the anchor's frame in
    /// it, building the layout the first time.
    @discardableResult
    mutating func build(columns: Int) throws(LayoutError) -> (layout: Layout, anchorFrame: CGRect?) {
        let slot = columns - columnRange.lowerBound
        if let layout = layouts[slot] { return (layout, anchorFrames[slot] ?? anchor.flatMap(layout.frame(of:))) }
        var layout = try makeLayout(columns)
        if let anchor { layout = layout.aligning(anchor, across: alignment) }
        let frame = anchor.flatMap(layout.frame(of:))
        layouts[slot] = layout
        anchorFrames[slot] = frame
        return (layout, frame)
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
        let source = try build(columns: columns), destination = try build(columns: upper)
        let concrete = ConcretePair(source.layout, destination.layout)
        var sourceFrames: [CGRect] = [], destinationFrames: [CGRect] = []
        if case .grids = concrete {} else if window.count > 0 {
            sourceFrames = windowFrames(columns: columns, in: source.layout)
            destinationFrames = windowFrames(columns: upper, in: destination.layout)
        }
        return DensityPinchPair(source: source.layout, destination: destination.layout, concrete: concrete,
                                sourceAnchor: source.anchorFrame, destinationAnchor: destination.anchorFrame,
                                window: window, sourceFrames: sourceFrames, destinationFrames: destinationFrames)
    }

    /// The window's frames in `layout`, the layout of `columns`, read the
    /// first time.
    private mutating func windowFrames(columns: Int, in layout: Layout) -> [CGRect] {
        let slot = columns - columnRange.lowerBound
        if let frames = windowFrames[slot] { return frames }
        let frames = window.frames(in: layout)
        windowFrames[slot] = frames
        return frames
    }
}
