#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// A scroll view as ``ParallaxDriver`` sees it: what is on screen, and the
/// items in it that opted in to parallax.
///
/// `ParallaxUIKit` makes `UIScrollView` (and so `UICollectionView` and
/// `UITableView`) one of these; Linux tests use fake scroll views. Every
/// decision about parallax is made by the driver against this protocol, so
/// the tests cover what the app does.
@MainActor
public protocol ParallaxScrollHost: AnyObject {
    /// Whatever the host moves: a cell's content view, an image view.
    associatedtype Target

    /// The scroll view's bounds: its size, at the content offset, in
    /// content coordinates.
    var visibleBounds: CGRect { get }

    /// The edges of the bounds that something covers: navigation and tab
    /// bars, the notch, the home indicator (UIKit's `safeAreaInsets`).
    var obscuredInsets: EdgeInsets { get }

    /// The host's effective reading direction.
    var effectiveLayoutDirection: LayoutDirection { get }

    /// Whether the system asks for reduced motion right now.
    var isReduceMotionEnabled: Bool { get }

    /// Calls `body` with every visible target that opted in, and its frame
    /// in content coordinates. Items that did not opt in are never passed,
    /// so they are never touched.
    func forEachParallaxTarget(_ body: (Target, CGRect) -> Void)

    /// Moves `target`'s content to `placement`.
    func apply(_ placement: ParallaxPlacement, to target: Target)
}
