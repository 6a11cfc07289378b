import Foundation

/// Why one attempt at a request failed, in words a person understands.
enum HTTPAttemptFailure: Error, Sendable, CustomStringConvertible {
    case cancelled
    /// The whole answer did not arrive within the deadline.
    case deadline(TimeInterval)
    /// What the transport reported.
    case transport(HTTPTransportError)
    /// The server kept redirecting.
    case redirectLoop(Int)
    /// A redirect the source's ``HTTPRedirectPolicy`` does not follow, described.
    case redirectRefused(String)

    /// Whether another attempt may succeed: deadlines, cut-short answers
    /// and connection failures may pass; a size limit, a loop or a refused
    /// redirect will not.
    var isRetryable: Bool {
        switch self {
        case .deadline, .transport(.cutShort), .transport(.failed): return true
        case .cancelled, .transport(.cancelled), .transport(.tooLarge), .redirectLoop, .redirectRefused: return false
        }
    }

    var description: String {
        switch self {
        case .cancelled: return "cancelled"
        case .deadline(let seconds): return "no complete answer within \(HTTPImageSource.seconds(seconds))"
        case .transport(let error): return error.description
        case .redirectLoop(let count): return "the server redirects in a loop (more than \(count) redirects)"
        case .redirectRefused(let reason): return reason
        }
    }
}

/// Runs `operation` against a deadline of `seconds` on the clock `sleep`
/// sleeps on: whichever ends first answers. At the deadline (or when the
/// caller is cancelled) the operation's task is cancelled and *not*
/// awaited, so a transport slow to notice cannot stretch the deadline.
func racingDeadline<Value: Sendable>(
    _ seconds: TimeInterval, sleep: @escaping @Sendable (Duration) async throws -> Void,
    _ operation: @escaping @Sendable () async throws(HTTPAttemptFailure) -> Value
) async throws(HTTPAttemptFailure) -> Value {
    let outcome = FirstOutcome<Result<Value, HTTPAttemptFailure>>()
    let work = Task {
        do throws(HTTPAttemptFailure) {
            outcome.settle(.success(try await operation()))
        } catch {
            outcome.settle(.failure(error))
        }
    }
    let timer = Task {
        do { try await sleep(.seconds(seconds)) } catch { return }
        if outcome.settle(.failure(.deadline(seconds))) { work.cancel() }
    }
    defer { timer.cancel() }
    let result = await withTaskCancellationHandler {
        await outcome.value()
    } onCancel: {
        outcome.settle(.failure(.cancelled))
        work.cancel()
    }
    // A switch rather than `result.get()`: the typed-throws `get()` is newer than the iOS 16 SDK.
    switch result {
    case .success(let value): return value
    case .failure(let failure): throw failure
    }
}

/// The first of several outcomes offered, handed to one waiter.
/// `@unchecked Sendable`: all state is behind `lock`.
final class FirstOutcome<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var settled: Value?
    private var waiter: CheckedContinuation<Value, Never>?

    /// Offers `value`; returns whether it was the first.
    @discardableResult
    func settle(_ value: Value) -> Bool {
        lock.lock()
        guard settled == nil else {
            lock.unlock()
            return false
        }
        settled = value
        let waiting = waiter
        waiter = nil
        lock.unlock()
        waiting?.resume(returning: value)
        return true
    }

    /// The first value offered, once there is one.
    func value() async -> Value {
        await withCheckedContinuation { continuation in
            lock.lock()
            if let settled {
                lock.unlock()
                continuation.resume(returning: settled)
            } else {
                waiter = continuation
                lock.unlock()
            }
        }
    }
}
