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
/// 0.15, 1, 0.8, 1, bottom to top). Report the scroll view's geometry with
/// ``SwiftUI/View/onParallaxScrollGeometryChange(_:)`` and put the
/// background behind it, so it has the scroll view's size:
///
///     @State private var scroll = ParallaxScrollGeometry()
///
///     ScrollView(.horizontal) {
///         HStack { ... }                                    // the driver
///             .onParallaxScrollGeometryChange { scroll = $0 }
///     }
///     .parallaxScrollContainer()                            // before iOS 17 only
///     .background {
///         LayeredParallaxBackground(.cosmos, scrollGeometry: scroll) { layer in
///             Starfield(seed: layer.index)                  // drawn at layer.contentSize
///         }
///     }
///
/// The view builder is called once per layer, bottom first; return
/// `EmptyView()` for a layer the scroll view itself shows (the Cosmos
/// driver, speed 1, on top). Each layer's art gets the frame of its
/// ``ParallaxBackgroundLayer``'s `contentSize`, top-left aligned, and is
/// moved by the layer's offset; the background clips to its own bounds.
///
/// It follows the environment: under Reduce Motion every layer moves with
/// the content (speed 1), and a horizontal stack laid out right to left is
/// anchored at its right end, as the scroll view is. Positions are worked
/// out left to right, like the scroll geometry they come from; each layer's
/// art keeps the environment's direction inside its frame.
public struct LayeredParallaxBackground<Layer: View>: View {
    private let stack: LayeredParallax
    private let axis: ScrollAxis
    private let scrollGeometry: ParallaxScrollGeometry
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
    ///     ``SwiftUI/View/onParallaxScrollGeometryChange(_:)``.
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
        self.scrollGeometry = scrollGeometry
        self.loopPeriod = loopPeriod
        self.art = layer
    }

    /// Every layer's art at its placement, bottom first, clipped to the
    /// background's bounds.
    public var body: some View {
        let background = resolvedBackground
        Color.clear
            .overlay(alignment: .topLeading) {
                ZStack(alignment: .topLeading) {
                    ForEach(0..<background.stack.count, id: \.self) { index in
                        let position = self.position(ofLayer: index, in: background)
                        art(position.layer)
                            .environment(\.layoutDirection, layoutDirection)
                            .frame(width: position.layer.contentSize.width, height: position.layer.contentSize.height,
                                   alignment: .topLeading)
                            // The content scrolls by +offset, so its art moves by −offset.
                            .offset(x: axis == .horizontal ? -position.offset : 0,
                                    y: axis == .vertical ? -position.offset : 0)
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

    private func position(ofLayer index: Int, in background: LayeredBackground)
        -> (layer: ParallaxBackgroundLayer, offset: CGFloat) {
        let layer = background.placement(
            ofLayer: index, driverOffset: scrollGeometry.distanceFromStart(along: axis),
            driverContentExtent: axis.main(scrollGeometry.contentSize), viewportSize: scrollGeometry.viewportSize)
        return (layer, layer.offset)
    }
}
#endif
