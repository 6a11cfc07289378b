// On Linux with the package's `LinuxURLSession` trait only (on by default):
// FoundationNetworking links libcurl (HTTPImageSource says more).
#if canImport(Darwin) || LinuxURLSession
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An ``HTTPTransport`` on Foundation's `URLSession`: the default transport
/// of ``HTTPImageSource``, and the one to use on Apple platforms.
///
/// Each request runs as a data task watched by the session's delegate, so
/// that a declared `Content-Length` over the limit is refused from the
/// head, a body that grows past it is cut, an answer cut short is told from
/// a complete one, and a 3xx comes back unfollowed.
///
/// On Linux, swift-corelibs-foundation cannot always stop a transfer once it
/// has been given up on (the server may go on sending into a connection
/// nobody reads) and waits for its session's work queue in `resume()` and
/// `cancel()`, so this transport makes those calls from Dispatch threads,
/// never from Swift's cooperative pool, and answers its caller at once
/// without waiting for them. Apps on Linux should prefer the libcurl
/// transport of the apps' package (`ParallaxImagesHTTP`), which cancels for
/// real.
public struct URLSessionTransport: HTTPTransport {
    private let connection: Connection

    /// A transport on a session of its own made from `configuration`
    /// (headers, proxies, TLS); `nil`: an ephemeral configuration that never
    /// answers from a cache, since retries must reach the server. The
    /// session is invalidated when the last copy of the transport is gone.
    public init(configuration: URLSessionConfiguration? = nil) {
        connection = Connection(configuration: configuration ?? Self.defaultConfiguration())
    }

    public func send(_ request: HTTPTransportRequest) async throws(HTTPTransportError) -> HTTPTransportResponse {
        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData)
        urlRequest.httpMethod = request.method.rawValue
        if let range = request.rangeHeader { urlRequest.setValue(range, forHTTPHeaderField: "Range") }
        // Foundation's own (idle) timeout is only a backstop behind the source's deadline.
        urlRequest.timeoutInterval = Self.foundationTimeout(request.timeout)
        return try await connection.transfers.run(urlRequest, on: connection.session,
                                                  maximumBodySize: max(1, request.maximumBodySize))
    }

    /// The timeout handed to Foundation. swift-corelibs-foundation (Linux)
    /// converts it with `Int(seconds) * 1000` milliseconds, so anything
    /// under one second becomes an immediate timeout and fractions are
    /// dropped; the value is therefore rounded up to whole seconds, at
    /// least 1, plus one more so it never fires together with the source's
    /// own deadline, which is the one that counts.
    static func foundationTimeout(_ seconds: TimeInterval) -> TimeInterval {
        guard seconds.isFinite else { return 86_400 }
        return max(1, min(seconds, 86_400).rounded(.up)) + 1
    }

    /// An ephemeral configuration that never answers from a cache.
    static func defaultConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        return configuration
    }

    /// Owns the session (and its delegate), invalidating it once the last
    /// copy of the transport is gone. `URLSession` is `Sendable` (on Linux
    /// as `@unchecked Sendable` in swift-corelibs-foundation).
    private final class Connection: Sendable {
        let session: URLSession
        let transfers: Transfers

        init(configuration: URLSessionConfiguration) {
            transfers = Transfers()
            session = URLSession(configuration: configuration, delegate: transfers, delegateQueue: nil)
        }

        deinit {
            // Off the caller's thread: swift-corelibs-foundation may wait for the session's own queue
            // here, and the last copy of a source is often dropped on a thread of Swift's cooperative pool.
            let session = self.session
            DispatchQueue.global(qos: .utility).async { session.invalidateAndCancel() }
        }
    }
}

