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
    /// which the scroll view then needs; without it the content stays at rest.
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

    func body(content: Content) -> some View {
        let scroller = ParallaxScroller(effect: effect, axis: axis, intensity: intensity,
                                        environmentDirection: layoutDirection, reduceMotion: reduceMotion)
        #if canImport(SwiftUI, _version: 5.0)
        if #available(iOS 17, macOS 14, tvOS 17, visionOS 1, *) {
            let obscured = obscuredInsets
            // Applied left to right, like the geometry it comes from (see
            // `MeasuredParallaxModifier`).
            content
                .environment(\.layoutDirection, layoutDirection)
                .visualEffect { view, geometry in
                    let offset = scroller.placement(of: geometry, obscured: obscured).offset
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

/// Parallax before iOS 17: the view's frame, measured in the coordinate
/// space of ``SwiftUI/View/parallaxScrollContainer()`` and kept as state,
/// offsets the content. (SwiftUI had no render-time geometry then.)
struct MeasuredParallaxModifier: ViewModifier {
    var scroller: ParallaxScroller
    /// The environment's direction, restored for the content (see below).
    var layoutDirection: SwiftUI.LayoutDirection

    @Environment(\.parallaxViewportSize) private var viewportSize
    @Environment(\.parallaxObscuredInsets) private var obscuredInsets
    @State private var itemFrame: CGRect?

    func body(content: Content) -> some View {
        let offset = scroller.placement(
            forMeasuredFrame: itemFrame,
            in: scroller.window(viewportSize.map { CGRect(origin: .zero, size: $0) }, obscured: obscuredInsets)
        ).offset
        content
            .environment(\.layoutDirection, layoutDirection)
            .offset(x: offset.x, y: offset.y)
            // SwiftUI lays out right to left by flipping each view's position
            // within its parent, so frames read left to right in every
            // direction, and the core mirrors right-to-left anchors itself:
            // the offset is applied left to right too. The content keeps its
            // own direction inside.
            .environment(\.layoutDirection, .leftToRight)
            // A background after the offset stays where the view's frame is,
            // so the measurement never sees its own result.
            .background(
                GeometryReader { proxy in
                    Color.clear.preference(key: ItemFrameKey.self,
                                           value: proxy.frame(in: ParallaxScrollContainer.coordinateSpace))
                }
                .onPreferenceChangeOnMainActor(ItemFrameKey.self) { itemFrame = $0 }
            )
    }
}

/// Carries a parallax view's frame from its background to its modifier.
private struct ItemFrameKey: PreferenceKey {
    static let defaultValue: CGRect? = nil

    static func reduce(value: inout CGRect?, nextValue: () -> CGRect?) {
        value = value ?? nextValue()
    }
}
#endif
