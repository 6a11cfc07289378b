#if canImport(UIKit)
import ParallaxCore
import ParallaxHosting
import QuartzCore
import UIKit

/// A view that clips its ``contentView`` and lets a ``ParallaxController``
/// size and move it: the content helper every parallax cell needs.
///
/// The controller computes the content's frame for the effect (taller or
/// wider than this view by the effect's overscan, so the content can move
/// without showing an edge) and calls ``apply(_:)``; this view only sets its
/// content's size and centre. Pin this view to the cell with Auto Layout as
/// usual: the content inside it is laid out by the placement, never by
/// constraints (constraints would put it back on the next layout pass).
///
/// Until the first placement arrives (or for a view outside a controlled
/// scroll view) the content simply fills the bounds. When the view is
/// resized, the content keeps its overscan and offset around the new bounds
/// until the controller places it exactly, at its next pass (normally
/// before the frame is committed; a resize made during the commit itself is
/// placed exactly one frame later).
///
/// Animated layout changes (a layout transition, batch updates, a rotation,
/// a grid ↔ list switch) move the content inside the cell's own animation:
/// a placement made inside an animation block (this view resized during the
/// transition, when the controller places it at once) is animated by UIKit
/// with it, and one made while the cell's layer animates its position or
/// size gets a copy of that animation (timing, curve, spring, begin time),
/// from the old placement to the new, so content and cell interpolate
/// together (ParallaxHosting's `PlacementTransition`). The placement itself
/// is always the one for the cell's final frame.
@MainActor
open class ParallaxView: UIView {
    /// The moving content. Its frame belongs to this view.
    public let contentView: UIView

    /// The last placement applied, if any.
    public private(set) var placement: ParallaxPlacement?
    private var placedSize: CGSize?

    /// A view that moves `contentView` (a plain view when `nil`).
    public init(contentView: UIView? = nil) {
        self.contentView = contentView ?? UIView()
        super.init(frame: .zero)
        clipsToBounds = true
        self.contentView.translatesAutoresizingMaskIntoConstraints = true
        addSubview(self.contentView)
    }

    /// Not supported: the view is made in code. Returns `nil`.
    public required init?(coder: NSCoder) {
        return nil
    }

    /// Sizes and moves the content to `placement` (in this view's
    /// coordinates). Does nothing when the placement has not changed, so a
    /// controller may call it every frame.
    open func apply(_ placement: ParallaxPlacement) {
        guard placement != self.placement || placedSize != bounds.size else { return }
        self.placement = placement
        placedSize = bounds.size
        placeContent(in: placement.contentFrame)
    }

    /// Lays the content out: filling the bounds before the first placement,
    /// at the placement otherwise, and after a resize at the last placement
    /// carried to the new size until the controller places it exactly.
    open override func layoutSubviews() {
        super.layoutSubviews()
        guard let placement, let placedSize else {
            placeContent(in: bounds)
            return
        }
        guard placedSize != bounds.size else {
            placeContent(in: placement.contentFrame)
            return
        }
        // Resized (a rotation, a layout switch, often inside an animation). Inside an animation block the
        // controller places this view exactly now, so UIKit animates the content with the cell; otherwise
        // the content keeps its overscan and offset around the new bounds until the next frame's pass.
        let controller = enclosingParallaxController
        if UIView.inheritedAnimationDuration > 0, let controller, let exact = controller.placement(for: self) {
            apply(exact)
            return
        }
        placeContent(in: placement.carried(from: placedSize, to: bounds.size).contentFrame)
        controller?.setNeedsUpdate()
    }

