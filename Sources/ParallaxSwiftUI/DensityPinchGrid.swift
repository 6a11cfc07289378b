#if canImport(SwiftUI)
#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore
import ParallaxHosting
import ParallaxImages
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
///     DensityPinchGrid(photos, columns: $columns, imageID: { $0.imageID }) { photo in
///         ParallaxLoadedImage(photo.imageID, label: Text(photo.title))
///     }
///     .parallaxImageLoading(loading)
///
/// The geometry is ``ParallaxHosting``'s `ColumnPinch`, the same that
/// drives UIKit's `DensityPinchGesture` and the Linux gallery. Only public
/// SwiftUI is used:
/// - **At rest** a `ScrollView` holds the cells of a band of content
///   around the visible rows (`ScrollBand`: the visible rows and a quarter
///   screen either side, snapped to quarter screens). Only the band is
///   state; the scroll offset is read with `onGeometryChange(for:of:action:)`
///   into a reference no view observes. So scrolling rebuilds the cells a
///   few times a screen, not every frame, and a frame costs O(visible
///   items). Cells are keyed by their element's `id`, so their state and
///   tasks follow their photo across inserts and deletes.
/// - **While a pinch runs** (and settles), an overlay draws the
///   interpolated frames and the scroll view waits underneath, hidden and
///   unable to scroll. Each overlay cell is told where it is in the
///   viewport (an environment value), so parallax inside it follows its
///   frame and matches the scroll view's at both ends, instead of
///   snapping to rest.
/// - **When it comes to rest** the scroll view is sent to the offset that
///   keeps the photo in place (iOS 18: a `ScrollPosition` scrolled to the
///   point; before: `ScrollViewReader.scrollTo` of a marker), within what
///   its insets let it rest at, and the overlay stays until the scroll
///   view *reports* that offset (`PinchHandOff`), so the hand-off never
///   shows the old offset for a frame.
///
/// **Loading ahead**: given `imageID` and a ``ParallaxImageLoading`` in
/// the environment, the grid plans that loading's `ViewportLoading` as
/// UIKit's `ParallaxController.followLoading(_:owner:imageID:)` does: what
/// is on screen, two screens ahead and half a screen behind, and, from the
/// moment a finger lets go, the screen where the fling will stop (the
/// scroll view's own projection, read by a scroll target behaviour that
/// changes nothing), before the tiles it flies past. It plans when the
/// band changes, a fling starts or ends, or the layout changes
/// (ParallaxHosting's `ScrollBandLoading`), never on other frames; each
/// ``ParallaxLoadedImage`` then requests its photo at its planned priority
/// and finds what was loaded ahead in memory. The thumbnails planned are
/// the ones a ``ParallaxLoadedImage`` filling its cell with
/// `imageEffect` and `imageIntensity` asks for.
///
/// It reads the layout direction (right to left fills rows from the
/// right) and offers VoiceOver's zoom gesture (`accessibilityZoomAction`):
/// zooming in shows fewer, larger photos, zooming out more.
/// `MagnifyGesture`, which reports where the fingers came down, needs
/// iOS 17 or macOS 14.
///
/// Complexity: O(items in the band) per rebuild, a few times a screen of
/// scrolling; O(visible items) per frame of a pinch.
@available(iOS 17, macOS 14, *)
@MainActor
public struct DensityPinchGrid<Data: RandomAccessCollection, Cell: View>: View
where Data.Element: Identifiable, Data.Index == Int {
    let data: Data
    @Binding var columns: Int
    let range: ClosedRange<Int>
    /// The configuration as given; ``configuration`` adds the reading direction.
    let baseConfiguration: GridConfiguration
    let cell: (Data.Element) -> Cell
    /// The photo of an element, for loading ahead; `nil`: no plan.
    let imageID: ((Data.Element) -> ImageID?)?
    /// How the cells' ``ParallaxLoadedImage`` draws, for the thumbnail
    /// sizes the plan preloads.
    let imageScroller: ParallaxScroller

    @Environment(\.layoutDirection) var layoutDirection
    @Environment(\.parallaxImageLoading) var loading
    @Environment(\.displayScale) var displayScale

    /// The band of content the resting grid builds cells for; `nil` until
    /// the scroll view first reports.
    @State var band: ScrollBand?
    /// Where the scroll view is, kept outside any view's dependencies.
    @State var readout = GridScrollReadout()
    @State var pinch: ColumnPinch?
    /// When the settle under way started, on the overlay timeline's clock.
    @State var settleStart: Date?
    /// When the overlay goes and where the scroll view is sent.
    @State var handOff = PinchHandOff()
    /// The grid the last pinch came to rest on (the photo that was under
    /// the fingers in the column under them), and what it was built for.
    @State var rested: RestedGrid?
    /// The size the pinch under way was begun at.
    @State var pinchSize: CGSize = .zero
    /// Whether the magnify gesture is recognised now: it falls back to
    /// `false` when the system cancels the gesture, which calls no `onEnded`.
    @GestureState var isMagnifying = false
    /// When the loading plan is made again (a band, a fling, a layout).
    @State var bandLoading = ScrollBandLoading()
    /// Where a release's fling will rest, from the scroll view.
    @State var flings = GridFlingMailbox()

    /// A grid of `data`, `columns` columns wide (kept within `range`, and
    /// written back when a pinch settles on another count), each item drawn
    /// by `cell` at its frame. `configuration` gives margins and spacing;
    /// its column setting is replaced by the count (one column is
    /// `GridConfiguration.list`) and its reading direction by the
    /// environment's.
    ///
    /// `imageID` names an element's photo (`nil` for none) so the
    /// ``ParallaxImageLoading`` of the environment loads ahead (see above);
    /// it is called only while a plan is made, and kept only by this view
    /// value, so it cannot form a retain cycle through the loading object.
    /// `imageEffect` and `imageIntensity` are those of the cells'
    /// ``ParallaxLoadedImage``.
    public init(_ data: Data, columns: Binding<Int>, range: ClosedRange<Int> = 1...8,
                configuration: GridConfiguration = .grid, imageID: ((Data.Element) -> ImageID?)? = nil,
                imageEffect: ParallaxEffect = .default, imageIntensity: CGFloat = 1,
                @ViewBuilder cell: @escaping (Data.Element) -> Cell) {
        self.data = data
        self._columns = columns
        let lower = max(range.lowerBound, 1)
        self.range = lower...max(range.upperBound, lower)
        self.baseConfiguration = configuration
        self.cell = cell
        self.imageID = imageID
        self.imageScroller = ParallaxScroller(effect: imageEffect, axis: .vertical, intensity: imageIntensity)
    }

    public var body: some View {
        GeometryReader { outer in
            let size = outer.size
            let layout = restingLayout(size: size)
            ScrollViewReader { proxy in
                ScrollView {
                    restingGrid(layout, size: size)
                        .reportingGridScroll(offset: { reported(offset: $0, layout: layout, size: size) },
                                             band: { if band != $0 { band = $0 } })
                        .background(InsetsReporter(readout: readout))
                }
                .scrollTargetBehavior(GridFlingObserver(mailbox: flings))
                .scrollDisabled(!handOff.allowsScrolling)
                .parallaxScrollContainer()
                .opacity(handOff.showsOverlay ? 0 : 1)
                .accessibilityHidden(handOff.showsOverlay)
                .overlay { if handOff.showsOverlay { pinchOverlay(size: size, layout: layout) } }
                // Simultaneous: one finger scrolls; two pinch (scrolling is disabled meanwhile).
                .simultaneousGesture(magnify(size: size))
                .onChange(of: isMagnifying) { _, magnifying in
                    if !magnifying { endPinch(velocity: 0, cancelled: false) }   // a cancelled gesture settles as a still release
                }
                .modifier(GridScrollRequester(ask: GridScrollAsk(handOff.request), markerID: RestingMarker.id,
                                              proxy: proxy))
                .accessibilityZoomAction { action in zoom(action.direction, size: size) }
                // Another column count, item count or size: planned at once, even if the scroll view stays put.
                .onChange(of: layout.contentSize) { _, _ in
                    planLoading(at: handOff.startingOffset(reported: readout.contentOffset), layout: layout, size: size)
                }
            }
        }
        // Frames and the gesture's locations are left to right; the layout mirrors itself (see `configuration`).
        .environment(\.layoutDirection, .leftToRight)
    }

    // MARK: At rest

    /// The configuration the layouts are built with: the one given, in the
    /// environment's reading direction.
    var configuration: GridConfiguration {
        var configuration = baseConfiguration
        configuration.layoutDirection = ParallaxCore.LayoutDirection(layoutDirection)
        return configuration
    }

    /// The grid of the resting column count for `size`; empty when it
    /// cannot be built (a zero size before the first layout pass).
    func restingLayout(size: CGSize) -> ParallaxLayout.GridLayout {
        let count = min(max(columns, range.lowerBound), range.upperBound)
        let configuration = self.configuration
        if let rested, rested.columns == count, rested.itemCount == data.count, rested.size == size,
           rested.configuration == configuration {
            return rested.layout
        }
        return (try? Self.makeLayout(columns: count, configuration: configuration, count: data.count, size: size))
            ?? Self.empty
    }

    /// Remembers the grid `settled` came to rest on, for `size`.
    func remember(_ settled: ColumnPinch, size: CGSize) {
        guard let layout = try? settled.restingLayout(containerSize: size, itemCounts: [data.count]) as? ParallaxLayout.GridLayout
        else { return }
        rested = RestedGrid(layout: layout, columns: settled.columns, itemCount: data.count, size: size,
                            configuration: configuration)
    }

    static var empty: ParallaxLayout.GridLayout {
        // A list of no items always builds: the configuration is valid and there is nothing to place.
        try! ParallaxLayout.GridLayout(configuration: .list, itemCount: 0, containerSize: .zero)
    }

    /// The grid of `columns` fixed columns (the list for one) with the
    /// margins, spacing and direction of `configuration`.
    static func makeLayout(columns: Int, configuration: GridConfiguration, count: Int,
                           size: CGSize) throws(LayoutError) -> ParallaxLayout.GridLayout {
        var built = columns <= 1 ? GridConfiguration.list : configuration
        if columns > 1 { built.columns = .fixed(columns) }
        built.layoutDirection = configuration.layoutDirection
        return try ParallaxLayout.GridLayout(configuration: built, itemCount: count, containerSize: size)
    }

    /// The cells of the band, placed at their frames in content the size
    /// of the layout, plus the marker a hand-off scrolls to before iOS 18.
    func restingGrid(_ layout: ParallaxLayout.GridLayout, size: CGSize) -> some View {
        let band = self.band ?? ScrollBand(visible: CGRect(origin: readout.contentOffset, size: size), axis: .vertical,
                                           contentExtent: layout.contentSize.height)
        let cells = placedCells(of: layout, in: band.rect(in: layout.contentSize, axis: .vertical))
        // The marker's top-left corner goes where the safe area's does.
        let marker = handOff.request.map {
            CGPoint(x: $0.requested.x + readout.insets.left, y: $0.requested.y + readout.insets.top)
        } ?? .zero
        return ZStack(alignment: .topLeading) {
            // Padding, not an offset: the marker's layout frame is what `scrollTo` aligns.
            Color.clear.frame(width: 1, height: 1).id(RestingMarker.id)
                .padding(.leading, max(marker.x, 0)).padding(.top, max(marker.y, 0))
                .accessibilityHidden(true)
            ForEach(cells) { placed in
                cellView(placed, at: placed.frame)
            }
        }
        .frame(width: max(layout.contentSize.width, 0), height: max(layout.contentSize.height, 0), alignment: .topLeading)
    }

    /// The cells of `layout` in `rect`, keyed by their elements' ids.
    func placedCells(of layout: some ItemLayout, in rect: CGRect) -> [PlacedCell<Data.Element.ID>] {
        let data = self.data
        return PlacedCell.cells(of: layout, in: rect, itemCount: data.count) { data[data.startIndex + $0].id }
    }

    /// One cell at `frame`, in the environment's reading direction inside.
    func cellView(_ placed: PlacedCell<Data.Element.ID>, at frame: CGRect) -> some View {
        cell(data[data.startIndex + placed.index])
            .environment(\.layoutDirection, layoutDirection)
            .environment(\.parallaxItemIndex, ItemIndex(item: placed.index))
            .frame(width: frame.width, height: frame.height)
            .clipped()
            .position(x: frame.midX, y: frame.midY)
    }

    /// The scroll view reported `offset` (once a scrolled frame): kept
    /// where no view reads it, checked against a hand-off under way, and
    /// handed to loading (which plans only when the band or a fling changed).
    func reported(offset: CGPoint, layout: ParallaxLayout.GridLayout, size: CGSize) {
        readout.contentOffset = offset
        readout.hasReported = true
        if handOff.request != nil { _ = handOff.observe(reported: offset) }
        planLoading(at: offset, layout: layout, size: size)
    }
}

/// The grid a pinch came to rest on, and the column count, item count,
/// size and settings it holds for (other settings get a grid of their own).
struct RestedGrid {
    var layout: ParallaxLayout.GridLayout
    var columns: Int
    var itemCount: Int
    var size: CGSize
    var configuration: GridConfiguration
}

/// The id of the marker a settled pinch scrolls to before iOS 18.
enum RestingMarker {
    static let id = "ParallaxKit.DensityPinchGrid.resting"
}

/// Keeps the insets ``SwiftUI/View/parallaxScrollContainer()`` measures
/// (the one source of bar insets for the grid and its parallax views) in
/// the grid's readout, for the hand-off's resting range.
@available(iOS 17, macOS 14, *)
private struct InsetsReporter: View {
    let readout: GridScrollReadout
    @Environment(\.parallaxObscuredInsets) private var insets

    var body: some View {
        Color.clear.onChange(of: insets, initial: true) { _, insets in readout.insets = insets }
    }
}
#endif
#endif
