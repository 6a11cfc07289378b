#if canImport(UIKit)
import ObjectiveC
import ParallaxCore
import ParallaxHosting
import ParallaxImages
import ParallaxLayout
import UIKit

/// Parallax for the cells of a scroll view (`UICollectionView`,
/// `UITableView` or a plain `UIScrollView`), by composition: no subclass to
/// adopt, no delegate taken over.
///
/// ```swift
/// ParallaxController.attach(to: collectionView)   // cells that conform to ParallaxCell move
/// ```
///
/// How it hooks in: a display-synchronised frame hook (`UIUpdateLink` at
/// `beforeCATransactionCommit` from iOS 18, tvOS 18 and visionOS 2;
/// `CADisplayLink` below) calls ParallaxHosting's `ParallaxFrameLoop` once
/// per display frame. A frame lets the scroll view finish pending layout
/// (so cells about to appear exist) and hands every visible ``ParallaxCell``
/// its placement through a `ParallaxDriver`, but only when something moved:
/// the loop compares the scroll view's offset, size, content size and
/// insets with the last pass's, and counts wakes. A view whose placement
/// did not change is not touched. So offsets are right:
/// - when a cell appears, in the same frame (not after the next scroll);
/// - after rotation, inset and safe-area changes, and during and after
///   reloads and batch updates, moving inside the cells' own animations;
/// - for any layout: flow, compositional, ParallaxKit's, custom.
///
/// How it learns that something can change, without a delegate and
/// without observing `contentOffset` (observers of it run in the middle of
/// UIKit's own update, where a layout pass re-enters them, the crash other
/// libraries shipped), and without invalidating the layout:
/// - while the hook runs, the per-frame comparison above;
/// - to start it again once idle: a target on the scroll view's
///   `panGestureRecognizer` (drags and releases: a target is not a
///   delegate, and the app's own targets and delegate are untouched); a
///   hidden marker subview (a window, new traits or safe area: a
///   rotation); a resized ``ParallaxView``; a ``ParallaxImageView`` that
///   appeared without a placement; a configuration,
///   Reduce Motion or loading change; ``setNeedsUpdate()``. From iOS 18 the
///   update link is also called, passively, for every UI update the app
///   makes (a programmatic scroll, a batch update, an ancestor shown
///   again); below iOS 18, call ``setNeedsUpdate()`` after scrolling
///   programmatically without animation.
///
/// Idle screens pay nothing: the hook pauses after a few unchanged frames,
/// runs no pass while the scroll view is hidden anywhere up its ancestry,
/// transparent, clipped away or covered by an opaque presented view, and
/// stops altogether outside a window.
///
/// Reduce Motion (`UIAccessibility.isReduceMotionEnabled`) and right-to-left
/// (`effectiveUserInterfaceLayoutDirection`) are read on every pass and the
/// controller updates when Reduce Motion changes.
///
/// The controller lives as long as its scroll view (it is stored with it)
/// and holds the scroll view weakly. What it is given to name photos
/// (``followLoading(_:owner:imageID:)``) reaches its owner weakly, so a view
/// controller is never kept alive through its own scroll view.
///
/// Complexity: per display frame while the hook runs, O(1) when nothing
/// moved and O(visible cells) for a pass (a frame and a comparison per
/// cell); nothing while it is paused.
@MainActor
public final class ParallaxController {
    /// The effect and its settings; changes show in the next frame.
    public var configuration: ParallaxConfiguration {
        get { loop.driver.configuration }
        set {
            loop.driver.configuration = newValue
            loading?.invalidate()
            loop.wake(.configuration)
        }
    }

    /// The scroll view whose cells move.
    public private(set) weak var scrollView: UIScrollView?

    /// The kinds of collection-view supplementary views that may conform to
    /// ``ParallaxCell``: section headers and footers unless told otherwise
    /// (add the custom kinds of a compositional layout here).
    public var supplementaryElementKinds: [String] {
        get { host.supplementaryElementKinds }
        set { host.supplementaryElementKinds = newValue; loop.wake(.configuration) }
    }

    /// What the controller has done (updates, placements, nested requests).
    public var statistics: ParallaxDriverStatistics { loop.driver.statistics }

