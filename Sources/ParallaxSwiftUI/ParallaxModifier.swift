#if canImport(SwiftUI)
#if canImport(CoreGraphics)
import CoreGraphics
#endif
import ParallaxCore
import SwiftUI

extension View {
    /// Moves this view's content against its frame while it scrolls past,
    /// so the content seems to lie behind the item (depth) or to stand still
    /// like a window onto a fixed picture.
    ///
    /// Apply it to a view inside a `ScrollView` whose drawing reaches past
    /// its frame by the overscan the effect needs, and clip the item around
    /// it: the modifier only moves the content, it neither sizes nor clips
    /// it. For `.depth(maxOffset: P)` the content must reach `P` beyond the
    /// frame at both ends of the scroll axis, or its edge shows:
    ///
    ///     Color.clear
    ///         .overlay { photo.resizable().scaledToFill().padding(.vertical, -30) }
    ///         .parallax(.depth(maxOffset: 30))
    ///         .frame(height: 220)
    ///         .clipped()
    ///
    /// ``ParallaxImage`` does all of this for an image, for every effect.
    ///
    /// The offset is the core's `ParallaxScroller` placement for the
    /// view's frame in the scroll view's visible rectangle. It follows the
    /// environment: no motion under Reduce Motion, anchors mirrored for
    /// horizontal scrolling right to left. On iOS 17, macOS 14, tvOS 17 and
    /// later it is a visual effect, evaluated per frame at render time
    /// without state or layout. Before that the view measures its frame in
    /// the coordinate space of ``SwiftUI/View/parallaxScrollContainer()``,
    /// which the scroll view then needs (without it the content stays at
    /// rest), with a `GeometryReader` around the content and no state; the
    /// view then takes the size offered to it.
    ///
    /// - Parameters:
    ///   - effect: how the content moves; depth of 30 pt by default.
    ///   - axis: the axis the scroll view scrolls along.
    ///   - intensity: multiplies the motion (1 as designed, 0 none).
    public func parallax(
        _ effect: ParallaxEffect = .default, axis: ScrollAxis = .vertical, intensity: CGFloat = 1
    ) -> some View {
        modifier(ParallaxModifier(effect: effect, axis: axis, intensity: intensity))
    }
}

/// The modifier behind ``SwiftUI/View/parallax(_:axis:intensity:)``.
struct ParallaxModifier: ViewModifier {
    var effect: ParallaxEffect
    var axis: ScrollAxis
    var intensity: CGFloat

    @Environment(\.accessibilityReduceMotion) private var reduceMotion
    @Environment(\.layoutDirection) private var layoutDirection
    @Environment(\.parallaxObscuredInsets) private var obscuredInsets
    @Environment(\.parallaxPin) private var pin

    func body(content: Content) -> some View {
        let scroller = ParallaxScroller(effect: effect, axis: axis, intensity: intensity,
                                        environmentDirection: layoutDirection, reduceMotion: reduceMotion)
        #if canImport(SwiftUI, _version: 5.0)
        if #available(iOS 17, macOS 14, tvOS 17, visionOS 1, *) {
            let obscured = obscuredInsets, pin = self.pin
            // Applied left to right, like the geometry it comes from (see
            // `MeasuredParallaxModifier`).
            content
                .environment(\.layoutDirection, layoutDirection)
                .visualEffect { view, geometry in
                    let offset = (pin.map { scroller.placement(pinnedAt: $0, obscured: obscured) }
                        ?? scroller.placement(of: geometry, obscured: obscured)).offset
                    return view.offset(x: offset.x, y: offset.y)
                }
                .environment(\.layoutDirection, .leftToRight)
        } else {
            content.modifier(MeasuredParallaxModifier(scroller: scroller, layoutDirection: layoutDirection))
        }
        #else
        content.modifier(MeasuredParallaxModifier(scroller: scroller, layoutDirection: layoutDirection))
        #endif
    }
}

/// Parallax before iOS 17: the view's frame, read in the coordinate space
/// of ``SwiftUI/View/parallaxScrollContainer()`` by a `GeometryReader`
/// around the content, offsets the content in the same layout pass. No
/// state is written (a state written from a measurement is applied an
/// update later: a frame behind the scroll, and a second update per item
/// per frame); the reader's closure alone runs again as the scroll view
/// moves. The reader takes the size offered to it, as the documented use
/// (content that fills a frame the caller gives) does anyway.
struct MeasuredParallaxModifier: ViewModifier {
    var scroller: ParallaxScroller
    /// The environment's direction, restored for the content (see below).
    var layoutDirection: SwiftUI.LayoutDirection

    @Environment(\.parallaxViewportSize) private var viewportSize
    @Environment(\.parallaxObscuredInsets) private var obscuredInsets
    @Environment(\.parallaxPin) private var pin

    func body(content: Content) -> some View {
        GeometryReader { proxy in
            let offset = (pin.map { scroller.placement(pinnedAt: $0, obscured: obscuredInsets) }
                ?? scroller.placement(
                    forMeasuredFrame: proxy.frame(in: ParallaxScrollContainer.coordinateSpace),
                    in: scroller.window(viewportSize.map { CGRect(origin: .zero, size: $0) }, obscured: obscuredInsets)
                )).offset
            content
                .environment(\.layoutDirection, layoutDirection)
                .frame(width: proxy.size.width, height: proxy.size.height)
                // The reader's frame does not move with the offset, so the
                // measurement never sees its own result.
                .offset(x: offset.x, y: offset.y)
        }
        // SwiftUI lays out right to left by flipping each view's position
        // within its parent, so frames read left to right in every
        // direction, and the core mirrors right-to-left anchors itself:
        // the offset is applied left to right too. The content keeps its
        // own direction inside.
        .environment(\.layoutDirection, .leftToRight)
    }
}
#endif
