/// Who waits for the loader to reach a state: callers of
/// ``ImageLoader/waitUntilIdle()``, and tests waiting for the counters to
/// satisfy a condition ("five loads waiting for a decode") instead of
/// sleeping or polling.
///
/// A value owned by the loader, which tells it of every change; the
/// waiters whose state has come are resumed then. Checking is O(waiters)
/// per change, and free when no one waits.
struct LoaderObservers {
    private var conditions: [(condition: @Sendable (ImageLoader.Statistics) -> Bool,
                              continuation: CheckedContinuation<ImageLoader.Statistics, Never>)] = []
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []

    /// Whether someone waits for the counters (then they are worth
    /// computing after each change).
    var watchStatistics: Bool { !conditions.isEmpty }

    /// Resumes `continuation` with the counters once `condition` holds.
    mutating func wait(until condition: @escaping @Sendable (ImageLoader.Statistics) -> Bool,
                       _ continuation: CheckedContinuation<ImageLoader.Statistics, Never>) {
        conditions.append((condition, continuation))
    }

    /// Resumes `continuation` once the loader is idle.
    mutating func waitUntilIdle(_ continuation: CheckedContinuation<Void, Never>) {
        idleWaiters.append(continuation)
    }

    /// Resumes the waiters whose condition `now` satisfies.
    mutating func statisticsChanged(to now: ImageLoader.Statistics) {
        conditions.removeAll { observer in
            guard observer.condition(now) else { return false }
            observer.continuation.resume(returning: now)
            return true
        }
    }

    /// Resumes everyone waiting for the loader to be idle.
    mutating func becameIdle() {
        let waiters = idleWaiters
        idleWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }
}
