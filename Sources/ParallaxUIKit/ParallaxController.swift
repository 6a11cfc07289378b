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
/// How it hooks in: whenever the main run loop is about to commit a frame
/// (see `RunLoopFrameObserver`), the controller lets the scroll view finish
/// any pending layout (so cells that are about to appear exist) and hands
/// every visible ``ParallaxCell`` its placement through a
/// `ParallaxDriver`. Every pass is complete: cells that moved without the
/// scroll view moving (a reorder, a batch update, a reload) are placed too.
/// A view whose placement did not change is not touched. It
/// never observes `contentOffset`, never becomes a delegate and never
/// invalidates the collection view's layout. So offsets are right:
/// - when a cell appears, in the same frame (not after the next scroll);
/// - after rotation, inset and safe-area changes, and during and after
///   reloads and batch updates;
/// - for any layout: flow, compositional, ParallaxKit's, custom.
///
/// Reduce Motion (`UIAccessibility.isReduceMotionEnabled`) and right-to-left
/// (`effectiveUserInterfaceLayoutDirection`) are read on every update and
/// the controller updates when Reduce Motion changes.
///
/// The controller lives as long as its scroll view (it is stored with it)
/// and holds the scroll view weakly.
///
/// Complexity: O(visible cells) per wake of the main run loop while the
/// scroll view is on screen (a few microseconds: a frame and a comparison
/// per cell), nothing while the run loop sleeps.
@MainActor
public final class ParallaxController {
    /// The effect and its settings; changes show in the next frame.
    public var configuration: ParallaxConfiguration {
        get { driver.configuration }
        set { driver.configuration = newValue; setNeedsUpdate() }
    }

    /// The scroll view whose cells move.
    public private(set) weak var scrollView: UIScrollView?

    /// The kinds of collection-view supplementary views that may conform to
    /// ``ParallaxCell``: section headers and footers unless told otherwise
    /// (add the custom kinds of a compositional layout here).
    public var supplementaryElementKinds: [String] {
        get { host.supplementaryElementKinds }
        set { host.supplementaryElementKinds = newValue }
    }

    /// What the controller has done (updates, placements, nested requests).
    public var statistics: ParallaxDriverStatistics { driver.statistics }

    /// The loading that follows this scroll view, if any (see
    /// ``followLoading(_:imageID:)``).
    public private(set) var loading: ViewportLoading?
    private var imageID: ((ItemIndex) -> ImageID?)?