    /// What the frame hook has done (frames delivered, passes run, wakes).
    public var frameStatistics: FrameLoopStatistics { loop.statistics }

    /// The loading that follows this scroll view, if any (see
    /// ``followLoading(_:owner:imageID:)``).
    public internal(set) var loading: ViewportLoading?
    var naming: ItemImageNaming?
    /// Where the current fling lands, predicted at release (layouts that do not say).
    var fling: FlingPrediction?

    let host: ScrollViewHost
    private let loop: ParallaxFrameLoop<ScrollViewHost>
    private var link: DisplayFrameLink?
    private var marker: ScrollViewMarker?
    private let gestureTarget = GestureTarget()
    // Only touched on the main actor, and in deinit once nothing else can.
    private nonisolated(unsafe) var reduceMotionObserver: NSObjectProtocol?

    /// Attaches a controller to `scrollView` (replacing one attached
    /// before) and returns it. The axis, when not given, is the scroll
    /// view's: a horizontal flow or compositional layout, or a
    /// ParallaxKit layout's own axis; vertical otherwise.
    @discardableResult
    public static func attach(
        to scrollView: UIScrollView,
        effect: ParallaxEffect = .default,
        axis: ScrollAxis? = nil,
        intensity: CGFloat = 1
    ) -> ParallaxController {
        let configuration = ParallaxConfiguration(
            effect: effect, axis: axis ?? inferredAxis(of: scrollView), intensity: intensity)
        return attach(to: scrollView, configuration: configuration)
    }

