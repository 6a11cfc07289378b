#if canImport(UIKit)
import ParallaxHosting
import UIKit

/// A hidden, empty, zero-size subview a ``ParallaxController`` puts at the
/// back of its scroll view, to hear about the scroll view without
/// overriding it, observing it or becoming its delegate: it moves with it
/// into and out of windows, and inherits its traits and safe area (a
/// rotation, a size-class change, a bar appearing). Each of those wakes the
/// controller's frame loop. It has no autoresizing mask and no size, so
/// the constraints UIKit makes from its frame pin only its top-left corner
/// and never take part in a scroll view's Auto Layout content size; it
/// takes no touches, is not an accessibility element and draws nothing.
///
/// Complexity: O(1) per event.
@MainActor
final class ScrollViewMarker: UIView {
    /// Called with why the scroll view may have changed.
    var onWake: ((FrameActivity.Wake) -> Void)?

    init() {
        super.init(frame: .zero)
        isHidden = true
        isUserInteractionEnabled = false
        isAccessibilityElement = false
        accessibilityElementsHidden = true
        autoresizingMask = []
    }

    /// Not supported: made in code. Returns `nil`.
    required init?(coder: NSCoder) {
        return nil
    }

    override func safeAreaInsetsDidChange() {
        super.safeAreaInsetsDidChange()
        onWake?(.layout)
    }

    override func didMoveToWindow() {
        super.didMoveToWindow()
        onWake?(.window)
    }

    override func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {
        super.traitCollectionDidChange(previousTraitCollection)
        onWake?(.traits)
    }
}
#endif
