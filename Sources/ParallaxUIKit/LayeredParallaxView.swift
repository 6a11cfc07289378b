#if canImport(UIKit)
import ObjectiveC
import ParallaxCore
import ParallaxHosting
import UIKit

/// Whole background layers that slide at their own speeds behind a scroll
/// view: the "Cosmos" effect (the C4 Cosmos tutorial). The scroll view is the driver; each
/// layer follows at its `LayeredParallax` speed (0 stands still, 1 moves
/// with the content), and is made just long enough to reach its end.
///
/// ```swift
/// let background = LayeredParallaxView(layers: starLayers)   // bottom to top, one per speed
/// view.insertSubview(background, belowSubview: scrollView)
/// background.follow(scrollView)
/// ```
///
/// The view updates from the same display-synchronised frame hook as
/// ``ParallaxController`` (`UIUpdateLink` before the commit from iOS 18,
/// `CADisplayLink` below; see there for why not on `contentOffset`
/// changes): once per frame while the driving scroll view moves, paused
/// after a few still frames and while this view is out of a window or
/// hidden, woken by a drag (a target on the scroll view's pan gesture) or a
/// layout. It honours Reduce Motion (every layer then moves with the
/// content) and, for horizontal stacks, right-to-left.
@MainActor
public final class LayeredParallaxView: UIView {
    /// The speeds, intensity and direction of the stack.
    public var model: LayeredParallax {
        didSet { setNeedsLayout() }
    }
    /// The layer views, bottom to top; layer `i` moves at `model.speeds[i]`.
    public let layerViews: [UIView]
    /// The axis the driving scroll view scrolls along.
    public var axis: ScrollAxis {
        didSet { setNeedsLayout() }
    }
    /// When set, every layer's art repeats after `loopPeriod · speed`
    /// points (draw one period, then a copy of its first screen), so
    /// layers can loop without end (`LoopingContent`).
    public var loopPeriod: CGFloat? {
        didSet { setNeedsLayout() }
    }
    /// The scroll view that drives the layers.
    public private(set) weak var scrollView: UIScrollView?

    private var link: DisplayFrameLink?
    private var activity = FrameActivity()
    private let gestureTarget = GestureTarget()

    /// A view sliding `layers` (bottom to top, one per speed of `model`, the
    /// Cosmos speeds by default; a layer past the last speed moves with the
    /// content) behind a scroll view scrolling along `axis`. It clips its
    /// layers and takes no touches; ``follow(_:)`` starts it.
    public init(model: LayeredParallax = .cosmos, layers: [UIView], axis: ScrollAxis = .vertical) {
        self.model = model
        self.layerViews = layers
        self.axis = axis
        super.init(frame: .zero)
        clipsToBounds = true
        isUserInteractionEnabled = false
        for layer in layers { addSubview(layer) }
    }

    /// Not supported: the view is made in code. Returns `nil`.
    public required init?(coder: NSCoder) {
        return nil
    }

    /// Drives the layers from `scrollView` from now on.
    public func follow(_ scrollView: UIScrollView) {
        stopFollowing()
        self.scrollView = scrollView
        gestureTarget.view = self
        gestureTarget.attach(to: scrollView)
        activity = FrameActivity()
        link = DisplayFrameLink(view: self) { [weak self] frame in self?.frame(frame) }
    }

    /// Stops following the scroll view.
    public func stopFollowing() {
        link?.invalidate()
        link = nil
        if let scrollView { gestureTarget.detach(from: scrollView) }
        scrollView = nil
    }

    /// Places every layer for the driving scroll view's current offset.
    public override func layoutSubviews() {
        super.layoutSubviews()
        updateLayers()
        wake(.layout)
    }

    public override func didMoveToWindow() {
        super.didMoveToWindow()
        wake(.window)
    }

    private func wake(_ reason: FrameActivity.Wake) {
        if activity.wake(reason) { link?.cadence = activity.cadence }
    }

    private func frame(_ frame: Double) {
        guard let scrollView else {
            stopFollowing()
            return
        }
        let visibility = window == nil ? FrameVisibility.offScreen
            : FrameVisibility(isInWindow: true, isHiddenInAncestry: isHidden || scrollView.isHidden,
                              visibleRect: bounds)
        let signature = FrameSignature(contentOffset: scrollView.contentOffset, boundsSize: bounds.size,
                                       contentSize: scrollView.contentSize,
                                       obscuredInsets: EdgeInsets(scrollView.adjustedContentInset))
        let decision = activity.frame(frame, signature: signature, visibility: visibility,
                                      motion: FrameMotion(isDecelerating: scrollView.isDecelerating))
        if decision.runsPass { updateLayers() }
        if link?.cadence != decision.cadence { link?.cadence = decision.cadence }
    }

    /// The pan gesture recognizer's target: wakes the view on every drag
    /// step. The scroll view keeps it (an associated object), since UIKit
    /// does not promise to retain a gesture recognizer's targets and this
    /// view may go first.
    private final class GestureTarget: NSObject {
        weak var view: LayeredParallaxView?

        @MainActor func attach(to scrollView: UIScrollView) {
            objc_setAssociatedObject(scrollView, key, self, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
            scrollView.panGestureRecognizer.addTarget(self, action: #selector(panned))
        }

        @MainActor func detach(from scrollView: UIScrollView) {
            scrollView.panGestureRecognizer.removeTarget(self, action: #selector(panned))
            objc_setAssociatedObject(scrollView, key, nil, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
        }

        /// A key of this target's own.
        private var key: UnsafeRawPointer { UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()) }

        @MainActor @objc func panned() {
            view?.wake(.gesture)
        }
    }

    private func updateLayers() {
        guard let scrollView else { return }
        let background = LayeredBackground(stack: model, axis: axis, loopPeriod: loopPeriod).resolved(
            layoutDirection: effectiveUserInterfaceLayoutDirection == .rightToLeft ? .rightToLeft : .leftToRight,
            isReduceMotionEnabled: UIAccessibility.isReduceMotionEnabled)
        // The driver's offset from its content's start: a scroll view resting under a bar sits at −inset.
        let insets = scrollView.adjustedContentInset
        let driverOffset = axis.main(scrollView.contentOffset) + (axis == .vertical ? insets.top : insets.left)
        for (index, layer) in layerViews.enumerated() {
            let placement = background.placement(
                ofLayer: index, driverOffset: driverOffset,
                driverContentExtent: axis.main(scrollView.contentSize), viewportSize: bounds.size)
            let frame = placement.frame(along: axis)
            if layer.frame != frame { layer.frame = frame }
        }
    }
}
#endif