    private let driver: ParallaxDriver<ScrollViewHost>
    private let host: ScrollViewHost
    private var frameObserver: RunLoopFrameObserver?
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
        self.host = ScrollViewHost(scrollView: scrollView)
        self.driver = ParallaxDriver(configuration: configuration)
        frameObserver = RunLoopFrameObserver { [weak self] in self?.frameWillCommit() }
        reduceMotionObserver = NotificationCenter.default.addObserver(
            forName: UIAccessibility.reduceMotionStatusDidChangeNotification, object: nil, queue: .main
        ) { [weak self] _ in
            Task { @MainActor in self?.setNeedsUpdate() }
        }
    }

    deinit {
        if let reduceMotionObserver { NotificationCenter.default.removeObserver(reduceMotionObserver) }
    }

    /// Places every visible cell now (for example right after changing a
    /// cell's content outside a layout pass). Normally not needed.
    public func updateNow() {
        guard let scrollView, scrollView.window != nil else { return }
        scrollView.layoutIfNeeded()
        driver.update(host)
        planLoading(in: scrollView)
    }

    /// Makes the image pipeline follow this collection view: on every
    /// frame in which the viewport reaches other items or a fling starts,
    /// the viewport's ranges (on screen, where the fling lands, ahead and
    /// behind) are planned over its ``ParallaxCollectionViewLayout`` and
    /// handed to `loading`'s loader, for the thumbnails each cell's
    /// ``ParallaxImageView`` will ask for (the effect's content size at the
    /// screen's scale). `imageID` names the photo of an item (`nil`: none).
    ///
    /// Requests for what is on screen go on through ``ParallaxImageView``
    /// as before; the plan ranks them, preloads what the user is about to
    /// see and lowers what was scrolled past. Other layouts are not planned
    /// (their future frames are not known).
    public func followLoading(_ loading: ViewportLoading, imageID: @escaping (ItemIndex) -> ImageID?) {
        self.loading = loading
        self.imageID = imageID
        loading.invalidate()
        setNeedsUpdate()
    }

    /// Stops planning loading; work under way goes on.
    public func stopFollowingLoading() {
        loading = nil
        imageID = nil
    }

    private func planLoading(in scrollView: UIScrollView) {
        guard let loading, let imageID, let collectionView = scrollView as? UICollectionView,
              let parallaxLayout = collectionView.collectionViewLayout as? ParallaxCollectionViewLayout,
              let layout = parallaxLayout.state.layout else { return }
        // During a pinch the frames shown are the pinch's, not the resting layout's: the visible cells
        // ask for their own pictures, and the plan is made again for the count the pinch rests on.
        if parallaxLayout.columnPinch?.isActive == true {
            loading.invalidate()
            return
        }
        let placer = driver.scroller(for: host).placer(for: driver.window(for: host))
        let scale = max(scrollView.traitCollection.displayScale, 1)
        loading.update(layout: layout, visibleRect: parallaxLayout.layoutRect(of: collectionView.bounds),
                       motion: parallaxLayout.motion(of: collectionView)) { index, frame in
            let contentSize = placer.placement(forItemFrame: parallaxLayout.shownFrame(of: frame)).contentSize
            guard let id = imageID(index), let size = try? ThumbnailSize(points: contentSize, scale: scale, mode: .fill) else {
                return nil
            }
            return ThumbnailKey(id: id, size: size)
        }
    }

    /// Stops moving cells and removes the controller from its scroll view.
    /// Cells keep their last placement.
    public func detach() {
        frameObserver?.invalidate()
        frameObserver = nil
        if let reduceMotionObserver { NotificationCenter.default.removeObserver(reduceMotionObserver) }
        reduceMotionObserver = nil
        if let scrollView, scrollView.parallaxController === self {
            objc_setAssociatedObject(scrollView, &AssociatedKey.controller, nil, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
        }
    }

    /// Makes sure a pass runs soon (a setting changed, a cell's parallax
    /// view was resized): the frame observer runs on the next turn of the
    /// run loop, which this wakes.
    func setNeedsUpdate() {
        CFRunLoopWakeUp(CFRunLoopGetMain())
    }

    private func frameWillCommit() {
        guard let scrollView else {
            detach()
            return
        }
        guard scrollView.window != nil, !scrollView.isHidden else { return }
        updateNow()
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

/// A `UIScrollView` as `ParallaxDriver` sees it: its bounds, safe area,
/// reading direction, and the visible views that conform to ``ParallaxCell``:
/// cells, section headers and footers of collection and table views, or
/// views anywhere in a plain scroll view's visible content.
@MainActor
final class ScrollViewHost: ParallaxScrollHost {
    typealias Target = ParallaxView

    private weak var scrollView: UIScrollView?
    var supplementaryElementKinds = [UICollectionView.elementKindSectionHeader,
                                     UICollectionView.elementKindSectionFooter]

    init(scrollView: UIScrollView) {
        self.scrollView = scrollView
    }

    /// The scroll view's bounds; zero once it is gone.
    public var visibleBounds: CGRect { scrollView?.bounds ?? .zero }

    /// The scroll view's safe area: the bars, the notch, the home indicator.
    public var obscuredInsets: EdgeInsets {
        guard let insets = scrollView?.safeAreaInsets else { return .zero }
        return EdgeInsets(insets)
    }

    /// The scroll view's effective reading direction.
    public var effectiveLayoutDirection: LayoutDirection {
        scrollView?.effectiveUserInterfaceLayoutDirection == .rightToLeft ? .rightToLeft : .leftToRight
    }

    /// The system's Reduce Motion setting, read now.
    public var isReduceMotionEnabled: Bool { UIAccessibility.isReduceMotionEnabled }

    /// Calls `body` with the parallax view of every visible view conforming
    /// to ``ParallaxCell`` and its frame in content coordinates (from its
    /// centre and bounds, so a cell scaled for a highlight keeps its
    /// parallax).
    public func forEachParallaxTarget(_ body: (ParallaxView, CGRect) -> Void) {
        guard let scrollView else { return }
        switch scrollView {
        case let collectionView as UICollectionView:
            for cell in collectionView.visibleCells { visit(cell, in: scrollView, body) }
            for kind in supplementaryElementKinds {
                for view in collectionView.visibleSupplementaryViews(ofKind: kind) { visit(view, in: scrollView, body) }
            }
        case let tableView as UITableView:
            for cell in tableView.visibleCells { visit(cell, in: scrollView, body) }
            let sections = Set((tableView.indexPathsForVisibleRows ?? []).map(\.section))
            for section in sections {
                if let header = tableView.headerView(forSection: section) { visit(header, in: scrollView, body) }
                if let footer = tableView.footerView(forSection: section) { visit(footer, in: scrollView, body) }
            }
        default:
            // A plain scroll view: conforming views anywhere in its visible content (inside stack
            // views, say), but not inside a nested scroll view, which has its own controller. Each
            // child of a visible container is checked: O(views in visible containers).
            let visible = scrollView.bounds
            for subview in scrollView.subviews { visitTree(subview, in: scrollView, visible: visible, body) }
        }
    }

    private func visitTree(_ view: UIView, in scrollView: UIScrollView, visible: CGRect,
                           _ body: (ParallaxView, CGRect) -> Void) {
        guard !view.isHidden, view.convert(view.bounds, to: scrollView).intersects(visible) else { return }
        if view is any ParallaxCell {
            visit(view, in: scrollView, body)
        } else if !(view is UIScrollView) {
            for subview in view.subviews { visitTree(subview, in: scrollView, visible: visible, body) }
        }
    }

    private func visit(_ candidate: UIView, in scrollView: UIScrollView, _ body: (ParallaxView, CGRect) -> Void) {
        guard let cell = candidate as? any ParallaxCell, !cell.isHidden else { return }
        let view = cell.parallaxView
        guard let superview = view.superview else { return }
        // The centre and bounds, not `frame`: a cell scaled for a tap highlight keeps its parallax.
        let centre = superview.convert(view.center, to: scrollView)
        let size = view.bounds.size
        body(view, CGRect(x: centre.x - size.width / 2, y: centre.y - size.height / 2,
                          width: size.width, height: size.height))
    }

    /// Applies `placement` to `target`, which skips an unchanged one.
    public func apply(_ placement: ParallaxPlacement, to target: ParallaxView) {
        target.apply(placement)
    }
}
#endif
