#if canImport(SwiftUI)
import SwiftUI

extension View {
    /// Makes the ``ParallaxImage`` (or ``ParallaxLoadedImage``) in this
    /// view the source of a zoom transition to a detail view, from the
    /// picture as the tile draws it: SwiftUI's
    /// `matchedTransitionSource(id:in:)` on iOS 18, macOS 15, tvOS 18 and
    /// visionOS 2, matched by a destination's
    /// ``SwiftUI/View/parallaxZoomDestination(sourceID:in:)``.
    ///
    ///     ParallaxLoadedImage(photo.id, label: Text(photo.name))
    ///         .parallaxZoomSource(id: photo.id, in: zoom)
    ///
    /// The source is the picture's content frame, not the cell's: the
    /// photo's crop as it is laid out (the item plus the effect's overscan,
    /// centred on the item) and moved by the parallax with it, so the zoom
    /// grows from where the picture is. SwiftUI offers no alignment
    /// rectangle (UIKit's zoom has one): it maps the whole destination onto
    /// that frame, so a detail view that fills the screen with its photo
    /// lines up best. A cell showing no picture yet (a placeholder, a
    /// failure) is no source, and the transition falls back to SwiftUI's
    /// default zoom from the screen's centre.
    ///
    /// Before iOS 18 (and with SDKs older than Xcode 16's) this does
    /// nothing: the detail view is pushed or presented with the standard
    /// transition.
    ///
    /// - Parameters:
    ///   - id: the identifier the destination names, such as the photo's.
    ///   - namespace: the namespace both sides share (`@Namespace`).
    public func parallaxZoomSource(id: some Hashable & Sendable, in namespace: Namespace.ID) -> some View {
        environment(\.parallaxZoomSource, ParallaxZoomSourceTag(id: id, namespace: namespace))
    }

    /// Makes this detail view zoom in from, and back out to, the
    /// ``SwiftUI/View/parallaxZoomSource(id:in:)`` named `sourceID`:
    /// SwiftUI's `navigationTransition(.zoom(sourceID:in:))` on iOS 18,
    /// tvOS 18 and visionOS 2, for a navigation push or a full-screen
    /// cover. A detail view that pages to other photos passes the one it
    /// shows now, so closing returns to that photo's tile (when it is on
    /// screen; otherwise SwiftUI zooms to the screen's centre).
    ///
    /// Elsewhere, and before iOS 18, this does nothing: the standard push
    /// or cover transition plays, which never depends on the grid.
    public func parallaxZoomDestination(sourceID: some Hashable, in namespace: Namespace.ID) -> some View {
        modifier(ParallaxZoomDestinationModifier(sourceID: AnyHashable(sourceID), namespace: namespace))
    }
}

/// What ``SwiftUI/View/parallaxZoomSource(id:in:)`` hands down to the
/// picture. The identifier is given to SwiftUI as an `AnyHashable`, on
/// both sides, so a source and a destination match whatever its type.
struct ParallaxZoomSourceTag: Sendable {
    var id: any Hashable & Sendable
    var namespace: Namespace.ID
}

extension EnvironmentValues {
    /// Set by ``SwiftUI/View/parallaxZoomSource(id:in:)``: the picture of a
    /// ``ParallaxImage`` below becomes the transition's source. `nil`
    /// otherwise.
    var parallaxZoomSource: ParallaxZoomSourceTag? {
        get { self[ParallaxZoomSourceKey.self] }
        set { self[ParallaxZoomSourceKey.self] = newValue }
    }
}

private struct ParallaxZoomSourceKey: EnvironmentKey {
    static let defaultValue: ParallaxZoomSourceTag? = nil
}

/// Marks the view it modifies (a ``ParallaxImage``'s picture, at its
/// content frame) as the matched transition source `tag` names, where the
/// system has one.
struct ParallaxZoomSourceMarker: ViewModifier {
    var tag: ParallaxZoomSourceTag?

    func body(content: Content) -> some View {
        #if canImport(SwiftUICore)                  // Xcode 16's SDKs, where matchedTransitionSource is
        if #available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            if let tag {
                content.matchedTransitionSource(id: AnyHashable(tag.id), in: tag.namespace)
            } else {
                content
            }
        } else {
            content
        }
        #else
        content
        #endif
    }
}

/// The modifier behind ``SwiftUI/View/parallaxZoomDestination(sourceID:in:)``.
struct ParallaxZoomDestinationModifier: ViewModifier {
    /// Wrapped as the source wraps its identifier, so the two match.
    var sourceID: AnyHashable
    var namespace: Namespace.ID

    func body(content: Content) -> some View {
        #if canImport(SwiftUICore) && !os(macOS)    // the zoom transition: Xcode 16's SDKs, not macOS
        if #available(iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            content.navigationTransition(.zoom(sourceID: sourceID, in: namespace))
        } else {
            content
        }
        #else
        content
        #endif
    }
}
#endif