    /// Attaches a controller with a full configuration.
    @discardableResult
    public static func attach(to scrollView: UIScrollView, configuration: ParallaxConfiguration) -> ParallaxController {
        scrollView.parallaxController?.detach()
        let controller = ParallaxController(scrollView: scrollView, configuration: configuration)
        objc_setAssociatedObject(scrollView, &AssociatedKey.controller, controller, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
        return controller
    }

    private init(scrollView: UIScrollView, configuration: ParallaxConfiguration) {
        self.scrollView = scrollView
        host = ScrollViewHost(scrollView: scrollView)
        loop = ParallaxFrameLoop(host: host, driver: ParallaxDriver(configuration: configuration))
        loop.afterPass = { [weak self] _ in self?.planLoading() }
        let link = DisplayFrameLink(view: scrollView) { [weak self] frame in self?.loop.frame(frame) }
        loop.link = link
        self.link = link

        gestureTarget.controller = self
        gestureTarget.attach(to: scrollView)
        let marker = ScrollViewMarker()
        marker.onWake = { [weak self] reason in self?.wake(reason) }
        scrollView.insertSubview(marker, at: 0)
        self.marker = marker

        reduceMotionObserver = NotificationCenter.default.addObserver(
            forName: UIAccessibility.reduceMotionStatusDidChangeNotification, object: nil, queue: .main
        ) { [weak self] _ in
            Task { @MainActor in self?.loop.wake(.configuration) }
        }
    }

    deinit {
        if let reduceMotionObserver { NotificationCenter.default.removeObserver(reduceMotionObserver) }
    }

    /// Places every visible cell now, outside the frame hook (for example
    /// right after changing a cell's content outside a layout pass).
    /// Normally not needed.
    public func updateNow() {
        loop.passNow()
    }

    /// Makes sure the next display frame runs a pass, and restarts the
    /// frame hook if it was idle: after a setting changed, new content, or
    /// (below iOS 18) a programmatic scroll without animation. Never runs a
    /// pass itself, so calling it often costs nothing. O(1).
    public func setNeedsUpdate() {
        loop.wake(.request)
    }

    /// Stops moving cells and removes the controller from its scroll view.
    /// Cells keep their last placement.
    public func detach() {
        link?.invalidate()
        link = nil
        loop.link = nil
        marker?.removeFromSuperview()
        marker = nil
        if let reduceMotionObserver { NotificationCenter.default.removeObserver(reduceMotionObserver) }
        reduceMotionObserver = nil
        guard let scrollView else { return }
        gestureTarget.detach(from: scrollView)
        if scrollView.parallaxController === self {
            objc_setAssociatedObject(scrollView, &AssociatedKey.controller, nil, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
        }
    }

    /// The exact placement for `view` now (a view resized inside an
    /// animation block places itself with it).
    func placement(for view: ParallaxView) -> ParallaxPlacement? {
        guard let frame = host.frame(of: view) else { return nil }
        let driver = loop.driver
        return driver.scroller(for: host).placer(for: driver.window(for: host)).placement(forItemFrame: frame)
    }

    /// The current placer (for loading's thumbnail sizes).
    var placer: ParallaxScroller.Placer {
        let driver = loop.driver
        return driver.scroller(for: host).placer(for: driver.window(for: host))
    }

    func wake(_ reason: FrameActivity.Wake) {
        if reason == .layout || reason == .window { host.layoutGeneration &+= 1 }
        loop.wake(reason)
    }

    /// The pan gesture's target-action: every drag step wakes the hook, and a
    /// release predicts where the fling lands.
    fileprivate func panned(_ pan: UIPanGestureRecognizer) {
        if pan.state == .ended, let scrollView {
            fling = Self.prediction(for: scrollView, releaseVelocity: pan.velocity(in: scrollView),
                                    axis: configuration.axis)
        } else if pan.state == .began {
            fling = nil
        }
        loop.wake(.gesture)
    }

    private static func prediction(for scrollView: UIScrollView, releaseVelocity: CGPoint,
                                   axis: ScrollAxis) -> FlingPrediction? {
        guard !scrollView.isPagingEnabled else { return nil }
        let insets = scrollView.adjustedContentInset
        let lower = axis == .vertical ? -insets.top : -insets.left
        let upper = axis == .vertical
            ? scrollView.contentSize.height + insets.bottom - scrollView.bounds.height
            : scrollView.contentSize.width + insets.right - scrollView.bounds.width
        // The finger's velocity: the content offset moves the other way.
        return FlingPrediction(offset: axis.main(scrollView.contentOffset), velocity: -axis.main(releaseVelocity),
                               rate: DecelerationRate(rawValue: scrollView.decelerationRate.rawValue),
                               range: lower...max(lower, upper))
    }

    private static func inferredAxis(of scrollView: UIScrollView) -> ScrollAxis {
        guard let collectionView = scrollView as? UICollectionView else { return .vertical }
        switch collectionView.collectionViewLayout {
        case let flow as UICollectionViewFlowLayout:
            return flow.scrollDirection == .horizontal ? .horizontal : .vertical
        case let compositional as UICollectionViewCompositionalLayout:
            return compositional.configuration.scrollDirection == .horizontal ? .horizontal : .vertical
        case let parallax as ParallaxCollectionViewLayout:
            return parallax.axis
        default:
            return .vertical
        }
    }

    /// The pan gesture recognizer's target: an `NSObject` holding the
    /// controller weakly. UIKit does not promise to retain a gesture
    /// recognizer's targets, so the scroll view keeps this one (an
    /// associated object) for as long as the recognizer can call it.
    private final class GestureTarget: NSObject {
        weak var controller: ParallaxController?

        @MainActor func attach(to scrollView: UIScrollView) {
            objc_setAssociatedObject(scrollView, key, self, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
            scrollView.panGestureRecognizer.addTarget(self, action: #selector(panned(_:)))
        }

        @MainActor func detach(from scrollView: UIScrollView) {
            scrollView.panGestureRecognizer.removeTarget(self, action: #selector(panned(_:)))
            objc_setAssociatedObject(scrollView, key, nil, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
        }

        /// A key of this target's own.
        private var key: UnsafeRawPointer { UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()) }

        @MainActor @objc func panned(_ pan: UIPanGestureRecognizer) {
            controller?.panned(pan)
        }
    }
}

extension UIScrollView {
    /// The ``ParallaxController`` attached to this scroll view, if any.
    public var parallaxController: ParallaxController? {
        objc_getAssociatedObject(self, &AssociatedKey.controller) as? ParallaxController
    }
}

@MainActor
private enum AssociatedKey {
    static var controller: UInt8 = 0
}
#endif
