#if canImport(SwiftUI)
#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore
import ParallaxHosting
import ParallaxLayout
import SwiftUI

// MagnifyGesture and the two-value onChange arrive with the iOS 17 / macOS 14 SDKs (SwiftUI 5).
#if canImport(SwiftUI, _version: 5.0)
/// A scrolling photo grid whose column count follows a pinch, as the
/// Photos app's does: the photo under the fingers stays under them while
/// the grid reflows, releasing settles on the nearer count with a short
/// spring, and one gesture chains through every count in `range` (one
/// column is the list).
///
///     @State private var columns = 3
///
///     DensityPinchGrid(photos, columns: $columns) { photo in
///         ParallaxImage(photo.thumbnail)
///     }
///
/// The geometry is ``ParallaxHosting``'s `ColumnPinch`, the same that
/// drives UIKit's `DensityPinchGesture` and the Linux gallery. Only public
/// SwiftUI is used: a `ScrollView` holds the cells of its visible rows
/// (laid out by a `GridLayout`, so a frame costs O(visible items)); while a
/// pinch runs, an overlay draws the interpolated frames and the scroll view
/// waits underneath; when it comes to rest the scroll view is moved to the
/// offset that keeps the photo in place (`ScrollViewReader.scrollTo` of a
/// marker placed at that offset), and shown again. `MagnifyGesture`, which
/// reports where the fingers came down, needs iOS 17 or macOS 14.
///
/// Parallax views inside the cells measure themselves against the scroll
/// view as usual; during the pinch itself they rest.
@available(iOS 17, macOS 14, *)
@MainActor
public struct DensityPinchGrid<Data: RandomAccessCollection, Cell: View>: View
where Data.Element: Identifiable, Data.Index == Int {
    private let data: Data
    @Binding private var columns: Int
    private let range: ClosedRange<Int>
    private let configuration: GridConfiguration
    private let cell: (Data.Element) -> Cell

    @State private var scroll = ParallaxScrollGeometry()
    @State private var pinch: ColumnPinch?
    @State private var pinchStart: Date?
    /// Where the scroll view must go once a pinch has come to rest.
    @State private var restingOffset: CGPoint?
    /// The grid the last pinch came to rest on (the photo that was under
    /// the fingers in the column under them), and what it was built for.
    @State private var rested: Rested?
    /// The size the pinch under way was begun at.
    @State private var pinchSize: CGSize = .zero

    /// A grid of `data`, `columns` columns wide (kept within `range`, and
    /// written back when a pinch settles on another count), each item drawn
    /// by `cell` at its frame. `configuration` gives margins and spacing;
    /// its column setting is replaced by the count (one column is
    /// `GridConfiguration.list`).
    public init(_ data: Data, columns: Binding<Int>, range: ClosedRange<Int> = 1...8,
                configuration: GridConfiguration = .grid, @ViewBuilder cell: @escaping (Data.Element) -> Cell) {
        self.data = data
        self._columns = columns
        let lower = max(range.lowerBound, 1)
        self.range = lower...max(range.upperBound, lower)
        self.configuration = configuration
        self.cell = cell
    }

    public var body: some View {
        GeometryReader { outer in
            let size = outer.size
            let layout = restingLayout(size: size)
            ScrollViewReader { proxy in
                ScrollView {
                    grid(layout, visible: CGRect(origin: scroll.contentOffset, size: size))
                        .onParallaxScrollGeometryChange { scroll = $0 }
                }
                .parallaxScrollContainer()
                .opacity(pinch == nil ? 1 : 0)
                .overlay { if pinch != nil { pinchOverlay(size: size) } }
                // Simultaneous: one finger still scrolls; two pinch (the scroll view is hidden meanwhile).
                .simultaneousGesture(magnify(size: size))
                .onChange(of: restingOffset) { _, offset in
                    guard offset != nil else { return }
                    proxy.scrollTo(RestingMarker.id, anchor: .topLeading)
                    restingOffset = nil
                }
            }
        }
    }

    // MARK: At rest

    /// The grid of the resting column count for `size`; empty when it
    /// cannot be built (a zero size before the first layout pass).
    private func restingLayout(size: CGSize) -> ParallaxLayout.GridLayout {
        let count = min(max(columns, range.lowerBound), range.upperBound)
        if let rested, rested.columns == count, rested.itemCount == data.count, rested.size == size,
           rested.configuration == configuration {
            return rested.layout
        }
        return (try? Self.makeLayout(columns: count, configuration: configuration, count: data.count, size: size))
            ?? Self.empty
    }

    /// Remembers the grid `settled` came to rest on, for `size`.
    private func remember(_ settled: ColumnPinch, size: CGSize) {
        guard let layout = try? settled.restingLayout(containerSize: size, itemCounts: [data.count]) as? ParallaxLayout.GridLayout
        else { return }
        rested = Rested(layout: layout, columns: settled.columns, itemCount: data.count, size: size,
                        configuration: configuration)
    }

    private static var empty: ParallaxLayout.GridLayout {
        // A list of no items always builds: the configuration is valid and there is nothing to place.
        try! ParallaxLayout.GridLayout(configuration: .list, itemCount: 0, containerSize: .zero)
    }

    /// The grid of `columns` fixed columns (the list for one) with the
    /// margins and spacing of `configuration`.
    private static func makeLayout(columns: Int, configuration: GridConfiguration, count: Int,
                                   size: CGSize) throws(LayoutError) -> ParallaxLayout.GridLayout {
        var configuration = columns <= 1 ? GridConfiguration.list : configuration
        if columns > 1 { configuration.columns = .fixed(columns) }
        return try ParallaxLayout.GridLayout(configuration: configuration, itemCount: count, containerSize: size)
    }

    /// The cells visible in `visible` (content coordinates), placed at their
    /// frames in content the size of the layout, plus the marker a settled
    /// pinch scrolls to.
    private func grid(_ layout: ParallaxLayout.GridLayout, visible: CGRect) -> some View {
        var shown: [PlacedItem] = []
        layout.forEachItem(in: visible.insetBy(dx: 0, dy: -visible.height / 2)) { index, frame in
            if index.item < data.count { shown.append(PlacedItem(item: index.item, frame: frame)) }
        }
        let marker = restingOffset ?? .zero
        return ZStack(alignment: .topLeading) {
            // Padding, not an offset: the marker's layout frame is what `scrollTo` aligns.
            Color.clear.frame(width: 1, height: 1).id(RestingMarker.id)
                .padding(.leading, max(marker.x, 0)).padding(.top, max(marker.y, 0))
            ForEach(shown, id: \.item) { placed in
                cell(data[data.startIndex + placed.item])
                    .frame(width: placed.frame.width, height: placed.frame.height)
                    .clipped()
                    .position(x: placed.frame.midX, y: placed.frame.midY)
            }
        }
        .frame(width: max(layout.contentSize.width, 0), height: max(layout.contentSize.height, 0), alignment: .topLeading)
    }

    // MARK: Pinching

    private func magnify(size: CGSize) -> some Gesture {
        MagnifyGesture()
            .onChanged { value in
                if pinch == nil || pinchStart != nil { begin(at: value.startLocation, size: size) }
                pinch?.change(scale: value.magnification, focus: value.startLocation)
            }
            .onEnded { value in
                pinch?.end(scaleVelocity: value.velocity, at: 0)
                pinchStart = Date()
            }
    }

    /// The fingers came down at `focus` (the scroll view's coordinates).
    private func begin(at focus: CGPoint, size: CGSize) {
        // A pinch that begins while the last one settles: that one rests at once, where it was heading.
        // (Locals, not the state just written: a state's new value may only be read on the next update.)
        var restingColumns = columns, offset = scroll.contentOffset
        var shown = restingLayout(size: size)
        if var settling = pinch, let rest = settling.finishSettling() {
            restingColumns = settling.columns
            offset = rest
            columns = restingColumns
            scroll.contentOffset = rest
            restingOffset = rest
            remember(settling, size: pinchSize)
            if pinchSize == size, let layout = try? settling.restingLayout(containerSize: size, itemCounts: [data.count])
                as? ParallaxLayout.GridLayout {
                shown = layout
            }
        }
        let configuration = self.configuration
        let shownColumns = restingColumns, shownCount = data.count
        // It begins on the grid shown, which an earlier pinch may have aligned.
        var columnPinch = ColumnPinch(columns: restingColumns, range: range) { n, size, counts throws(LayoutError) in
            if n == shownColumns, counts == [shownCount], size == shown.containerSize { return shown }
            return try Self.makeLayout(columns: n, configuration: configuration, count: counts.first ?? 0, size: size)
        }
        let viewport = ScrollViewport(size: size, contentOffset: offset)
        let began = columnPinch.begin(viewport: viewport, focus: focus, containerSize: size, itemCounts: [data.count])
        pinch = began ? columnPinch : nil
        pinchSize = size
        pinchStart = nil
    }

    /// The interpolated cells while a pinch runs or settles, in the scroll
    /// view's coordinates; each display frame of a settle moves the spring on.
    private func pinchOverlay(size: CGSize) -> some View {
        TimelineView(.animation(paused: pinchStart == nil)) { timeline in
            let offset = pinch?.contentOffset ?? .zero
            let shown = pinchItems()
            ZStack(alignment: .topLeading) {
                ForEach(shown, id: \.item) { placed in
                    cell(data[data.startIndex + placed.item])
                        .frame(width: placed.frame.width, height: placed.frame.height)
                        .clipped()
                        .position(x: placed.frame.midX - offset.x, y: placed.frame.midY - offset.y)
                }
            }
            .frame(width: size.width, height: size.height, alignment: .topLeading)
            .clipped()
            .onChange(of: timeline.date) { _, date in advanceSettle(to: date) }
        }
    }

    private func pinchItems() -> [PlacedItem] {
        var shown: [PlacedItem] = []
        pinch?.forEachItem { index, frame in
            if index.item < data.count { shown.append(PlacedItem(item: index.item, frame: frame)) }
        }
        return shown
    }

    /// Moves a settle to `date`; once it rests, the scroll view takes over
    /// at the count and offset it chose.
    private func advanceSettle(to date: Date) {
        guard var columnPinch = pinch, let start = pinchStart else { return }
        var resting = columnPinch                               // to ask where it rests, once it does
        if columnPinch.advance(to: date.timeIntervalSince(start)) {
            pinch = columnPinch
            return
        }
        if let offset = resting.finishSettling() {
            scroll.contentOffset = offset
            restingOffset = offset
        }
        remember(columnPinch, size: pinchSize)
        columns = columnPinch.columns
        pinch = nil
        pinchStart = nil
    }
}

/// The grid a pinch came to rest on, and the column count, item count,
/// size and settings it holds for (other settings get a grid of their own).
private struct Rested {
    var layout: ParallaxLayout.GridLayout
    var columns: Int
    var itemCount: Int
    var size: CGSize
    var configuration: GridConfiguration
}

/// One cell to draw: its position in the data and its frame.
private struct PlacedItem {
    var item: Int
    var frame: CGRect
}

/// The id of the marker a settled pinch scrolls to.
private enum RestingMarker {
    static let id = "ParallaxKit.DensityPinchGrid.resting"
}
#endif
#endif
