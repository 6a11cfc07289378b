#if canImport(UIKit)
import ParallaxCore
import ParallaxHosting
import UIKit

/// A `UIScrollView` as ParallaxHosting's frame loop and driver see it: its
/// geometry, whether it can be seen, and the visible views that conform to
/// ``ParallaxCell``: cells (and cells animating out), section headers and
/// footers of collection and table views, or views anywhere in a plain
/// scroll view's content. It only translates UIKit; every decision is made
/// in ParallaxHosting.
///
/// Complexity: per pass, O(visible targets) for collection and table
/// views (plus O(log sections) to find a table's headers and footers);
/// for a plain scroll view, O(targets) while its structure is unchanged,
/// a walk of its subviews when it changed.
@MainActor
final class ScrollViewHost: ParallaxFrameHost {
    typealias Target = ParallaxView

    private weak var scrollView: UIScrollView?
    var supplementaryElementKinds = [UICollectionView.elementKindSectionHeader,
                                     UICollectionView.elementKindSectionFooter]
    /// Bumped on layout and window wakes: a plain scroll view's structure may have changed.
    var layoutGeneration = 0
    /// Whether the last pass met a target whose view was animating (keeps frames coming).
    private var sawAnimations = false
    private var plainTargets = TargetCache<UIView, PlainStructure>()

    private struct PlainStructure: Equatable {
        var contentSize: CGSize
        var subviewCount: Int
        var layoutGeneration: Int
    }

    init(scrollView: UIScrollView) {
        self.scrollView = scrollView
    }

    // MARK: ParallaxScrollHost

    /// The scroll view's bounds; zero once it is gone.
    var visibleBounds: CGRect { scrollView?.bounds ?? .zero }

    /// The scroll view's safe area: the bars, the notch, the home indicator.
    var obscuredInsets: EdgeInsets {
        guard let insets = scrollView?.safeAreaInsets else { return .zero }
        return EdgeInsets(insets)
    }

    /// The scroll view's effective reading direction.
    var effectiveLayoutDirection: LayoutDirection {
        scrollView?.effectiveUserInterfaceLayoutDirection == .rightToLeft ? .rightToLeft : .leftToRight
    }

    /// The system's Reduce Motion setting, read now.
    var isReduceMotionEnabled: Bool { UIAccessibility.isReduceMotionEnabled }

    /// Calls `body` with the parallax view of every visible view conforming
    /// to ``ParallaxCell`` and its frame in content coordinates (from its
    /// centre and bounds, so a cell scaled for a highlight keeps its
    /// parallax).
    func forEachParallaxTarget(_ body: (ParallaxView, CGRect) -> Void) {
        guard let scrollView else { return }
        sawAnimations = false
        switch scrollView {
        case let collectionView as UICollectionView:
            let cells = collectionView.visibleCells
            for cell in cells { visit(cell, in: scrollView, body) }
            for kind in supplementaryElementKinds {
                for view in collectionView.visibleSupplementaryViews(ofKind: kind) { visit(view, in: scrollView, body) }
            }
            if sawAnimations { visitDeparting(in: collectionView, besides: cells, body) }
        case let tableView as UITableView:
            let cells = tableView.visibleCells
            for cell in cells { visit(cell, in: scrollView, body) }
            // Headers and footers of every section on screen, with visible rows or not.
            let sections = VisibleSections.sections(count: tableView.numberOfSections, in: tableView.bounds) {
                tableView.rect(forSection: $0)
            }
            for section in sections {
                if let header = tableView.headerView(forSection: section) { visit(header, in: scrollView, body) }
                if let footer = tableView.footerView(forSection: section) { visit(footer, in: scrollView, body) }
            }
            if sawAnimations { visitDeparting(in: tableView, besides: cells, body) }
        default:
            // A plain scroll view: conforming views anywhere in its content (inside stack views, say), but
            // not inside a nested scroll view, which has its own controller. Found by a walk only when the
            // structure changed; each pass checks the cached ones against the bounds.
            let structure = PlainStructure(contentSize: scrollView.contentSize, subviewCount: scrollView.subviews.count,
                                           layoutGeneration: layoutGeneration)
            let targets = plainTargets.targets(for: structure) {
                var found: [UIView] = []
                for subview in scrollView.subviews { collect(subview, into: &found) }
                return found
            }
            let visible = scrollView.bounds
            for view in targets where view.isDescendant(of: scrollView)
                && view.convert(view.bounds, to: scrollView).intersects(visible) {
                visit(view, in: scrollView, body)
            }
        }
    }

    /// Applies `placement` to `target` inside the target's own animation, if
    /// it is animating (see ``ParallaxView``).
    func apply(_ placement: ParallaxPlacement, to target: ParallaxView) {
        target.place(placement, within: scrollView)
    }

