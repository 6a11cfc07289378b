#if canImport(CoreGraphics)
import CoreGraphics
#endif
import Foundation
import ParallaxCore

/// When a pinch's overlay hands the screen back to the scroll view under
/// it, and where that scroll view must be moved first.
///
/// A declarative grid (SwiftUI's `DensityPinchGrid`) draws a pinch in an
/// overlay while its scroll view waits underneath, frozen. When the pinch
/// comes to rest, the scroll view must show the resting layout at the
/// offset the pinch ended at; but a scroll request (`ScrollPosition`, or
/// `ScrollViewReader.scrollTo`) takes effect in a later update, so
/// removing the overlay at once shows the old offset for a frame or more:
/// a flicker, or a grid a bar's height off. Here the overlay stays until
/// the scroll view *reports* the resting offset (within ``tolerance``). A
/// request that lands elsewhere (an API that aligns to the safe area, say)
/// is repeated once corrected by the distance it missed by; after
/// ``maximumRequests`` requests, or if no report matches within
/// ``framesPerRequest`` frames of each, the scroll view is shown where it
/// is, never left hidden.
///
/// The resting offset is clamped to what the scroll view can rest at with
/// its insets (ParallaxCore's `ScrollViewport.offsetRange(contentExtent:along:)`), so a
/// request never asks for more than the scroll view would give, which would
/// never match.
///
/// Frames are counted, not timed: the caller reports each display frame of
/// the hand-off (a `TimelineView`'s tick), so tests drive it with plain
/// calls.
///
/// Complexity: O(1) per call, no allocation.
public struct PinchHandOff: Sendable, Equatable {
    /// What is going on.
    public enum Phase: Sendable, Equatable {
        /// The scroll view shows itself and scrolls.
        case idle
        /// The fingers are down: the overlay shows the pinch, the scroll
        /// view is hidden and must not scroll.
        case pinching
        /// The fingers lifted and the pinch settles in the overlay.
        case settling
        /// The pinch has come to rest; the scroll view is being moved to
        /// `request`'s target, under the overlay.
        case handingOff(ScrollRequest)
    }

    /// A request to move the scroll view.
    public struct ScrollRequest: Sendable, Equatable {
        /// The content offset the scroll view must end at.
        public var target: CGPoint
        /// The content offset to ask the scrolling API for: the target,
        /// corrected by what earlier requests missed by.
        public var requested: CGPoint
        /// 1 for the first request of a hand-off, then 2, …: a new value
        /// to react to even when `requested` repeats.
        public var serial: Int
        /// Frames passed since this request was made.
        public var framesWaited: Int

        /// A request as given.
        public init(target: CGPoint, requested: CGPoint, serial: Int, framesWaited: Int = 0) {
            self.target = target
            self.requested = requested
            self.serial = serial
            self.framesWaited = framesWaited
        }
    }

    /// What the caller must do after an event.
    public enum Decision: Sendable, Equatable {
        /// Nothing: keep the overlay.
        case wait
        /// Ask the scroll view for `ScrollRequest.requested`; keep the overlay.
        case scroll(ScrollRequest)
        /// Remove the overlay: the scroll view shows the rest (or the
        /// hand-off gave up waiting).
        case reveal
    }

    /// The phase now.
    public private(set) var phase: Phase = .idle
    /// How far (points, either axis) a reported offset may be from the
    /// target and still match it.
    public var tolerance: CGFloat
    /// How many requests a hand-off makes before it shows the scroll view
    /// wherever it is.
    public var maximumRequests: Int
    /// How many frames a request waits for a matching report.
    public var framesPerRequest: Int
    /// The last offset the scroll view reported during the hand-off.
    private var lastReported: CGPoint?

    /// A hand-off matching within `tolerance` points, making up to
    /// `maximumRequests` requests of `framesPerRequest` frames each.
    public init(tolerance: CGFloat = 0.5, maximumRequests: Int = 3, framesPerRequest: Int = 4) {
        self.tolerance = tolerance
        self.maximumRequests = max(maximumRequests, 1)
        self.framesPerRequest = max(framesPerRequest, 1)
    }

    /// Whether the overlay must be shown (and the scroll view hidden).
    public var showsOverlay: Bool { phase != .idle }

    /// Whether the scroll view may scroll: only once it shows itself. While
    /// the overlay shows, a finger must not move it (it is where the pinch
    /// measured from, or where it is being sent).
    public var allowsScrolling: Bool { phase == .idle }

    /// The request under way, if the phase is a hand-off.
    public var request: ScrollRequest? {
        if case .handingOff(let request) = phase { return request }
        return nil
    }

    /// The content offset a pinch beginning now starts from: the target of
    /// a hand-off under way (the scroll view may not have got there yet),
    /// otherwise what the scroll view `reported`.
    public func startingOffset(reported: CGPoint) -> CGPoint {
        request?.target ?? reported
    }

    /// The fingers came down. A hand-off under way is abandoned: the pinch
    /// starts from its target (``startingOffset(reported:)``).
    public mutating func beginPinch() {
        phase = .pinching
        lastReported = nil
    }

    /// The fingers lifted; the overlay settles.
    public mutating func endPinch() {
        if phase == .pinching { phase = .settling }
    }

    /// The pinch came to rest at `offset` of the resting layout, whose
    /// content is `contentSize`, seen through `viewport` (its size and
    /// insets; its offset is ignored) while the scroll view `reported` it
    /// was at. Returns ``Decision/reveal`` when the scroll view is already
    /// there, otherwise the first request.
    public mutating func rest(at offset: CGPoint, contentSize: CGSize, viewport: ScrollViewport,
                              reported: CGPoint) -> Decision {
        let target = CGPoint(x: viewport.offsetRange(contentExtent: contentSize.width, along: .horizontal).clamp(offset.x),
                             y: viewport.offsetRange(contentExtent: contentSize.height, along: .vertical).clamp(offset.y))
        lastReported = nil
        if matches(reported, target) {
            phase = .idle
            return .reveal
        }
        let request = ScrollRequest(target: target, requested: target, serial: 1)
        phase = .handingOff(request)
        return .scroll(request)
    }

    /// The scroll view reported it is at `offset`. During a hand-off,
    /// ``Decision/reveal`` once it matches the target.
    public mutating func observe(reported offset: CGPoint) -> Decision {
        guard let request else { return .wait }
        if matches(offset, request.target) {
            phase = .idle
            lastReported = nil
            return .reveal
        }
        lastReported = offset
        return .wait
    }

    /// A display frame passed during the hand-off. After
    /// ``framesPerRequest`` frames without a match, the request is made
    /// again, corrected by how far the last report missed; after the last
    /// request, the scroll view is shown where it is.
    public mutating func frameElapsed() -> Decision {
        guard var request else { return .wait }
        request.framesWaited += 1
        guard request.framesWaited >= framesPerRequest else {
            phase = .handingOff(request)
            return .wait
        }
        guard request.serial < maximumRequests else {
            phase = .idle
            lastReported = nil
            return .reveal
        }
        if let missed = lastReported {
            request.requested.x += request.target.x - missed.x
            request.requested.y += request.target.y - missed.y
        }
        request.serial += 1
        request.framesWaited = 0
        phase = .handingOff(request)
        return .scroll(request)
    }

    /// Ends whatever is going on and shows the scroll view (the items
    /// changed under the pinch, or the view went away).
    public mutating func cancel() {
        phase = .idle
        lastReported = nil
    }

    private func matches(_ a: CGPoint, _ b: CGPoint) -> Bool {
        abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
    }
}
