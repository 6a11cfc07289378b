import Foundation
@testable import ParallaxImages

/// A clock whose time moves only when a test advances it, so timing-
/// dependent behaviour (a server's latency, a loader's load-time estimate)
/// is tested exactly and without sleeping.
final class ManualClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        var id: Int
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID = 0
        var sleepers: [Sleeper] = []
        /// Tests waiting for the pending sleeps to satisfy a condition.
        var sleeperWaiters: [(condition: @Sendable ([Duration]) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []

        /// The time left on each pending sleep, soonest first.
        var remaining: [Duration] { sleepers.map { now.duration(to: $0.deadline) }.sorted() }

        /// Takes the waiters whose condition now holds.
        mutating func readyWaiters() -> [CheckedContinuation<Void, Never>] {
            let remaining = self.remaining
            let ready = sleeperWaiters.filter { $0.condition(remaining) }
            sleeperWaiters.removeAll { $0.condition(remaining) }
            return ready.map(\.continuation)
        }
    }

    private let state = Locked(State())

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let ready: [CheckedContinuation<Void, Never>] = state.withLock { state in
                    // Cancelled before it got here: the cancellation handler has already run and found
                    // nothing to remove, so the sleep ends now instead of waiting for ever.
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                        return []
                    }
                    if deadline <= state.now {
                        continuation.resume()
                        return []
                    }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return state.readyWaiters()
                }
                for waiter in ready { waiter.resume() }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// How many sleeps are waiting for the clock.
    var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Returns once at least `count` sleeps are waiting for the clock.
    func waitForSleepers(_ count: Int) async {
        await waitForSleepers { $0.count >= count }
    }

    /// Returns once a sleep with exactly `duration` left is waiting for the
    /// clock (a deadline, a retry's backoff).
    func waitForSleep(of duration: Duration) async {
        await waitForSleepers { $0.contains(duration) }
    }

    /// The time left on each pending sleep, soonest first.
    var remainingSleeps: [Duration] { state.withLock { $0.remaining } }

    /// Returns once the pending sleeps (the time left on each, soonest
    /// first) satisfy `condition`.
    func waitForSleepers(where condition: @escaping @Sendable ([Duration]) -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                if condition(state.remaining) { return true }
                state.sleeperWaiters.append((condition, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Moves time forward by `duration`, waking (earliest deadline first)
    /// every sleep that is then due.
    func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}