/// The session delegate behind ``URLSessionTransport``: it watches each
/// task's answer arrive and ends the caller's wait with the answer or the
/// failure, whichever comes first, exactly once.
///
/// `@unchecked Sendable`: the table of transfers is only touched under
/// `lock`, and each `Transfer` guards its own state the same way.
final class Transfers: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var active: [Int: Transfer] = [:]

    typealias Outcome = Result<HTTPTransportResponse, HTTPTransportError>

    /// One request: what has arrived, and who waits for the outcome.
    private final class Transfer: @unchecked Sendable {
        let limit: Int
        /// A HEAD request: the answer's `Content-Length` describes a body that never comes.
        let expectsNoBody: Bool
        private let lock = NSLock()
        private var body = Data()
        private var expected: Int64?
        private var response: HTTPURLResponse?
        private var finished = false
        private var completed = false
        private var continuation: CheckedContinuation<Outcome, Never>?
        private var early: Outcome?

        init(limit: Int, expectsNoBody: Bool) {
            self.limit = limit
            self.expectsNoBody = expectsNoBody
        }

        func wait(_ continuation: CheckedContinuation<Outcome, Never>) {
            lock.lock()
            if let early {
                lock.unlock()
                continuation.resume(returning: early)
                return
            }
            self.continuation = continuation
            lock.unlock()
        }

        /// Whether the request has ended.
        var hasFinished: Bool {
            lock.lock()
            defer { lock.unlock() }
            return finished
        }

        /// Whether Foundation has delivered the task's completion: cancelling
        /// it after that only races swift-corelibs-foundation's own
        /// clean-up (its task registry traps on a task it already removed).
        var hasCompleted: Bool {
            lock.lock()
            defer { lock.unlock() }
            return completed
        }

        /// Ends the request with `outcome` unless it already ended. Returns whether this call ended it.
        @discardableResult
        func finish(_ outcome: Outcome) -> Bool {
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
            waiting?.resume(returning: outcome)
            return true
        }

        /// Takes the response's head; a failure if its declared length is over the limit.
        func receive(_ response: URLResponse) -> HTTPTransportError? {
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
        func receive(_ data: Data) -> HTTPTransportError? {
            lock.lock()
            defer { lock.unlock() }
            guard !finished else { return nil }
            guard body.count + data.count <= limit else { return .tooLarge(declared: nil, limit: limit) }
            body.append(data)
            return nil
        }

        /// The outcome of a task that completed, with `error` or without.
        func completion(_ error: (any Error)?) -> Outcome {
            lock.lock()
            defer { lock.unlock() }
            completed = true
            let short = !expectsNoBody && (expected.map { Int64(body.count) < $0 } ?? false)
            if let error {
                if response != nil, short || (error as? URLError)?.code == .networkConnectionLost {
                    return .failure(.cutShort(received: body.count, expected: expected))
                }
                return .failure(.failed(Transfers.describe(error)))
            }
            if short { return .failure(.cutShort(received: body.count, expected: expected)) }
            guard let response else { return .failure(.failed("the server's answer was not HTTP")) }
            var headers: [String: String] = [:]
            for case (let name as String, let value as String) in response.allHeaderFields { headers[name] = value }
            return .success(HTTPTransportResponse(status: response.statusCode, headers: headers,
                                                  body: expectsNoBody ? Data() : body))
        }
    }

    /// Runs `request` on `session` (whose delegate this is): the answer, or
    /// why not. Cancelling the calling task answers at once.
    func run(_ request: URLRequest, on session: URLSession,
             maximumBodySize: Int) async throws(HTTPTransportError) -> HTTPTransportResponse {
        let task = session.dataTask(with: request)
        let transfer = Transfer(limit: maximumBodySize, expectsNoBody: request.httpMethod == "HEAD")
        register(transfer, for: task.taskIdentifier)
        defer { register(nil, for: task.taskIdentifier) }
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                transfer.wait(continuation)
                Self.start(task, for: transfer)
            }
        } onCancel: {
            if transfer.finish(.failure(.cancelled)) { Self.cancel(task, of: transfer) }
        }
        // A switch rather than `outcome.get()`: the typed-throws `get()` is newer than the iOS 16 SDK.
        switch outcome {
        case .success(let response): return response
        case .failure(let failure): throw failure
        }
    }

    /// Starts `task` from a Dispatch thread, unless its request already
    /// ended (cancelled before it started): swift-corelibs-foundation's
    /// `resume()` waits for the session's work queue, and several sources
    /// doing that at once on Swift's cooperative pool (two threads on two
    /// cores) stalled every task in the process for seconds.
    private static func start(_ task: URLSessionTask, for transfer: Transfer) {
        DispatchQueue.global(qos: .userInitiated).async {
            if !transfer.hasFinished { task.resume() }
        }
    }

    /// Cancels `task` from a Dispatch thread. swift-corelibs-foundation's
    /// `cancel()` waits synchronously for the session's work queue, which
    /// deadlocks when called from a delegate callback that queue is
    /// delivering, and would block a thread of Swift's cooperative pool
    /// anywhere else. The request has already ended through `finish`, so
    /// nothing waits for the cancellation itself.
    private static func cancel(_ task: URLSessionTask, of transfer: Transfer) {
        DispatchQueue.global(qos: .utility).async {
            if !transfer.hasCompleted { task.cancel() }
        }
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

    /// A Foundation transport error as a sentence.
    static func describe(_ error: any Error) -> String {
        guard let urlError = error as? URLError else { return String(describing: error) }
        switch urlError.code {
        case .timedOut: return "timed out"
        case .cannotConnectToHost: return "could not connect (connection refused)"
        case .cannotFindHost, .dnsLookupFailed: return "host not found"
        case .networkConnectionLost: return "the server closed the connection before answering"
        case .notConnectedToInternet: return "not connected to the internet"
        case .badServerResponse: return "the server's answer was not valid HTTP"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return "the TLS connection failed (\(urlError.localizedDescription))"
        case .badURL, .unsupportedURL: return "the URL cannot be loaded"
        case .cancelled: return "cancelled"
        case .resourceUnavailable: return "the server's resource is unavailable"
        case .dataLengthExceedsMaximum: return "the answer is too large"
        case .zeroByteResource: return "the server sent an empty answer"
        case .cannotDecodeRawData, .cannotDecodeContentData, .cannotParseResponse:
            return "the server's answer could not be decoded"
        default:
            // swift-corelibs-foundation folds most socket errors into -1 (unknown) with the cause underneath.
            if let underlying = (urlError as NSError).userInfo[NSUnderlyingErrorKey] as? NSError {
                return "the transfer failed: \(underlying.localizedDescription) (URL error \(urlError.code.rawValue))"
            }
            let text = urlError.localizedDescription
            return text.isEmpty || text.hasPrefix("The operation could not be completed")
                ? "the transfer failed (URL error \(urlError.code.rawValue))"
                : "the transfer failed: \(text)"
        }
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
        Self.cancel(dataTask, of: transfer)
    }

    /// Never follows: the 3xx itself becomes the task's answer, and the
    /// source decides.
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = transfer(for: task) else { return }
        transfer.finish(transfer.completion(error))
    }
}
#endif
