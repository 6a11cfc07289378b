import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why one HTTP attempt failed, in words a person understands.
enum HTTPAttemptFailure: Error, Sendable, CustomStringConvertible {
    case cancelled
    /// The whole answer did not arrive within the deadline.
    case deadline(TimeInterval)
    /// The answer is, or would be, over the size limit.
    case tooLarge(declared: Int64?, limit: Int)
    /// The server kept redirecting.
    case redirectLoop(Int)
    /// The connection ended before the declared length arrived.
    case cutShort(received: Int, expected: Int64?)
    /// Any other transport failure, described.
    case transport(String)

    var description: String {
        switch self {
        case .cancelled:
            return "cancelled"
        case .deadline(let seconds):
            return "no complete answer within \(HTTPImageSource.seconds(seconds))"
        case .tooLarge(let declared?, let limit):
            return "the answer would be \(Self.bytes(declared)), over the \(Self.bytes(Int64(limit))) limit (maximumBodySize)"
        case .tooLarge(nil, let limit):
            return "the answer went past the \(Self.bytes(Int64(limit))) limit (maximumBodySize) without ending"
        case .redirectLoop(let count):
            return "the server redirects in a loop (more than \(count) redirects)"
        case .cutShort(let received, let expected?):
            return "the answer was cut short: the connection closed after \(received) of \(expected) bytes"
        case .cutShort(let received, nil):
            return "the answer was cut short: the connection closed after \(received) bytes"
        case .transport(let text):
            return text
        }
    }