    /// Applies `placement` as a controller's pass does: inside this view's
    /// (or its cell's) running frame animation, if any, so the content
    /// moves with it. O(depth to `scrollView`) when the placement changed,
    /// O(1) otherwise.
    func place(_ placement: ParallaxPlacement, within scrollView: UIScrollView?) {
        guard placement != self.placement || placedSize != bounds.size else { return }
        let old = contentFrame
        let animation = itemAnimation(below: scrollView)
        let transition = PlacementTransition.choose(
            inheritedAnimationDuration: UIView.inheritedAnimationDuration,
            itemAnimation: animation.map { ItemAnimation(beginTime: $0.begin, duration: $0.animation.duration,
                                                          isAdditive: $0.animation.isAdditive) },
            now: CACurrentMediaTime())
        apply(placement)
        guard case .matching(let item) = transition, let source = animation?.animation else { return }
        let values = ContentAnimation(matching: item, from: old, to: placement.contentFrame)
        let layer = contentView.layer
        // Not committed yet (begin time 0): both start when this transaction commits.
        let begin = source.beginTime == 0 ? 0 : layer.convertTime(item.beginTime, from: nil)
        if values.movesCentre {
            layer.add(copy(source, keyPath: "position", from: NSValue(cgPoint: values.fromCenter),
                           to: NSValue(cgPoint: values.toCenter), additive: values.isAdditive, begin: begin),
                      forKey: "parallax.position")
        }
        if values.changesSize {
            layer.add(copy(source, keyPath: "bounds.size", from: NSValue(cgSize: values.fromSize),
                           to: NSValue(cgSize: values.toSize), additive: values.isAdditive, begin: begin),
                      forKey: "parallax.size")
        }
    }

    /// The content's frame in this view's coordinates (its model values).
    private var contentFrame: CGRect {
        let size = contentView.bounds.size
        let centre = contentView.center
        return CGRect(x: centre.x - size.width / 2, y: centre.y - size.height / 2, width: size.width, height: size.height)
    }

    /// The first running position or size animation on this view's layer or
    /// an ancestor's below `scrollView` (the cell's, as UIKit adds it), with
    /// its begin time in media time.
    private func itemAnimation(below scrollView: UIScrollView?) -> (animation: CABasicAnimation, begin: Double)? {
        var view: UIView? = self
        while let current = view, current !== scrollView {
            let layer = current.layer
            for key in layer.animationKeys() ?? [] where key.hasPrefix("position") || key.hasPrefix("bounds") {
                if let animation = layer.animation(forKey: key) as? CABasicAnimation {
                    let begin = animation.beginTime == 0 ? CACurrentMediaTime() : layer.convertTime(animation.beginTime, to: nil)
                    return (animation, begin)
                }
            }
            view = current.superview
        }
        return nil
    }

    private func copy(_ source: CABasicAnimation, keyPath: String, from: NSValue, to: NSValue, additive: Bool,
                      begin: CFTimeInterval) -> CABasicAnimation {
        // A copy keeps the class (a spring stays a spring), timing and duration; not the delegate, whose
        // completion must run once.
        let animation = (source.copy() as? CABasicAnimation) ?? CABasicAnimation()
        animation.keyPath = keyPath
        animation.fromValue = from
        animation.toValue = to
        animation.byValue = nil
        animation.isAdditive = additive
        animation.beginTime = begin
        animation.delegate = nil
        animation.isRemovedOnCompletion = true
        return animation
    }

    /// The last placement, if it was made for the view's current size (a
    /// reused cell's old placement is not, when its size changed).
    var placementForCurrentSize: ParallaxPlacement? {
        placedSize == bounds.size ? placement : nil
    }

    /// The controller of the nearest enclosing scroll view that has one.
    var enclosingParallaxController: ParallaxController? {
        var view = superview
        while let current = view {
            if let controller = (current as? UIScrollView)?.parallaxController { return controller }
            view = current.superview
        }
        return nil
    }

    private func placeContent(in frame: CGRect) {
        let size = frame.size
        if contentView.bounds.size != size { contentView.bounds.size = size }
        let centre = CGPoint(x: frame.midX, y: frame.midY)
        if contentView.center != centre { contentView.center = centre }
    }
}
#endif
