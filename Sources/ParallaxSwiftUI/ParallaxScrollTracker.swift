#if canImport(SwiftUI)
#if canImport(Combine)
import Combine
#endif
import SwiftUI

/// A scroll view's geometry, held where only the views that draw with it
/// read it: ``LayeredParallaxBackground`` observes it; the view that
/// builds the scroll view keeps it in a `@State` and never reads it, so
/// scrolling rebuilds the background alone, never the screen:
///
///     @State private var scroll = ParallaxScrollTracker()
///
///     ScrollView(.horizontal) {
///         HStack { ... }
///             .onParallaxScrollGeometryChange(updating: scroll)
///     }
///     .parallaxScrollContainer()
///     .background {
///         LayeredParallaxBackground(.cosmos, tracker: scroll) { layer in
///             Starfield(seed: layer.index)
///         }
///     }
///
/// An `ObservableObject` with one published value, so it works from iOS 16
/// on: a `@State` holding it does not subscribe its view (an
/// `@StateObject` would), and its one value means Observation's
/// per-property tracking (iOS 17) would invalidate exactly the same
/// readers. The geometry is published only when it changes.
///
/// Complexity: O(1) per scrolled frame, besides the background's redraw.
@MainActor
public final class ParallaxScrollTracker: ObservableObject {
    /// The scroll view's geometry, as last reported.
    @Published public private(set) var geometry = ParallaxScrollGeometry()

    /// A tracker at the all-zero geometry, until the scroll view reports.
    public nonisolated init() {}

    /// Publishes `geometry` if it differs from the last.
    public func update(_ geometry: ParallaxScrollGeometry) {
        if geometry != self.geometry { self.geometry = geometry }
    }
}

extension View {
    /// Keeps `tracker` at the geometry of the scroll view this content is
    /// in: put it on the one view directly inside the `ScrollView`.
    ///
    /// With Xcode 16's SDKs it reads the geometry with Apple's
    /// `onGeometryChange(for:of:action:)` (back-deployed to iOS 16), which
    /// runs no view body; only the views that read `tracker.geometry` are
    /// updated. Before iOS 17 the scroll view needs
    /// ``SwiftUI/View/parallaxScrollContainer()``.
    @MainActor
    public func onParallaxScrollGeometryChange(updating tracker: ParallaxScrollTracker) -> some View {
        modifier(ScrollGeometryTracking(tracker: tracker))
    }
}

/// The modifier behind ``SwiftUI/View/onParallaxScrollGeometryChange(updating:)``.
private struct ScrollGeometryTracking: ViewModifier {
    let tracker: ParallaxScrollTracker
    @Environment(\.parallaxViewportSize) private var viewportSize
    @Environment(\.parallaxObscuredInsets) private var obscuredInsets

    func body(content: Content) -> some View {
        #if canImport(SwiftUICore)
        let viewportSize = self.viewportSize, obscuredInsets = self.obscuredInsets
        content.onGeometryChange(for: ParallaxScrollGeometry?.self) { proxy in
            scrollGeometry(of: proxy, viewportSize: viewportSize, obscuredInsets: obscuredInsets)
        } action: { geometry in
            if let geometry { tracker.update(geometry) }
        }
        #else
        content.onParallaxScrollGeometryChange { tracker.update($0) }
        #endif
    }
}
#endif
