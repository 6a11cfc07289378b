import Foundation

/// A value behind a lock, for the one piece of state that surfaces must
/// read synchronously from their own thread (the memory cache).
///
/// `NSLock` rather than `Synchronization.Mutex`: on Linux, `Mutex` is built
/// on raw futexes that the thread sanitizer cannot see, so every correctly
/// locked access would be reported as a race; `NSLock` is a pthread mutex,
/// which the sanitizer understands, and `make test` runs the loader under it.
final class Locked<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    init(_ state: State) { self.state = state }

    /// Runs `body` with exclusive access to the state.
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
