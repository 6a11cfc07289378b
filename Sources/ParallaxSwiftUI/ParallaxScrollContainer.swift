#if canImport(SwiftUI)
#if canImport(CoreGraphics)
import CoreGraphics
#endif
import ParallaxCore
import SwiftUI

extension View {
    /// Makes this scroll view the one that parallax views inside it measure
    /// themselves against: required before iOS 17, macOS 14 and tvOS 17,
    /// recommended after.
    ///
    /// Apply it to the `ScrollView` itself (not to its content):
    ///
    ///     ScrollView {
    ///         LazyVStack { ... ParallaxImage(photo) ... }
    ///     }
    ///     .parallaxScrollContainer()
    ///
    /// Parallax needs each item's frame relative to the visible viewport.
    /// From iOS 17 on, SwiftUI gives every view the geometry of the scroll
    /// view it is in, so ``SwiftUI/View/parallax(_:axis:intensity:)``,
    /// ``ParallaxImage`` and
    /// ``SwiftUI/View/onParallaxScrollGeometryChange(_:)`` need nothing
    /// else. Before iOS 17 they read their frame in a coordinate space this
    /// modifier names and the viewport's size it publishes; without it they
    /// stay at rest (no offset, no scroll geometry). On every system it also
    /// publishes the edges of the scroll view that bars cover (its safe
    /// area), so the effect is measured against the part of the screen the
    /// user sees, as UIKit's `ParallaxWindow.unobscured`
    /// does; without it, from iOS 17 on, the whole scroll view counts. It
    /// measures the scroll view once per resize, never per frame.
    public func parallaxScrollContainer() -> some View {
        modifier(ParallaxScrollContainer())
    }
}

/// Names the scroll view's coordinate space and publishes its size to the
/// views inside it (see ``SwiftUI/View/parallaxScrollContainer()``).
struct ParallaxScrollContainer: ViewModifier {
    /// The name of the scroll view's coordinate space: a type of its own, so
    /// it can never collide with a name the app uses.
    struct CoordinateSpaceName: Hashable {}

    /// The coordinate space parallax views measure their frames in before
    /// iOS 17: the scroll view's visible rectangle, origin at its top-left
    /// corner, so the viewport is `(0, 0, viewportSize)`.
    nonisolated static var coordinateSpace: CoordinateSpace { .named(CoordinateSpaceName()) }

    @State private var viewportSize: CGSize?
    @State private var obscuredInsets = ParallaxCore.EdgeInsets.zero

    func body(content: Content) -> some View {
        content
            .coordinateSpace(name: CoordinateSpaceName())
            .environment(\.parallaxViewportSize, viewportSize)
            .environment(\.parallaxObscuredInsets, obscuredInsets)
            // Measured from a background so the scroll view's own layout is
            // untouched; it changes on rotation or resize, not while scrolling.
            .background(
                GeometryReader { proxy in
                    Color.clear
                        .preference(key: ViewportSizeKey.self, value: proxy.size)
                        .preference(key: ObscuredInsetsKey.self, value: ParallaxCore.EdgeInsets(
                            top: proxy.safeAreaInsets.top, left: proxy.safeAreaInsets.leading,
                            bottom: proxy.safeAreaInsets.bottom, right: proxy.safeAreaInsets.trailing))
                }
                .onPreferenceChangeOnMainActor(ViewportSizeKey.self) { viewportSize = $0 }
                .onPreferenceChangeOnMainActor(ObscuredInsetsKey.self) { obscuredInsets = $0 }
            )
    }
}

/// Carries the scroll view's size from its background to its container.
private struct ObscuredInsetsKey: PreferenceKey {
    static let defaultValue = ParallaxCore.EdgeInsets.zero

    static func reduce(value: inout ParallaxCore.EdgeInsets, nextValue: () -> ParallaxCore.EdgeInsets) {}
}

private struct ViewportSizeKey: PreferenceKey {
    static let defaultValue: CGSize? = nil

    static func reduce(value: inout CGSize?, nextValue: () -> CGSize?) {
        value = value ?? nextValue()
    }
}
#endif
