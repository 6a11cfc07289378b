#if canImport(UIKit)
import ParallaxHosting
import UIKit

/// A hidden, empty subview a ``ParallaxController`` puts at the back of its
/// scroll view, to hear about the scroll view without overriding it,
/// observing it or becoming its delegate: it is sized with the scroll
/// view (autoresizing), so UIKit lays it out when the scroll view's size
/// changes (a rotation, a split-view resize); it moves with it into and out
/// of windows; and it inherits its traits. Each of those wakes the
/// controller's frame loop. It takes no touches, is not an accessibility
/// element and draws nothing.
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
        autoresizingMask = [.flexibleWidth, .flexibleHeight]
    }

    /// Not supported: made in code. Returns `nil`.
    required init?(coder: NSCoder) {
        return nil
    }

    override func layoutSubviews() {
        super.layoutSubviews()
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
