import Foundation

/// Decides whether a surface needs a parallax pass on this wake of its run
/// loop: only when what placements depend on changed, a layout is pending
/// (cells may appear), or someone asked. A UIKit run loop wakes for every
/// timer, touch and main-queue job; most of those change nothing on screen.
///
/// `State` is whatever the surface's placements depend on besides its
/// cells' layout: for a scroll view its bounds, content size, safe area,
/// reading direction and Reduce Motion setting.
///
/// Complexity: O(1) per call (one comparison of `State`).
public struct UpdateGate<State: Equatable> {
    private var last: State?
    private var isRequested = true

    public init() {}

    /// Asks for a pass at the next wake whatever the state (a setting
    /// changed, a view was resized inside a cell).
    public mutating func request() {
        isRequested = true
    }

    /// Whether to run a pass now, seeing `state`, with a layout pending or not.
    public func shouldUpdate(seeing state: State, layoutPending: Bool) -> Bool {
        isRequested || layoutPending || state != last
    }

    /// Records that a pass ran and left the surface in `state`.
    public mutating func didUpdate(leaving state: State) {
        last = state
        isRequested = false
    }
}