    // MARK: ParallaxFrameHost

    /// Whether the scroll view can be seen: its window (of a scene not in the
    /// background), hidden or transparent ancestors, clipping ancestors, and
    /// opaque presented views over it. O(ancestors + presented controllers).
    var frameVisibility: FrameVisibility {
        guard let scrollView, let window = scrollView.window,
              window.windowScene?.activationState != .background else { return .offScreen }
        var hidden = false
        var alpha: CGFloat = 1
        var visible = scrollView.convert(scrollView.bounds, to: window)
        var view: UIView? = scrollView
        while let current = view {
            hidden = hidden || current.isHidden
            alpha *= current.alpha
            if current !== scrollView, current.clipsToBounds {
                visible = visible.intersection(current.convert(current.bounds, to: window))
            }
            view = current.superview
        }
        visible = visible.intersection(window.bounds)
        return FrameVisibility(isInWindow: true, isHiddenInAncestry: hidden, alphaInAncestry: alpha,
                               visibleRect: visible, covers: covers(over: scrollView, in: window))
    }

    /// Finishes pending layout, so cells about to appear exist.
    func prepareFrame() {
        scrollView?.layoutIfNeeded()
    }

    /// The scroll view's geometry now.
    var frameSignature: FrameSignature {
        guard let scrollView else { return FrameSignature(contentOffset: .zero, boundsSize: .zero, contentSize: .zero) }
        return FrameSignature(contentOffset: scrollView.contentOffset, boundsSize: scrollView.bounds.size,
                              contentSize: scrollView.contentSize, obscuredInsets: obscuredInsets,
                              generation: scrollView.subviews.count)
    }

    /// Deceleration, and animations the last pass met.
    var frameMotion: FrameMotion {
        FrameMotion(isDecelerating: scrollView?.isDecelerating ?? false, isAnimating: sawAnimations)
    }

    // MARK: Helpers

    /// The frame, in the scroll view's content coordinates, that `view`'s
    /// placement is computed from (centre and bounds: a cell scaled for a
    /// tap highlight keeps its parallax).
    func frame(of view: ParallaxView) -> CGRect? {
        guard let scrollView, let superview = view.superview, view.isDescendant(of: scrollView) else { return nil }
        let centre = superview.convert(view.center, to: scrollView)
        let size = view.bounds.size
        return CGRect(x: centre.x - size.width / 2, y: centre.y - size.height / 2, width: size.width, height: size.height)
    }

    private func visit(_ candidate: UIView, in scrollView: UIScrollView, _ body: (ParallaxView, CGRect) -> Void) {
        guard let cell = candidate as? any ParallaxCell, !cell.isHidden else { return }
        let view = cell.parallaxView
        guard let frame = frame(of: view) else { return }
        if !sawAnimations, cell.layer.animationKeys()?.isEmpty == false { sawAnimations = true }
        body(view, frame)
    }

    /// Cells animating out (deleted, or carried off screen by a layout
    /// change) have left `visibleCells` but are still shown: they keep
    /// being placed for their model frame until their animation ends.
    private func visitDeparting(in scrollView: UIScrollView, besides visible: [UIView],
                                _ body: (ParallaxView, CGRect) -> Void) {
        let shown = Set(visible.map(ObjectIdentifier.init))
        for subview in scrollView.subviews where !subview.isHidden && !shown.contains(ObjectIdentifier(subview))
            && subview is any ParallaxCell && subview.layer.animationKeys()?.isEmpty == false {
            visit(subview, in: scrollView, body)
        }
    }

    private func collect(_ view: UIView, into found: inout [UIView]) {
        guard !view.isHidden else { return }
        if view is any ParallaxCell {
            found.append(view)
        } else if !(view is UIScrollView) {
            for subview in view.subviews { collect(subview, into: &found) }
        }
    }

    /// Opaque views of controllers presented over the scroll view's in the
    /// same window (an over-full-screen cover, say), in window coordinates.
    private func covers(over scrollView: UIScrollView, in window: UIWindow) -> [CGRect] {
        var covers: [CGRect] = []
        var presented = window.rootViewController?.presentedViewController
        while let controller = presented {
            if let view = controller.presentationController?.presentedView ?? controller.viewIfLoaded, view.window === window {
                if scrollView.isDescendant(of: view) {
                    covers.removeAll()          // presented below the scroll view's own controller: not over it
                } else if !view.isHidden, view.alpha >= 1, let colour = view.backgroundColor, colour.cgColor.alpha >= 1 {
                    covers.append(view.convert(view.bounds, to: window))
                }
            }
            presented = controller.presentedViewController
        }
        return covers
    }
}
#endif
