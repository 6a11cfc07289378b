#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation

/// Whether a scroll view can be seen, from what its adapter reads of it:
/// its window, its ancestry and what covers it. ``FrameActivity`` runs no
/// pass for a scroll view that cannot be seen.
///
/// A scroll view cannot be seen when it is in no window, when it or any
/// ancestor is hidden or (nearly) transparent, when the ancestors that clip
/// and the window leave none of it, or when one opaque view above it (a
/// full-screen cover, a sheet over it) contains all that is left.
///
/// Complexity: O(covers) for ``state``.
public struct FrameVisibility: Sendable, Hashable {
    /// Whether it can be seen.
    public enum State: Sendable, Hashable {
        /// On screen: passes run.
        case visible
        /// In a window but hidden, transparent, clipped away or covered.
        case obscured
        /// In no window.
        case offScreen
    }

    /// Alpha at or below which a view counts as transparent (UIKit stops
    /// hit-testing views at 0.01 too).
    public static let transparentAlpha: CGFloat = 0.01

    /// Whether the scroll view is in a window (of a scene in the foreground).
    public var isInWindow: Bool
    /// Whether it or any ancestor, its window included, is hidden.
    public var isHiddenInAncestry: Bool
    /// The product of its alpha and every ancestor's.
    public var alphaInAncestry: CGFloat
    /// The part of its bounds left by the ancestors that clip and by the
    /// window, in window coordinates (empty: none).
    public var visibleRect: CGRect
    /// Opaque views above it in the same window, in window coordinates.
    public var covers: [CGRect]

    /// A visibility.
    public init(isInWindow: Bool, isHiddenInAncestry: Bool = false, alphaInAncestry: CGFloat = 1,
                visibleRect: CGRect, covers: [CGRect] = []) {
        self.isInWindow = isInWindow
        self.isHiddenInAncestry = isHiddenInAncestry
        self.alphaInAncestry = alphaInAncestry
        self.visibleRect = visibleRect
        self.covers = covers
    }

    /// Hashes every field (CoreGraphics' geometry is only Equatable in Apple SDKs before iOS 18).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(isInWindow)
        hasher.combine(isHiddenInAncestry)
        hasher.combine(alphaInAncestry)
        hasher.combine(rect: visibleRect)
        hasher.combine(covers.count)
        for cover in covers { hasher.combine(rect: cover) }
    }

    /// In no window.
    public static let offScreen = FrameVisibility(isInWindow: false, visibleRect: .null)

    /// Whether it can be seen.
    public var state: State {
        guard isInWindow else { return .offScreen }
        if isHiddenInAncestry || !(alphaInAncestry > Self.transparentAlpha) { return .obscured }
        let rect = visibleRect.standardized
        guard !rect.isNull, rect.hasFiniteValues, rect.width > 0, rect.height > 0 else { return .obscured }
        for cover in covers where cover.standardized.contains(rect) { return .obscured }
        return .visible
    }
}

extension CGRect {
    var hasFiniteValues: Bool { origin.x.isFinite && origin.y.isFinite && size.width.isFinite && size.height.isFinite }
}
