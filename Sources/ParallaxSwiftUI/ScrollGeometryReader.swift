#if canImport(SwiftUI)
#if canImport(CoreGraphics)
import CoreGraphics
#endif
import ParallaxCore
import SwiftUI

extension View {
    /// Calls `action` whenever the scroll view this content is in scrolls,
    /// resizes or its content changes size, with the new geometry.
    ///
    /// Apply it to the scroll view's content: the one view directly inside
    /// the `ScrollView`, whose frame is the scrolling content.
    ///
    ///     ScrollView(.horizontal) {
    ///         HStack { ... }
    ///             .onParallaxScrollGeometryChange { geometry in
    ///                 model.progress = geometry.distanceFromStart(along: .horizontal)
    ///             }
    ///     }
    ///     .parallaxScrollContainer()      // needed before iOS 17 only
    ///
    /// The content measures itself from a background, so its layout is
    /// untouched. On iOS 17, macOS 14, tvOS 17 and later it reads the scroll
    /// view's visible rectangle in its own coordinates, which is exactly
    /// the content offset and the viewport. Before that it reads its frame
    /// in the coordinate space of ``SwiftUI/View/parallaxScrollContainer()``
    /// and the size that container publishes; without the container
    /// `action` is never called.
    ///
    /// `action` runs once per scrolled frame: writing a state the view that
    /// builds the scroll view reads would rebuild that whole view every
    /// frame. To drive a background, prefer
    /// ``SwiftUI/View/onParallaxScrollGeometryChange(updating:)`` with a
    /// ``ParallaxScrollTracker``, which only the background observes.
    @MainActor
    public func onParallaxScrollGeometryChange(_ action: @escaping @MainActor (ParallaxScrollGeometry) -> Void) -> some View {
        background(
            ScrollGeometryReader()
                .onPreferenceChangeOnMainActor(ScrollGeometryKey.self) { geometry in
                    if let geometry { action(geometry) }
                }
        )
    }
}

/// Measures the scroll content it is the background of (see
/// ``SwiftUI/View/onParallaxScrollGeometryChange(_:)``).
struct ScrollGeometryReader: View {
    @Environment(\.parallaxViewportSize) private var viewportSize
    @Environment(\.parallaxObscuredInsets) private var obscuredInsets

    var body: some View {
        GeometryReader { proxy in
            Color.clear.preference(key: ScrollGeometryKey.self, value: geometry(of: proxy))
        }
    }

    private func geometry(of proxy: GeometryProxy) -> ParallaxScrollGeometry? {
        scrollGeometry(of: proxy, viewportSize: viewportSize, obscuredInsets: obscuredInsets)
    }
}

/// The scroll geometry seen from the frame of the content `proxy`
/// measures, or `nil` outside a scroll view it can measure. `viewportSize`
/// and `obscuredInsets` are what ``SwiftUI/View/parallaxScrollContainer()``
/// publishes (needed before iOS 17).
func scrollGeometry(of proxy: GeometryProxy, viewportSize: CGSize?,
                    obscuredInsets: ParallaxCore.EdgeInsets) -> ParallaxScrollGeometry? {
    #if canImport(SwiftUI, _version: 5.0)
    if #available(iOS 17, macOS 14, tvOS 17, visionOS 1, *) {
        // The visible rectangle in the content's coordinates: its origin
        // is the content offset, as a UIScrollView's bounds origin is.
        guard let visible = proxy.bounds(of: .scrollView) else { return nil }
        return ParallaxScrollGeometry(contentOffset: visible.origin, contentSize: proxy.size,
                                      viewportSize: visible.size, obscuredInsets: obscuredInsets)
    }
    #endif
    // The content's frame in the scroll view's visible rectangle: it sits
    // minus the content offset from the viewport's origin.
    guard let viewportSize else { return nil }
    let frame = proxy.frame(in: ParallaxScrollContainer.coordinateSpace)
    return ParallaxScrollGeometry(contentOffset: CGPoint(x: -frame.minX, y: -frame.minY),
                                  contentSize: frame.size, viewportSize: viewportSize, obscuredInsets: obscuredInsets)
}

/// Carries the scroll geometry from the content's background to the
/// caller's action.
private struct ScrollGeometryKey: PreferenceKey {
    static let defaultValue: ParallaxScrollGeometry? = nil

    static func reduce(value: inout ParallaxScrollGeometry?, nextValue: () -> ParallaxScrollGeometry?) {
        value = value ?? nextValue()
    }
}
#endif
