#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore
import ParallaxLayout

/// What a scroll view's pinch to change the number of columns decides,
/// without a toolkit: when a pinch may begin, which frames and offset every
/// gesture event and every settling frame show, and the column count the
/// scroll view rests at afterwards.
///
/// ParallaxUIKit's `DensityPinchGesture` drives it from a
/// `UIPinchGestureRecognizer` and a display link; the Linux gallery from
/// Ctrl + wheel, touchpad pinches and keys; tests drive it with plain
/// values. The geometry is `DensityPinch`'s: the photo under the fingers
/// stays under them (a quilt's, at their height), and a grid rests with that
/// photo in the column under them until the container or the items change,
/// when the builder's own grid takes over (place keeping moves the scroll,
/// not the photos' columns).
///
/// Complexity: O(1) per event and per settling frame, plus a layout build
/// the first time a column count is reached during a pinch; reading the
/// frames is O(items visible in either layout).
public struct ColumnPinch {
    /// Makes the layout of a column count for a container size and the
    /// item count of each section.
    public typealias Builder = (_ columns: Int, _ containerSize: CGSize, _ itemCounts: [Int]) throws(LayoutError)
        -> any ItemLayout

    /// What is going on.
    public enum Phase {
        /// Nothing: the scroll view shows ``ColumnPinch/columns`` at rest.
        case idle
        /// The fingers are down.
        case pinching(DensityPinch<AnyItemLayout>)
        /// The fingers lifted; the spring runs from `start` (seconds, on the
        /// clock ``ColumnPinch/advance(to:)`` is given).
        case settling(DensityPinch<AnyItemLayout>, PinchSettling, start: TimeInterval)
    }

    /// The column counts a pinch may reach.
    public let range: ClosedRange<Int>
    /// The column count at rest: where the last pinch settled.
    public private(set) var columns: Int
    /// What is going on now.
    public private(set) var phase: Phase = .idle
    /// Why the last pinch could not begin or go on, if it could not.
    public private(set) var error: LayoutError?

    private let builder: Builder
    private var settleTime: TimeInterval = 0
    /// What the pinch under way was begun for.
    private var pinched: (containerSize: CGSize, itemCounts: [Int])?
    /// The layout the last pinch came to rest on, as the pinch showed it
    /// (aligned so the photo under the fingers stayed there), and what it
    /// was built for: the resting layout while those still hold.
    private var rested: (layout: AnyItemLayout, columns: Int, containerSize: CGSize, itemCounts: [Int])?

    /// A pinch over layouts `builder` makes, resting at `columns` within
    /// `range` (`columns` is clamped into it; a range below one column
    /// starts at one).
    public init(columns: Int, range: ClosedRange<Int>, builder: @escaping Builder) {
        let lower = max(range.lowerBound, 1)
        self.range = lower...max(range.upperBound, lower)
        self.columns = min(max(columns, self.range.lowerBound), self.range.upperBound)
        self.builder = builder
    }

    /// Whether a pinch is being followed or settling.
    public var isActive: Bool {
        if case .idle = phase { return false }
        return true
    }

    /// The layout of the resting column count: the one the last pinch came
    /// to rest on, which keeps the photo under the fingers in the column it
    /// was pinched into (a grid's section may start further into its first
    /// row, see `GridLayout.aligning(_:across:)`), as long as the container
    /// size and the item counts are the ones it was pinched with; otherwise
    /// the builder's layout of ``columns``.
    public func restingLayout(containerSize: CGSize, itemCounts: [Int]) throws(LayoutError) -> any ItemLayout {
        if let rested, rested.columns == columns, rested.containerSize == containerSize, rested.itemCounts == itemCounts {
            return rested.layout.base
        }
        return try builder(columns, containerSize, itemCounts)
    }

    // MARK: The gesture

    /// The fingers came down at `focus` (viewport coordinates) while the
    /// scroll view showed `viewport` of the resting layout for
    /// `containerSize` and `itemCounts`. Returns `false` (and sets ``error``)
    /// when a layout cannot be built; nothing changes then.
    ///
    /// While the last pinch settles, first ``finishSettling()`` and show its
    /// resting layout at the offset it returns: the scroll view's own
    /// viewport is not the settle's.
    @discardableResult
    public mutating func begin(viewport: ScrollViewport, focus: CGPoint, containerSize: CGSize,
                               itemCounts: [Int]) -> Bool {
        if isActive { _ = finishSettling() }
        let builder = self.builder
        let start = try? restingLayout(containerSize: containerSize, itemCounts: itemCounts)
        let columns = self.columns
        do throws(LayoutError) {
            let pinch = try DensityPinch(columns: columns, in: range, viewport: viewport, focus: focus) {
                n throws(LayoutError) in
                if n == columns, let start { return AnyItemLayout(start) }
                return AnyItemLayout(try builder(n, containerSize, itemCounts))
            }
            pinched = (containerSize, itemCounts)
            phase = .pinching(pinch)
            error = nil
            return true
        } catch {
            self.error = error
            phase = .idle
            return false
        }
    }

