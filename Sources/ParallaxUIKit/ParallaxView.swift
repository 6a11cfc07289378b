#if canImport(UIKit)
import ParallaxCore
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
        // Resized (a rotation, a layout switch, often inside an animation): keep the same overscan and
        // offset around the new bounds, so the content moves with the view, until the controller's
        // exact placement arrives before this frame is committed.
        placeContent(in: placement.carried(from: placedSize, to: bounds.size).contentFrame)
        enclosingParallaxController?.setNeedsUpdate()
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
