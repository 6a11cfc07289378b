import Foundation

/// What a folder walk waits for after its first batch: the first screen
/// drawn from that batch, full.
///
/// On a machine of two cores, a first launch over 100,000 photos walks the
/// tree (and reconciles it with a library index) beside the decodes of the
/// first screen; even at a lower priority, the walk took a fifth of the
/// cores before that screen was full. The first batch holds enough photos
/// for a screen (``FolderImageSource/scan(readingFileStatus:inBackground:waitingAfterFirstBatchFor:)``),
/// so the rest can wait until it is drawn: whoever draws it says so with
/// ``screenIsFull()``, and the walk goes on.
///
/// A screen that never fills (a photo that cannot be decoded, say, or one
/// whose decode hangs) holds the walk ``longestWait`` at most; a scan whose
/// consumer stops listening stops waiting at once. One signal is for one
/// scan: once given, it stays given.
public final class FirstScreenSignal: @unchecked Sendable {
    /// The longest a walk waits for ``screenIsFull()``.
    public let longestWait: Duration
    /// Guards the two flags below, and wakes the walk waiting on them.
    private let condition = NSCondition()
    private var isFull = false
    private var isAbandoned = false

    /// A signal not given yet, which a walk waits for `longestWait` at most.
    public init(longestWait: Duration = .seconds(1)) {
        self.longestWait = longestWait
    }

    /// Says the first screen is full: a walk waiting for it goes on, and
    /// one that has not reached its first batch yet will not wait.
    public func screenIsFull() {
        condition.lock()
        isFull = true
        condition.broadcast()
        condition.unlock()
    }

    /// Whether ``screenIsFull()`` was called.
    public var isGiven: Bool {
        condition.lock()
        defer { condition.unlock() }
        return isFull
    }

    /// Wakes a walk waiting for this signal because its scan was stopped.
    func abandon() {
        condition.lock()
        isAbandoned = true
        condition.broadcast()
        condition.unlock()
    }

    /// Blocks the calling thread (a walk's own, never a thread of Swift's
    /// cooperative pool) until the signal is given, the scan is stopped or
    /// ``longestWait`` has passed. Returns whether the signal was given.
    @discardableResult
    func wait() -> Bool {
        let seconds = Double(longestWait.components.seconds) + Double(longestWait.components.attoseconds) / 1e18
        let deadline = Date(timeIntervalSinceNow: max(0, seconds))
        condition.lock()
        defer { condition.unlock() }
        while !isFull, !isAbandoned, condition.wait(until: deadline) {}
        return isFull
    }
}