    /// The gesture moved: its scale since it began and the point between the
    /// fingers (viewport coordinates). Bad values are ignored.
    public mutating func change(scale: CGFloat, focus: CGPoint?) {
        guard case .pinching(var pinch) = phase else { return }
        do throws(LayoutError) {
            try pinch.update(scale: scale, focus: focus)
            phase = .pinching(pinch)
        } catch {
            self.error = error
        }
    }

    /// The fingers lifted at `time` (seconds, the clock of ``advance(to:)``),
    /// with the gesture's scale changing by `scaleVelocity` per second, or
    /// the gesture was cancelled.
    public mutating func end(scaleVelocity: CGFloat, cancelled: Bool = false, at time: TimeInterval) {
        guard case .pinching(let pinch) = phase else { return }
        // Scale per second to columns per second: a spreading pinch (scale
        // growing) heads for fewer columns. At n columns a photo is 1/n of
        // the width, so a relative change of scale is about n times that
        // change of count.
        let velocity = scaleVelocity.isFinite ? -scaleVelocity * pinch.position : 0
        let settling = pinch.end(velocity: velocity, cancel: cancelled)
        settleTime = 0
        phase = .settling(pinch, settling, start: time.isFinite ? time : 0)
    }

    /// Moves the settle to `time`; once it has come to rest the pinch is
    /// over and ``columns`` is the count it settled on. Returns whether the
    /// settle is still running.
    @discardableResult
    public mutating func advance(to time: TimeInterval) -> Bool {
        guard case .settling(var pinch, let settling, let start) = phase else { return false }
        settleTime = time.isFinite ? time - start : .infinity
        if settling.isFinished(at: settleTime) {
            rest(pinch, on: settling.columns)
            return false
        }
        do throws(LayoutError) {
            try pinch.move(settling: settling, at: settleTime)
        } catch {
            self.error = error
        }
        phase = .settling(pinch, settling, start: start)
        return true
    }

    /// Ends a settle (or a pinch) at once, as if it had come to rest:
    /// ``columns`` is the count it was heading for. Returns the offset of
    /// that resting layout that the settle would have ended at, to show it
    /// there; `nil` when nothing was active.
    public mutating func finishSettling() -> CGPoint? {
        let settling: PinchSettling, pinch: DensityPinch<AnyItemLayout>
        switch phase {
        case .idle: return nil
        case .pinching(let live):
            pinch = live
            settling = live.end()
        case .settling(let live, let running, _):
            pinch = live
            settling = running
        }
        rest(pinch, on: settling.columns)
        return pinch.restingOffset(for: settling)
    }

    /// The pinch is over, resting on `count` columns as `pinch` laid them out.
    private mutating func rest(_ pinch: DensityPinch<AnyItemLayout>, on count: Int) {
        columns = count
        phase = .idle
        if let pinched, let layout = pinch.builtLayout(columns: count) {
            rested = (layout, count, pinched.containerSize, pinched.itemCounts)
        } else {
            rested = nil
        }
        pinched = nil
    }

    /// Abandons the pinch where it is (the items changed under it): the
    /// scroll view shows its resting layout of ``columns`` again. Nothing to
    /// do when no pinch is active.
    public mutating func abandon() {
        phase = .idle
        pinched = nil
    }

    // MARK: What to show

    /// The pinch being followed or settling (its anchor, its two layouts);
    /// `nil` when none is active.
    public var active: DensityPinch<AnyItemLayout>? {
        switch phase {
        case .idle: return nil
        case .pinching(let pinch), .settling(let pinch, _, _): return pinch
        }
    }

    /// The content offset to show now; `nil` when no pinch is active.
    public var contentOffset: CGPoint? {
        switch phase {
        case .idle: return nil
        case .pinching(let pinch): return pinch.contentOffset()
        case .settling(let pinch, let settling, _): return pinch.contentOffset(settling: settling, at: settleTime)
        }
    }

    /// The content size to show now; `nil` when no pinch is active.
    public var contentSize: CGSize? {
        switch phase {
        case .idle: return nil
        case .pinching(let pinch): return pinch.contentSize()
        case .settling(let pinch, _, _): return pinch.contentSize()
        }
    }

    /// Calls `body` for every item visible now, with its frame, while a
    /// pinch is active (nothing otherwise).
    public func forEachItem(_ body: (ItemIndex, CGRect) throws -> Void) rethrows {
        switch phase {
        case .idle: return
        case .pinching(let pinch): try pinch.forEachItem(body)
        case .settling(let pinch, let settling, _):
            try pinch.forEachItem(at: nil, shownAt: pinch.contentOffset(settling: settling, at: settleTime), body)
        }
    }

    /// The frame of `section`'s header now, while a pinch is active (`nil`
    /// otherwise, or for a section without a header).
    public func headerFrame(ofSection section: Int) -> CGRect? {
        switch phase {
        case .idle: return nil
        case .pinching(let pinch), .settling(let pinch, _, _): return pinch.headerFrame(ofSection: section)
        }
    }

    /// The number of sections while a pinch is active; 0 otherwise.
    public var numberOfSections: Int { active?.numberOfSections ?? 0 }

    /// The frame of `index` now, while a pinch is active.
    public func frame(of index: ItemIndex) -> CGRect? {
        switch phase {
        case .idle: return nil
        case .pinching(let pinch): return pinch.frame(of: index)
        case .settling(let pinch, _, _): return pinch.frame(of: index)
        }
    }
}
