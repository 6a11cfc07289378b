#if canImport(SwiftUI)
#if canImport(CoreGraphics)
import CoreGraphics
#endif
import ParallaxCore
import ParallaxHosting
import SwiftUI

/// Whole background layers sliding at their own speeds behind a scroll
/// view: the C4 "Cosmos" background (the C4 Cosmos tutorial) in SwiftUI.
///
/// The scroll view is the *driver*; every layer `i` slides at `speeds[i]` of
/// its offset, as `LayeredParallax` computes (Cosmos: 0.08, 0, 0.10, 0.12,
/// 0.15, 1, 0.8, 1, bottom to top). Keep the scroll view's geometry in a
/// ``ParallaxScrollTracker`` that only the background observes, and put the
/// background behind the scroll view, so it has the scroll view's size:
///
///     @State private var scroll = ParallaxScrollTracker()
///
///     ScrollView(.horizontal) {
///         HStack { ... }                                    // the driver
///             .onParallaxScrollGeometryChange(updating: scroll)
///     }
///     .parallaxScrollContainer()                            // before iOS 17 only
///     .background {
///         LayeredParallaxBackground(.cosmos, tracker: scroll) { layer in
///             Starfield(seed: layer.index)                  // drawn at layer.contentSize
///         }
///     }
///
/// Scrolling then updates this background alone: the view that builds the
/// scroll view never reads the geometry. (A geometry kept in that view's
/// own state, passed to ``init(_:axis:scrollGeometry:loopPeriod:layer:)``,
/// would rebuild the whole screen every scrolled frame.)
///
/// The view builder is called once per layer, bottom first; return
/// `EmptyView()` for a layer the scroll view itself shows (the Cosmos
/// driver, speed 1, on top). It is given the layer's
/// ``ParallaxBackgroundLayer``: its index, speed, size and loop period, but
/// not its offset, which the background applies itself; so a layer's art
/// is built again only when those change (a resize, new content, Reduce
/// Motion), never while scrolling. Draw the art from that value alone. Each
/// layer's art gets the frame of its `contentSize`, top-left aligned; the
/// background clips to its own bounds.
///
/// It follows the environment: under Reduce Motion every layer moves with
/// the content (speed 1), and a horizontal stack laid out right to left is
/// anchored at its right end, as the scroll view is. Positions are worked
/// out left to right, like the scroll geometry they come from; each layer's
/// art keeps the environment's direction inside its frame.
public struct LayeredParallaxBackground<Layer: View>: View {
    private let stack: LayeredParallax
    private let axis: ScrollAxis
    private let source: Source
    private let loopPeriod: CGFloat?
    private let art: (ParallaxBackgroundLayer) -> Layer

    @Environment(\.accessibilityReduceMotion) private var reduceMotion
    @Environment(\.layoutDirection) private var layoutDirection

    /// A layered background driven by a scroll view.
    ///
    /// - Parameters:
    ///   - stack: the layers' speeds, bottom to top, and the intensity;
    ///     Cosmos by default. Its direction and Reduce Motion setting are
    ///     taken from the environment (Reduce Motion from either).
    ///   - axis: the axis the scroll view scrolls along; Cosmos scrolls
    ///     horizontally.
    ///   - scrollGeometry: the driving scroll view's geometry, from
    ///     ``SwiftUI/View/onParallaxScrollGeometryChange(_:)``. Prefer
    ///     ``init(_:axis:tracker:loopPeriod:layer:)``: a geometry passed in
    ///     here is state of the view that builds the scroll view.
    ///   - loopPeriod: makes every layer loop (`LoopingContent`): the
    ///     driver's art repeats every `loopPeriod` points, so layer `i`'s
    ///     repeats every `loopPeriod · speed[i]`, and a layer needs one
    ///     period plus a viewport of art however long the content is. `nil`
    ///     (the default): each layer is as long as it needs to be to reach
    ///     its end when the content does.
    ///   - layer: draws one layer's art.
    public init(
        _ stack: LayeredParallax = .cosmos,
        axis: ScrollAxis = .horizontal,
        scrollGeometry: ParallaxScrollGeometry,
        loopPeriod: CGFloat? = nil,
        @ViewBuilder layer: @escaping (ParallaxBackgroundLayer) -> Layer
    ) {
        self.stack = stack
        self.axis = axis
        self.source = .geometry(scrollGeometry)
        self.loopPeriod = loopPeriod
        self.art = layer
    }

