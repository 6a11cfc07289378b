import Foundation
import ParallaxCore
import ParallaxHosting

/// A cell of ``FakeScrollView``: a frame in content coordinates, whether
/// it opted in, and the placements it was given.
@MainActor
final class FakeCell {
    var frame: CGRect
    var optsIn: Bool
    private(set) var placements: [ParallaxPlacement] = []
    var placement: ParallaxPlacement? { placements.last }

    init(frame: CGRect, optsIn: Bool = true) {
        self.frame = frame
        self.optsIn = optsIn
    }

    func receive(_ placement: ParallaxPlacement) { placements.append(placement) }
}

/// A scroll view as UIKit would present it to ``ParallaxDriver``: bounds,
/// safe area, reading direction, Reduce Motion and visible cells, all
/// settable, so tests can appear cells, scroll, rotate and reload.
@MainActor
final class FakeScrollView: ParallaxScrollHost {
    var bounds: CGRect
    var safeArea: EdgeInsets = .zero
    var direction: LayoutDirection = .leftToRight
    var reduceMotion = false
    var cells: [FakeCell] = []
    /// Runs after each `apply`, as a content-offset observer would.
    var onApply: ((FakeCell) -> Void)?
    /// For the frame hook: whether it can be seen, its content size, its motion.
    var visibility = FrameVisibility(isInWindow: true, visibleRect: CGRect(x: 0, y: 0, width: 390, height: 844))
    var contentSize = CGSize(width: 390, height: 10_000)
    var motion = FrameMotion.resting
    /// Calls of `prepareFrame()` (the layout a frame finishes first).
    var prepared = 0

    init(size: CGSize, contentOffset: CGPoint = .zero) {
        bounds = CGRect(origin: contentOffset, size: size)
    }

    var visibleBounds: CGRect { bounds }
    var obscuredInsets: EdgeInsets { safeArea }
    var effectiveLayoutDirection: LayoutDirection { direction }
    var isReduceMotionEnabled: Bool { reduceMotion }

    func forEachParallaxTarget(_ body: (FakeCell, CGRect) -> Void) {
        for cell in cells where cell.optsIn && cell.frame.intersects(bounds) {
            body(cell, cell.frame)
        }
    }

    func apply(_ placement: ParallaxPlacement, to target: FakeCell) {
        target.receive(placement)
        onApply?(target)
    }

    /// A column of full-width cells `height` tall with `spacing` between them.
    func fillColumn(count: Int, height: CGFloat, spacing: CGFloat = 0) {
        cells = (0..<count).map { i in
            FakeCell(frame: CGRect(x: 0, y: CGFloat(i) * (height + spacing), width: bounds.width, height: height))
        }
    }

    func scroll(to y: CGFloat) { bounds.origin.y = y }
}
