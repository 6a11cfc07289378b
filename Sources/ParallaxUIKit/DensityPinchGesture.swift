#if canImport(UIKit)
import ParallaxHosting
import QuartzCore
import UIKit

/// Pinch to change the number of columns of a collection view whose layout
/// is a pinchable ``ParallaxCollectionViewLayout`` (`pinchableGrid` or
/// `pinchableQuilt`), as the Photos app does: the count follows the
/// fingers, the photo under them stays under them (in a quilt, at their
/// height, moving across to its new column), and lifting them settles on
/// the nearer count with a short spring. One line in `viewDidLoad`:
///
/// ```swift
/// DensityPinchGesture.attach(to: collectionView)
/// ```
///
/// The gesture recognizer is added to the collection view and kept alive by
/// it; a display link plays the settle and stops when it ends.
@MainActor
public final class DensityPinchGesture: NSObject {
    /// The recognizer added to the collection view.
    public let recognizer: UIPinchGestureRecognizer
    private weak var collectionView: UICollectionView?
    private var displayLink: CADisplayLink?

    /// Adds pinch to change density to `collectionView`. Returns `nil` (and
    /// adds nothing) unless its layout is a pinchable
    /// ``ParallaxCollectionViewLayout``. Attaching twice returns the first.
    @discardableResult
    public static func attach(to collectionView: UICollectionView) -> DensityPinchGesture? {
        if let existing = objc_getAssociatedObject(collectionView, &AssociatedKey.gesture) as? DensityPinchGesture {
            return existing
        }
        guard (collectionView.collectionViewLayout as? ParallaxCollectionViewLayout)?.columnPinch != nil else {
            return nil
        }
        let gesture = DensityPinchGesture(collectionView: collectionView)
        objc_setAssociatedObject(collectionView, &AssociatedKey.gesture, gesture, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
        return gesture
    }

    private init(collectionView: UICollectionView) {
        self.collectionView = collectionView
        recognizer = UIPinchGestureRecognizer()
        super.init()
        recognizer.addTarget(self, action: #selector(pinched(_:)))
        collectionView.addGestureRecognizer(recognizer)
    }

    private var layout: ParallaxCollectionViewLayout? {
        collectionView?.collectionViewLayout as? ParallaxCollectionViewLayout
    }

    @objc private func pinched(_ recognizer: UIPinchGestureRecognizer) {
        guard let collectionView, let layout else { return }
        let location = recognizer.location(in: collectionView)
        switch recognizer.state {
        case .began:
            stopSettling()
            layout.beginPinch(at: location)
        case .changed:
            layout.changePinch(scale: recognizer.scale, at: location)
        case .ended, .cancelled, .failed:
            layout.endPinch(velocity: recognizer.velocity, cancelled: recognizer.state != .ended,
                            at: CACurrentMediaTime())
            startSettling()
        default:
            break
        }
    }

    private func startSettling() {
        stopSettling()
        let link = CADisplayLink(target: self, selector: #selector(tick(_:)))
        link.add(to: .main, forMode: .common)
        displayLink = link
    }

    private func stopSettling() {
        displayLink?.invalidate()
        displayLink = nil
    }

    @objc private func tick(_ link: CADisplayLink) {
        guard let layout, layout.advancePinch(to: CACurrentMediaTime()) else {
            stopSettling()
            return
        }
    }
}

@MainActor
private enum AssociatedKey {
    static var gesture: UInt8 = 0
}
#endif