    /// A layered background driven by the scroll view `tracker` follows
    /// (``SwiftUI/View/onParallaxScrollGeometryChange(updating:)``): only
    /// this background observes it. The other parameters are as for
    /// ``init(_:axis:scrollGeometry:loopPeriod:layer:)``.
    public init(
        _ stack: LayeredParallax = .cosmos,
        axis: ScrollAxis = .horizontal,
        tracker: ParallaxScrollTracker,
        loopPeriod: CGFloat? = nil,
        @ViewBuilder layer: @escaping (ParallaxBackgroundLayer) -> Layer
    ) {
        self.stack = stack
        self.axis = axis
        self.source = .tracker(tracker)
        self.loopPeriod = loopPeriod
        self.art = layer
    }

    /// Where the driver's geometry comes from.
    private enum Source {
        case geometry(ParallaxScrollGeometry)
        case tracker(ParallaxScrollTracker)
    }

    /// Every layer's art at its placement, bottom first, clipped to the
    /// background's bounds.
    public var body: some View {
        switch source {
        case .geometry(let geometry):
            layers(driven: geometry)
        case .tracker(let tracker):
            TrackedGeometry(tracker: tracker) { layers(driven: $0) }
        }
    }

    private func layers(driven geometry: ParallaxScrollGeometry) -> some View {
        let background = resolvedBackground
        return Color.clear
            .overlay(alignment: .topLeading) {
                ZStack(alignment: .topLeading) {
                    ForEach(0..<background.stack.count, id: \.self) { index in
                        let placement = self.placement(ofLayer: index, in: background, driven: geometry)
                        LayerArtView(art: placement.art, make: art)
                            .equatable()                             // built again only when its art changes
                            .environment(\.layoutDirection, layoutDirection)
                            .frame(width: placement.contentSize.width, height: placement.contentSize.height,
                                   alignment: .topLeading)
                            // The content scrolls by +offset, so its art moves by −offset.
                            .offset(x: axis == .horizontal ? -placement.offset : 0,
                                    y: axis == .vertical ? -placement.offset : 0)
                    }
                }
            }
            .clipped()
            .environment(\.layoutDirection, .leftToRight)
    }

    /// The background with the environment's settings: right to left only
    /// for a horizontal stack, no relative motion under Reduce Motion.
    private var resolvedBackground: LayeredBackground {
        LayeredBackground(stack: stack, axis: axis, loopPeriod: loopPeriod)
            .resolved(layoutDirection: ParallaxCore.LayoutDirection(layoutDirection), isReduceMotionEnabled: reduceMotion)
    }

    private func placement(ofLayer index: Int, in background: LayeredBackground,
                           driven geometry: ParallaxScrollGeometry) -> LayerPlacement {
        background.placement(
            ofLayer: index, driverOffset: geometry.distanceFromStart(along: axis),
            driverContentExtent: axis.main(geometry.contentSize), viewportSize: geometry.viewportSize)
    }
}

/// The one view that observes a ``ParallaxScrollTracker``, so scrolling
/// updates what it builds and nothing around it.
private struct TrackedGeometry<Content: View>: View {
    @ObservedObject var tracker: ParallaxScrollTracker
    let content: (ParallaxScrollGeometry) -> Content

    var body: some View { content(tracker.geometry) }
}

/// One layer's art, compared by what it is drawn from (``LayerArt``), so
/// SwiftUI skips its body while only the layer's offset changes.
private struct LayerArtView<Art: View>: View, Equatable {
    let art: LayerArt
    let make: (LayerArt) -> Art

    var body: some View { make(art) }

    nonisolated static func == (lhs: Self, rhs: Self) -> Bool { lhs.art == rhs.art }
}
#endif