    /// "64 MiB", "10 GiB", "512 bytes".
    static func bytes(_ count: Int64) -> String {
        let units: [(Int64, String)] = [(1 << 40, "TiB"), (1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")]
        for (size, unit) in units where count >= size {
            let value = Double(count) / Double(size)
            return value == value.rounded() ? "\(Int64(value)) \(unit)" : String(format: "%.1f %@", value, unit)
        }
        return count == 1 ? "1 byte" : "\(count) bytes"
    }

    /// A transport error as a sentence.
    static func describe(_ error: any Error) -> String {
        guard let urlError = error as? URLError else { return String(describing: error) }
        switch urlError.code {
        case .timedOut: return "timed out"
        case .cannotConnectToHost: return "could not connect"
        case .cannotFindHost, .dnsLookupFailed: return "host not found"
        case .networkConnectionLost: return "the server closed the connection before answering"
        case .notConnectedToInternet: return "not connected to the internet"
        case .badServerResponse: return "the server's answer was not valid HTTP"
        case .secureConnectionFailed: return "TLS connection failed"
        case .httpTooManyRedirects: return HTTPAttemptFailure.redirectLoop(HTTPImageSource.maximumRedirects).description
        case .badURL, .unsupportedURL: return "the URL cannot be loaded"
        default: return "the transfer failed (URL error \(urlError.code.rawValue))"
        }
    }
}

/// The session delegate behind `HTTPImageSource`: it runs each attempt as a
/// data task whose answer it watches arrive, so it can
/// - refuse a `Content-Length` over the limit from the header, and cut a
///   body that grows past it (memory stays bounded by the limit);
/// - tell an answer cut short from a complete one;
/// - stop a redirect loop after ``HTTPImageSource/maximumRedirects``;
/// - end the attempt at its deadline whatever Foundation does: the caller
///   is answered at once and the task cancelled, without waiting for the
///   task to wind down (swift-corelibs-foundation does not always answer a
///   cancelled request promptly).
///
/// `@unchecked Sendable`: the table of transfers is only touched under
/// `lock`, and each `Transfer` guards its own state the same way.
final class Transfers: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var active: [Int: Transfer] = [:]

    /// One attempt: what has arrived, and who waits for the outcome.
    private final class Transfer: @unchecked Sendable {
        let limit: Int
        /// A HEAD request: the answer's `Content-Length` describes a body that never comes.
        let expectsNoBody: Bool
        private let lock = NSLock()
        private var body = Data()
        private var expected: Int64?
        private var response: HTTPURLResponse?
        private var redirects = 0
        private var finished = false
        private var continuation: CheckedContinuation<HTTPImageSource.Reply, any Error>?
        private var early: Result<HTTPImageSource.Reply, HTTPAttemptFailure>?

        init(limit: Int, expectsNoBody: Bool) {
            self.limit = limit
            self.expectsNoBody = expectsNoBody
        }

        func wait(_ continuation: CheckedContinuation<HTTPImageSource.Reply, any Error>) {
            lock.lock()
            if let early {
                lock.unlock()
                continuation.resume(with: early.mapError { $0 as any Error })
                return
            }
            self.continuation = continuation
            lock.unlock()
        }

        /// Whether the attempt has ended.
        var hasFinished: Bool {
            lock.lock()
            defer { lock.unlock() }
            return finished
        }

        /// Ends the attempt with `outcome` unless it already ended. Returns whether this call ended it.
        @discardableResult
        func finish(_ outcome: Result<HTTPImageSource.Reply, HTTPAttemptFailure>) -> Bool {
            lock.lock()
            guard !finished else {
                lock.unlock()
                return false
            }
            finished = true
            body = Data()                                        // let go of the bytes at once
            let waiting = continuation
            continuation = nil
            if waiting == nil { early = outcome }
            lock.unlock()
            waiting?.resume(with: outcome.mapError { $0 as any Error })
            return true
        }

        /// Takes the response's head; a failure if its declared length is over the limit.
        func receive(_ response: URLResponse) -> HTTPAttemptFailure? {
            lock.lock()
            defer { lock.unlock() }
            self.response = response as? HTTPURLResponse
            guard !expectsNoBody else { return nil }
            let length = response.expectedContentLength
            expected = length >= 0 ? length : nil
            if let length = expected, length > Int64(limit) { return .tooLarge(declared: length, limit: limit) }
            if let length = expected { body.reserveCapacity(Int(length)) }
            return nil
        }

        /// Adds bytes; a failure once the body passes the limit.
        func receive(_ data: Data) -> HTTPAttemptFailure? {
            lock.lock()
            defer { lock.unlock() }
            guard !finished else { return nil }
            guard body.count + data.count <= limit else { return .tooLarge(declared: nil, limit: limit) }
            body.append(data)
            return nil
        }

        /// Counts a redirect; false once there are too many.
        func redirect() -> Bool {
            lock.lock()
            defer { lock.unlock() }
            redirects += 1
            body = Data()
            expected = nil
            return redirects <= HTTPImageSource.maximumRedirects
        }

        /// The outcome of a task that completed, with `error` or without.
        func completion(_ error: (any Error)?) -> Result<HTTPImageSource.Reply, HTTPAttemptFailure> {
            lock.lock()
            defer { lock.unlock() }
            let short = expected.map { Int64(body.count) < $0 } ?? false
            if let error {
                if let urlError = error as? URLError, urlError.code == .httpTooManyRedirects {
                    return .failure(.redirectLoop(HTTPImageSource.maximumRedirects))
                }
                if response != nil, short || (error as? URLError)?.code == .networkConnectionLost {
                    return .failure(.cutShort(received: body.count, expected: expected))
                }
                return .failure(.transport(HTTPAttemptFailure.describe(error)))
            }
            if short { return .failure(.cutShort(received: body.count, expected: expected)) }
            let retryAfter = response?.value(forHTTPHeaderField: "Retry-After").flatMap { HTTPImageSource.retryAfterSeconds($0) }
            return .success(HTTPImageSource.Reply(body: body, status: response?.statusCode, retryAfter: retryAfter,
                                                  validator: response.flatMap(HTTPImageSource.validator(of:))))
        }
    }

    /// Runs one attempt of `request` on `session` (whose delegate this is):
    /// the answer's body, or why not, within `timeout` seconds of the clock
    /// `sleep` sleeps on.
    func run(_ request: URLRequest, on session: URLSession, timeout: TimeInterval,
             sleep: @escaping @Sendable (Duration) async throws -> Void,
             maximumBodySize: Int) async throws(HTTPAttemptFailure) -> HTTPImageSource.Reply {
        let task = session.dataTask(with: request)
        let transfer = Transfer(limit: maximumBodySize, expectsNoBody: request.httpMethod == "HEAD")
        register(transfer, for: task.taskIdentifier)
        defer { register(nil, for: task.taskIdentifier) }
        // The deadline: whichever of it and the transfer ends first wins
        // `finish`; the other is a no-op. Cancelled once the attempt is over.
        let deadline = Task {
            do { try await sleep(.seconds(timeout)) } catch { return }
            if transfer.finish(.failure(.deadline(timeout))) { Self.cancel(task) }
        }
        defer { deadline.cancel() }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    transfer.wait(continuation)
                    Self.start(task, for: transfer)
                }
            } onCancel: {
                if transfer.finish(.failure(.cancelled)) { Self.cancel(task) }
            }
        } catch let failure as HTTPAttemptFailure {
            throw failure
        } catch {
            throw .transport(HTTPAttemptFailure.describe(error))
        }
    }

    /// Starts `task` from a thread of its own, unless its attempt already
    /// ended (cancelled, or past a deadline, before it started): like
    /// `cancel()`, swift-corelibs-foundation's `resume()` waits for the
    /// session's work queue, and several sources doing that at once on
    /// Swift's cooperative pool (two threads on two cores) stalled every
    /// task in the process for seconds, deadlines included.
    private static func start(_ task: URLSessionTask, for transfer: Transfer) {
        DispatchQueue.global(qos: .userInitiated).async {
            if !transfer.hasFinished { task.resume() }
        }
    }

    /// Cancels `task` from a thread of its own. swift-corelibs-foundation's
    /// `cancel()` waits synchronously for the session's work queue, which
    /// deadlocks when called from a delegate callback that queue is
    /// delivering (seen as a hang when an endless answer passed the size
    /// limit), and would block a thread of Swift's cooperative pool anywhere
    /// else. The attempt has already ended through `finish`, so nothing
    /// waits for the cancellation itself.
    private static func cancel(_ task: URLSessionTask) {
        DispatchQueue.global(qos: .utility).async { task.cancel() }
    }

    private func register(_ transfer: Transfer?, for identifier: Int) {
        lock.lock()
        defer { lock.unlock() }
        active[identifier] = transfer
    }

    private func transfer(for task: URLSessionTask) -> Transfer? {
        lock.lock()
        defer { lock.unlock() }
        return active[task.taskIdentifier]
    }

    // MARK: URLSessionDataDelegate

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        guard let transfer = transfer(for: dataTask) else { return completionHandler(.cancel) }
        if let failure = transfer.receive(response) {
            transfer.finish(.failure(failure))
            completionHandler(.cancel)
        } else {
            completionHandler(.allow)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let transfer = transfer(for: dataTask), let failure = transfer.receive(data) else { return }
        transfer.finish(.failure(failure))
        Self.cancel(dataTask)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        guard let transfer = transfer(for: task) else { return completionHandler(nil) }
        if transfer.redirect() {
            completionHandler(request)
        } else {
            transfer.finish(.failure(.redirectLoop(HTTPImageSource.maximumRedirects)))
            completionHandler(nil)
            Self.cancel(task)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = transfer(for: task) else { return }
        transfer.finish(transfer.completion(error))
    }
}
